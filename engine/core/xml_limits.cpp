#include "engine/core/xml_limits.hpp"

#include <cstring>

#include "engine/core/error.hpp"

namespace kinetic {

void check_xml_attribute_counts(const std::string& text, const std::string& source) {
  const std::size_t size = text.size();
  std::size_t line = 1, i = 0;
  const auto skip_to = [&](std::size_t from, const char* end_marker) {
    const std::size_t found = text.find(end_marker, from);
    const std::size_t stop = found == std::string::npos ? size : found + std::strlen(end_marker);
    for (std::size_t k = from; k < stop; ++k) line += text[k] == '\n';
    return stop;
  };
  while (i < size) {
    if (text[i] == '\n') ++line;
    if (text[i] != '<') {
      ++i;
      continue;
    }
    if (text.compare(i, 4, "<!--") == 0) {
      i = skip_to(i + 4, "-->");
    } else if (text.compare(i, 9, "<![CDATA[") == 0) {
      i = skip_to(i + 9, "]]>");
    } else if (i + 1 < size && (text[i + 1] == '?' || text[i + 1] == '!' || text[i + 1] == '/')) {
      i = skip_to(i + 2, ">");
    } else {
      // A start tag: each '=' outside a quoted value begins an attribute's value.
      const std::size_t tag_line = line;
      std::size_t attributes = 0, j = i + 1;
      char quote = 0;
      for (; j < size; ++j) {
        const char c = text[j];
        if (c == '\n') ++line;
        if (quote) {
          if (c == quote) quote = 0;
        } else if (c == '"' || c == '\'') {
          quote = c;
        } else if (c == '=') {
          if (++attributes > kMaxXmlAttributes)
            throw Error(ErrorCode::ParseError,
                        source + ":" + std::to_string(tag_line) + ": an element with more than " +
                            std::to_string(kMaxXmlAttributes) +
                            " attributes; the XML reader cannot take so many",
                        "check that this is the right file: robot files and meshes have a few "
                        "attributes per element");
        } else if (c == '>') {
          break;
        }
      }
      i = j + 1;
    }
  }
}

}  // namespace kinetic
