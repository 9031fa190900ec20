#include "engine/model/xacro/xacro_files.hpp"

#include <filesystem>
#include <fstream>

#include "engine/core/error.hpp"
#include "engine/model/xacro/xacro_limits.hpp"

namespace fs = std::filesystem;

namespace kinetic::xacro {

std::string read_input_file(const std::string& path, const std::string& what) {
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);  // stat: opening a FIFO would block
  if (ec || !fs::exists(status))
    throw Error(ErrorCode::FileNotFound, what + " '" + path + "' does not exist", "check the path");
  if (!fs::is_regular_file(status))
    throw Error(ErrorCode::InvalidValue,
                what + " '" + path + "' is not a regular file (" +
                    (fs::is_fifo(status)        ? "a FIFO"
                     : fs::is_directory(status) ? "a folder"
                                                : "a device or socket") +
                    ")",
                "name a file");
  const std::uintmax_t size = fs::file_size(path, ec);
  if (!ec && size > limits::kMaxFileBytes)
    throw Error(ErrorCode::InvalidValue,
                what + " '" + path + "' is " + std::to_string(size) +
                    " bytes, larger than the limit of " + std::to_string(limits::kMaxFileBytes) +
                    " bytes for a file a xacro expansion reads",
                "robot description files are far smaller: check that this is the right file");
  std::ifstream file(path, std::ios::binary);
  if (!file)
    throw Error(ErrorCode::FileNotFound, what + " '" + path + "' cannot be read",
                "check its permissions");
  std::string text;
  char chunk[1 << 16];
  while (file.read(chunk, sizeof chunk) || file.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(file.gcount()));
    if (text.size() > limits::kMaxFileBytes)
      throw Error(ErrorCode::InvalidValue, what + " '" + path + "' grew beyond the limit of " +
                                               std::to_string(limits::kMaxFileBytes) +
                                               " bytes while read");
  }
  return text;
}

}  // namespace kinetic::xacro
