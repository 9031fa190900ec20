#pragma once
// Names read from files, made safe to print in a message: a key "\u0000x" of a JSON file holds a
// NUL, which ended the message at what() (the user saw nothing), and other control characters
// would move the cursor or ring the terminal.
#include <string>
#include <string_view>

namespace kinetic {

// `text` with each control character (below U+0020, DEL, and U+0080 to U+009F, whose U+009B is
// a one-character escape on many terminals) written as JSON writes it: \n, \t, \u0000, \u009b.
// Everything else, UTF-8 included, is kept as it is.
std::string printable(std::string_view text);

// Whether `text` holds one of the control characters printable() escapes.
bool has_control_character(std::string_view text);

// A message line for a terminal: control characters escaped as printable() does but line breaks
// and tabs kept, and a line longer than `max_line` bytes cut there, saying how long it was (a
// 10 MB name from a file was repeated whole).
std::string terminal_safe(std::string_view text, std::size_t max_line = 2000);

}  // namespace kinetic
