#include "engine/core/printable_text.hpp"

#include <cstdio>

namespace kinetic {

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte != 0x7f) {
      out.push_back(c);
      continue;
    }
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default: {
        char code[8];
        std::snprintf(code, sizeof code, "\\u%04x", byte);
        out += code;
      }
    }
  }
  return out;
}

}  // namespace kinetic
