#include "engine/core/mesh_file_check.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <tinyxml2.h>

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/xml_limits.hpp"

namespace kinetic {

namespace {

bool starts_with_xml(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n\xEF\xBB\xBF");
  return first != std::string::npos && text[first] == '<';
}

// Whether Assimp may read the file as PLY: it picks its reader by the extension, and its PLY
// reader takes any file starting "ply" (it hung on "ply\xa4..." named .ply).
bool may_be_ply(const std::filesystem::path& path, const std::string& head) {
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension == ".ply" || head.rfind("ply", 0) == 0 || head.rfind("PLY", 0) == 0;
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line);
  for (std::string word; in >> word;) out.push_back(word);
  return out;
}

bool is_ply_type(const std::string& word) {
  static const std::set<std::string> types = {
      "char", "uchar", "short", "ushort", "int",   "uint",   "float",   "double",
      "int8", "uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"};
  return types.count(word) != 0;
}

// Element and property names as real files write them ("vertex", "vertex_indices", "nx").
bool is_ply_name(const std::string& word) {
  return !word.empty() && std::isdigit(static_cast<unsigned char>(word[0])) == 0 &&
         std::all_of(word.begin(), word.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
         });
}

// COLLADA <node>s instance one another (<instance_node url="#id">): a node that reaches itself
// crashed Assimp (endless recursion), and a chain that instances two copies at each step
// expands to billions of nodes. The problem, or "" when the instanced hierarchy is finite and
// at most kMaxColladaNodes nodes when expanded; `line` gets the line of the node concerned.
constexpr double kMaxColladaNodes = 1e6;

std::string collada_instance_problem(const std::string& text, std::size_t* line) {
  tinyxml2::XMLDocument document;
  if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS)
    return "";  // Assimp says why
  std::vector<const tinyxml2::XMLElement*> nodes;
  std::map<std::string, std::size_t> by_id;
  std::vector<const tinyxml2::XMLElement*> stack{document.RootElement()};
  while (!stack.empty()) {  // every <node>, iteratively (no recursion on input depth)
    const tinyxml2::XMLElement* element = stack.back();
    stack.pop_back();
    if (!element) continue;
    if (std::strcmp(element->Name(), "node") == 0) {
      if (const char* id = element->Attribute("id")) by_id.emplace(id, nodes.size());
      nodes.push_back(element);
    }
    for (const tinyxml2::XMLElement* child = element->FirstChildElement(); child;
         child = child->NextSiblingElement())
      stack.push_back(child);
  }
  // A node's children in the expanded hierarchy: its nested <node>s and the nodes it instances.
  std::map<const tinyxml2::XMLElement*, std::size_t> index;
  for (std::size_t i = 0; i < nodes.size(); ++i) index.emplace(nodes[i], i);
  std::vector<std::vector<std::size_t>> children(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    for (const tinyxml2::XMLElement* child = nodes[i]->FirstChildElement(); child;
         child = child->NextSiblingElement()) {
      if (std::strcmp(child->Name(), "node") == 0) {
        children[i].push_back(index.at(child));
      } else if (std::strcmp(child->Name(), "instance_node") == 0) {
        const char* url = child->Attribute("url");
        if (url && url[0] == '#')
          if (const auto target = by_id.find(url + 1); target != by_id.end())
            children[i].push_back(target->second);
      }
    }
  // Depth-first, iteratively: a node met again while on the path is a loop; the expanded size of
  // each node is summed from its children's once they are done.
  enum class Mark { New, OnPath, Done };
  std::vector<Mark> mark(nodes.size(), Mark::New);
  std::vector<double> expanded(nodes.size(), 1.0);
  for (std::size_t root = 0; root < nodes.size(); ++root) {
    if (mark[root] != Mark::New) continue;
    std::vector<std::pair<std::size_t, std::size_t>> path{{root, 0}};  // (node, next child)
    mark[root] = Mark::OnPath;
    while (!path.empty()) {
      auto& [node, next] = path.back();
      if (next < children[node].size()) {
        const std::size_t child = children[node][next++];
        if (mark[child] == Mark::OnPath) {
          if (line) *line = static_cast<std::size_t>(nodes[child]->GetLineNum());
          const char* id = nodes[child]->Attribute("id");
          return std::string("node '") +
                 (id ? printable(std::string(id).substr(0, 60)) : std::string("?")) +
                 "' instances itself (through <instance_node>): its hierarchy has no end";
        }
        if (mark[child] == Mark::New) {
          mark[child] = Mark::OnPath;
          path.emplace_back(child, 0);
        }
        continue;
      }
      for (const std::size_t child : children[node]) expanded[node] += expanded[child];
      mark[node] = Mark::Done;
      if (expanded[node] > kMaxColladaNodes) {
        if (line) *line = static_cast<std::size_t>(nodes[node]->GetLineNum());
        return "its nodes instance one another into more than a million nodes";
      }
      path.pop_back();
    }
  }
  return "";
}

