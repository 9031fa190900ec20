#include "engine/core/printable_text.hpp"

#include <algorithm>
#include <cstdio>

namespace kinetic {

namespace {
// A C1 control character in UTF-8: 0xC2 then 0x80 to 0x9F.
bool c1_at(std::string_view text, std::size_t i) {
  return static_cast<unsigned char>(text[i]) == 0xC2 && i + 1 < text.size() &&
         static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
         static_cast<unsigned char>(text[i + 1]) <= 0x9F;
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
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default: {
        char code[8];
        std::snprintf(code, sizeof code, "\\u%04x", byte);
        out += code;
      }
    }
  }
  return out;
}

std::string terminal_safe(std::string_view text, std::size_t max_line) {
  std::string out;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    std::string safe;
    for (std::size_t i = 0, tab = 0; i < line.size(); i = tab + 1) {
      tab = std::min(line.find('\t', i), line.size());
      safe += printable(line.substr(i, tab - i));
      if (tab < line.size()) safe += '\t';
    }
    if (safe.size() > max_line) {
      std::size_t cut = max_line;
      while (cut > 0 && (static_cast<unsigned char>(safe[cut]) & 0xC0) == 0x80)
        --cut;  // not inside a UTF-8 character
      safe = safe.substr(0, cut) + "… (" + std::to_string(line.size()) + " characters)";
    }
    out += safe;
    if (end == text.size()) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace kinetic
