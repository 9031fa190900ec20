#pragma once
// Reading the files a xacro expansion pulls in (xacro:include, load_yaml): regular files only —
// a FIFO or a device (/dev/zero) would block or never end — and at most limits::kMaxFileBytes.
#include <string>

namespace kinetic::xacro {

// The whole text of `path`; throws Error(FileNotFound) when it is missing or unreadable, and
// Error(InvalidValue) when it is not a regular file or is too large. `what` names it in messages
// ("the included file").
std::string read_input_file(const std::string& path, const std::string& what);

}  // namespace kinetic::xacro