// An OBJ file's material libraries (mtllib lines), which Assimp opens beside it: each must be a
// regular file within the mesh limits (a FIFO hung the reader). Throws as check_input_file.
void check_obj_material_libraries(const std::filesystem::path& path) {
  const std::string text = read_input_file(path, kMeshInput);
  std::size_t start = 0, number = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    ++number;
    std::string line = text.substr(start, end - start);
    start = end + 1;
    const std::vector<std::string> w = words(line);
    if (w.empty() || w[0] != "mtllib") continue;
    for (std::size_t k = 1; k < w.size(); ++k) {
      const std::filesystem::path library = path.parent_path() / w[k];
      std::error_code ec;
      if (!std::filesystem::exists(library, ec)) continue;  // Assimp goes on without it
      try {
        check_input_file(library, kMeshInput);
      } catch (const Error& error) {
        throw Error(error.code(),
                    "mesh file '" + path.string() + "' line " + std::to_string(number) +
                        ": material library: " + error.message(),
                    error.hint());
      }
    }
  }
}
}  // namespace

std::string ply_header_problem(const std::string& text, std::uintmax_t file_size,
                               std::size_t* line) {
  std::size_t number = 0, start = 0;
  bool format = false, element = false;
  while (start < text.size() && number < kMaxPlyHeaderLines) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string body = text.substr(start, end - start);
    start = end + 1;
    ++number;
    if (line) *line = number;
    if (!body.empty() && body.back() == '\r') body.pop_back();
    for (const char c : body)
      if (static_cast<unsigned char>(c) < 0x20 ? c != '\t' : static_cast<unsigned char>(c) >= 0x7f)
        return "a character that is not printable ASCII";
    const std::vector<std::string> w = words(body);
    if (number == 1) {
      if (w.size() != 1 || (w[0] != "ply" && w[0] != "PLY")) return "the first line is not 'ply'";
    } else if (w.empty() || w[0] == "comment" || w[0] == "obj_info") {
      continue;
    } else if (w[0] == "format") {
      if (format || w.size() != 3 ||
          (w[1] != "ascii" && w[1] != "binary_little_endian" && w[1] != "binary_big_endian") ||
          w[2] != "1.0")
        return "expected one 'format ascii|binary_little_endian|binary_big_endian 1.0'";
      format = true;
    } else if (w[0] == "element") {
      if (!format) return "an element before the format line";
      if (w.size() != 3 || !is_ply_name(w[1]) || w[2].size() > 19 ||
          w[2].find_first_not_of("0123456789") != std::string::npos)
        return "expected 'element NAME COUNT'";
      // Every element takes a byte at least: a larger count is a broken file, and Assimp
      // allocated for it (a 300-byte file asked for 100 GB).
      if (std::stoull(w[2]) > file_size)
        return "element '" + w[1] + "' counts " + w[2] + ", more than the file's " +
               std::to_string(file_size) + " bytes hold";
      element = true;
    } else if (w[0] == "property") {
      if (!element) return "a property before any element";
      const bool list = w.size() == 5 && w[1] == "list" && is_ply_type(w[2]) && is_ply_type(w[3]) &&
                        is_ply_name(w[4]);
      if (!list && !(w.size() == 3 && is_ply_type(w[1]) && is_ply_name(w[2])))
        return "expected 'property TYPE NAME' or 'property list TYPE TYPE NAME' (TYPE: char, "
               "uchar, "
               "short, ushort, int, uint, float, double or a sized name such as float32; NAME: "
               "letters, "
               "digits, '_' and '-')";
    } else if (w.size() == 1 && w[0] == "end_header") {
      return format ? "" : "no format line";
    } else {
      return "'" + w[0] + "' is not a PLY header keyword";
    }
  }
  return "no 'end_header' line in the first " + std::to_string(kMaxPlyHeaderLines) + " lines";
}

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

