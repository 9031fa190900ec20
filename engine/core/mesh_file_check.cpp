#include "engine/core/mesh_file_check.hpp"

#include <cstring>
#include <fstream>
#include <string>

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"

namespace kinetic {

namespace {

bool starts_with_xml(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  return first != std::string::npos && text[first] == '<';
}

}  // namespace

std::size_t xml_nesting_depth(const char* text, std::size_t size, std::size_t stop_at,
                              std::size_t* line) {
  std::size_t depth = 0, deepest = 0, lines = 1;
  const auto skip_to = [&](std::size_t from, const char* end_marker) {
    const std::size_t n = std::strlen(end_marker);
    for (std::size_t i = from; i + n <= size; ++i) {
      if (text[i] == '\n') ++lines;
      if (std::memcmp(text + i, end_marker, n) == 0) return i + n;
    }
    return size;
  };
  std::size_t i = 0;
  while (i < size) {
    const char c = text[i];
    if (c == '\n') ++lines;
    if (c != '<') {
      ++i;
      continue;
    }
    if (size - i >= 4 && std::memcmp(text + i, "<!--", 4) == 0) {
      i = skip_to(i + 4, "-->");
    } else if (size - i >= 9 && std::memcmp(text + i, "<![CDATA[", 9) == 0) {
      i = skip_to(i + 9, "]]>");
    } else if (size - i >= 2 && text[i + 1] == '?') {
      i = skip_to(i + 2, "?>");
    } else if (size - i >= 2 && text[i + 1] == '!') {
      i = skip_to(i + 2, ">");
    } else if (size - i >= 2 && text[i + 1] == '/') {
      if (depth > 0) --depth;
      i = skip_to(i + 2, ">");
    } else {
      // An element's start tag: to its '>' past quoted values; "/>" closes it at once.
      char quote = 0, previous = 0;
      std::size_t j = i + 1;
      for (; j < size; ++j) {
        const char t = text[j];
        if (t == '\n') ++lines;
        if (quote) {
          if (t == quote) quote = 0;
        } else if (t == '"' || t == '\'') {
          quote = t;
        } else if (t == '>') {
          break;
        }
        if (!quote && t != ' ' && t != '\t' && t != '\r' && t != '\n') previous = t;
      }
      if (previous != '/') {
        ++depth;
        if (depth > deepest) {
          deepest = depth;
          if (line) *line = lines;
          if (deepest > stop_at) return deepest;
        }
      }
      i = j + 1;
    }
  }
  return deepest;
}

void check_mesh_file(const std::filesystem::path& path) {
  check_input_file(path, kMeshInput);
  // Binary meshes (STL, PLY) are told by their first bytes and not read here.
  std::string head(256, '\0');
  std::ifstream file(path, std::ios::binary);
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(file.gcount()));
  if (!starts_with_xml(head)) return;
  const std::string text = read_input_file(path, kMeshInput);
  std::size_t line = 0;
  if (xml_nesting_depth(text.data(), text.size(), kMaxMeshXmlDepth, &line) > kMaxMeshXmlDepth)
    throw Error(ErrorCode::Unsupported,
                "mesh file '" + path.string() + "' nests its XML elements more than " +
                    std::to_string(kMaxMeshXmlDepth) + " deep (line " + std::to_string(line) +
                    "); the mesh reader cannot take so deep a file",
                "export the mesh again with a flatter node hierarchy, or as STL");
}

}  // namespace kinetic
