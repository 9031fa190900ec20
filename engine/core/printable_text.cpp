#include "engine/core/printable_text.hpp"

#include <cstdio>

namespace kinetic {

namespace {
// A C1 control character in UTF-8: 0xC2 then 0x80 to 0x9F.
bool c1_at(std::string_view text, std::size_t i) {
  return static_cast<unsigned char>(text[i]) == 0xC2 && i + 1 < text.size() &&
         static_cast<unsigned char>(text[i + 1]) >= 0x80 && static_cast<unsigned char>(text[i + 1]) <= 0x9F;
}
}  // namespace

bool has_control_character(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20 || byte == 0x7f || c1_at(text, i)) return true;
  }
  return false;
}

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (c1_at(text, i)) {
      char code[8];
      std::snprintf(code, sizeof code, "\\u%04x", static_cast<unsigned char>(text[++i]));
      out += code;
      continue;
    }
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