std::string collada_index_list_problem(const std::string& text, std::size_t* line) {
  std::size_t lines = 1, i = 0;
  const auto skip_past = [&](const char* marker) {
    const std::size_t end = text.find(marker, i);
    const std::size_t stop = end == std::string::npos ? text.size() : end + std::strlen(marker);
    lines += static_cast<std::size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(i),
                                                 text.begin() + static_cast<std::ptrdiff_t>(stop),
                                                 '\n'));
    i = stop;
  };
  while (i < text.size()) {
    if (text[i] == '\n') ++lines;
    if (text[i] != '<') {
      ++i;
      continue;
    }
    if (text.compare(i, 4, "<!--") == 0) {
      skip_past("-->");
      continue;
    }
    if (text.compare(i, 9, "<![CDATA[") == 0) {
      skip_past("]]>");
      continue;
    }
    // The element's name, then (for a list of indices) its text up to the next tag.
    std::size_t end = i + 1;
    while (end < text.size() &&
           (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_'))
      ++end;
    const std::string name = text.substr(i + 1, end - i - 1);
    i = end;
    if (name != "p" && name != "h" && name != "v" && name != "vcount") continue;
    const std::size_t close = text.find('>', i);
    if (close == std::string::npos || text[close - 1] == '/') continue;
    for (i = close + 1; i < text.size() && text[i] != '<'; ++i) {
      if (text[i] == '\n') ++lines;
      if (std::isdigit(static_cast<unsigned char>(text[i])) == 0 &&
          std::isspace(static_cast<unsigned char>(text[i])) == 0) {
        if (line) *line = lines;
        return "<" + name + "> holds a character that is not a digit (" +
               printable(text.substr(i, 1)) + "); it lists vertex indices";
      }
    }
  }
  return {};
}

namespace {

std::size_t count_numbers(const char* text) {
  std::istringstream in(text == nullptr ? "" : text);
  std::size_t n = 0;
  for (std::string word; in >> word;) ++n;
  return n;
}

// The primitives <p> lists for one <triangles>, <polylist> or <polygons> element, by the rules
// Assimp's reader counts them with; std::nullopt when they do not fill whole primitives.
std::optional<std::size_t> primitives_listed(const tinyxml2::XMLElement& element) {
  std::size_t stride = 1;  // indices per vertex: one per input offset
  for (auto* input = element.FirstChildElement("input"); input;
       input = input->NextSiblingElement("input"))
    stride = std::max<std::size_t>(stride, input->UnsignedAttribute("offset", 0) + 1);
  const std::string type = element.Name();
  std::size_t lists = 0, indices = 0;
  for (auto* p = element.FirstChildElement("p"); p; p = p->NextSiblingElement("p")) {
    ++lists;
    indices += count_numbers(p->GetText());
  }
  if (type == "polygons") {  // one polygon a <p>, or a <ph> (a polygon with holes)
    for (auto* ph = element.FirstChildElement("ph"); ph; ph = ph->NextSiblingElement("ph")) ++lists;
    return lists;
  }
  if (type == "triangles") {
    if (indices % (3 * stride) != 0) return std::nullopt;
    return indices / (3 * stride);
  }
  // polylist: one vertex count per polygon, as many vertices in <p>.
  const auto* vcount = element.FirstChildElement("vcount");
  std::istringstream in(vcount != nullptr && vcount->GetText() != nullptr ? vcount->GetText() : "");
  std::size_t polygons = 0, vertices = 0;
  for (std::size_t n = 0; in >> n;) {
    ++polygons;
    vertices += n;
  }
  if (vertices * stride != indices) return std::nullopt;
  return polygons;
}

void find_count_problem(const tinyxml2::XMLElement& root, std::string& problem, int& line) {
  std::vector<const tinyxml2::XMLElement*> stack{&root};  // no recursion on the file's nesting
  while (!stack.empty() && problem.empty()) {
    const tinyxml2::XMLElement* element = stack.back();
    stack.pop_back();
    const std::string name = element->Name();
    if (name == "float_array" || name == "int_array" || name == "bool_array" ||
        name == "Name_array" || name == "IDREF_array") {
      const char* count = element->Attribute("count");
      if (count == nullptr || *count == '\0' ||
          std::string(count).find_first_not_of("0123456789") != std::string::npos) {
        problem = "<" + name + "> has no count of its values (a whole number)";
        line = element->GetLineNum();
      } else if (const char* values = element->GetText();
                 std::strlen(count) > 18 ||
                 std::stoull(count) > (values ? std::strlen(values) : 0) / 2 + 1) {
        // Each value takes a character and a separator: a larger count is a broken file, and
        // Assimp allocated for it (2,000,000,000 floats: out of memory).
        problem = "<" + name + " count=\"" + count + "\"> holds far fewer values than it counts";
        line = element->GetLineNum();
      }
    } else if ((name == "triangles" || name == "polylist" || name == "polygons") &&
               element->Attribute("count")) {
      const std::size_t count = element->Unsigned64Attribute("count", 0);
      const auto listed = primitives_listed(*element);
      if (!listed || *listed != count) {
        problem = "<" + name + " count=\"" + std::to_string(count) + "\"> lists " +
                  (listed ? std::to_string(*listed) : std::string("no whole number of")) +
                  " primitives";
        line = element->GetLineNum();
      }
    }
    for (auto* child = element->FirstChildElement(); child; child = child->NextSiblingElement())
      stack.push_back(child);
  }
}

}  // namespace

std::string collada_count_problem(const std::string& text, std::size_t* line) {
  tinyxml2::XMLDocument document;
  // A document that is not well-formed XML is refused, not left to Assimp: its lenient parser read
  // one with stray bytes inside an element and then failed an assertion on the counts (found by
  // fuzzing in CI). Nesting was bounded before (xml_nesting_depth), so depth is not why it fails.
  if (document.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS ||
      document.RootElement() == nullptr) {
    if (line) *line = static_cast<std::size_t>(std::max(document.ErrorLineNum(), 0));
    return std::string("not well-formed XML (") +
           (document.Error() ? document.ErrorName() : "no root element") + ")";
  }
  std::string problem;
  int at = 0;
  find_count_problem(*document.RootElement(), problem, at);
  if (line) *line = static_cast<std::size_t>(at);
  return problem;
}

void check_mesh_file(const std::filesystem::path& path) {
  check_input_file(path, kMeshInput);
  // Binary meshes (STL, PLY) are told by their first bytes; of those only a PLY header is read
  // here.
  std::string head(256, '\0');
  std::ifstream file(path, std::ios::binary);
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(file.gcount()));
  if (may_be_ply(path, head)) {
    // Assimp's PLY reader crashed and hung on malformed headers (found by fuzzing): it gets only
    // headers that follow the format. The header is ASCII lines before the data, binary or not.
    std::string text(kMaxPlyHeaderLines * 256, '\0');
    std::ifstream ply(path, std::ios::binary);
    ply.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(ply.gcount()));
    std::size_t line = 0;
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (const std::string problem = ply_header_problem(text, ec ? 0 : size, &line);
        !problem.empty())
      throw Error(ErrorCode::ParseError,
                  "mesh file '" + path.string() + "': PLY header line " + std::to_string(line) +
                      ": " + problem,
                  "export the mesh again, or as STL");
    return;
  }
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".obj") check_obj_material_libraries(path);
  if (!starts_with_xml(head)) return;
  const std::string text = read_input_file(path, kMeshInput);
  check_xml_attribute_counts(text, "mesh file '" + path.string() + "'");
  std::size_t line = 0;
  if (xml_nesting_depth(text.data(), text.size(), kMaxMeshXmlDepth, &line) > kMaxMeshXmlDepth)
    throw Error(ErrorCode::Unsupported,
                "mesh file '" + path.string() + "' nests its XML elements more than " +
                    std::to_string(kMaxMeshXmlDepth) + " deep (line " + std::to_string(line) +
                    "); the mesh reader cannot take so deep a file",
                "export the mesh again with a flatter node hierarchy, or as STL");
  // Assimp's COLLADA reader looped for ever, allocating, on a letter in a list of indices
  // (found by fuzzing).
  if (const std::string problem = collada_index_list_problem(text, &line); !problem.empty())
    throw Error(ErrorCode::ParseError,
                "mesh file '" + path.string() + "' line " + std::to_string(line) + ": " + problem,
                "export the mesh again, or as STL");
  // ... failed an assertion (an abort) when a primitive count disagreed with its list, and
  // dereferenced null for an array without a count.
  if (const std::string problem = collada_count_problem(text, &line); !problem.empty())
    throw Error(ErrorCode::ParseError,
                "mesh file '" + path.string() + "' line " + std::to_string(line) + ": " + problem,
                "export the mesh again, or as STL");
  if (const std::string problem = collada_instance_problem(text, &line); !problem.empty())
    throw Error(ErrorCode::Unsupported,
                "mesh file '" + path.string() + "' line " + std::to_string(line) + ": " + problem,
                "export the mesh again with its instances expanded, or as STL");
}

}  // namespace kinetic
