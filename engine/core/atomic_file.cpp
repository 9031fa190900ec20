#include "engine/core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include "engine/core/error.hpp"

namespace kinetic {

void write_file_atomically(const std::filesystem::path& path, const std::string& contents) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  // Built with append: GCC 12 at -O3 warns falsely (-Wrestrict) on "." + name + "...".
  std::string temp_name(1, '.');
  temp_name.append(path.filename().string()).append(".tmp-XXXXXX");
  std::string temp = (folder / temp_name).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0)
    throw Error(ErrorCode::IoError,
                "cannot write '" + path.string() + "': cannot create a file in '" + folder.string() +
                    "': " + std::strerror(errno),
                "check that the folder exists and is writable");
  const auto fail = [&](const std::string& what, int error) {
    ::unlink(temp.c_str());
    throw Error(ErrorCode::IoError, "cannot write '" + path.string() + "': " + what + ": " +
                                        std::strerror(error),
                "the previous file, if any, is unchanged");
  };
  std::size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = ::write(fd, contents.data() + written, contents.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      fail("write failed", error);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    fail("flush failed", error);
  }
  if (::close(fd) != 0) fail("close failed", errno);
  if (::rename(temp.c_str(), path.c_str()) != 0) fail("rename failed", errno);
}

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  if (!in || std::filesystem::is_directory(path, ec))
    throw Error(ErrorCode::FileNotFound, "cannot read '" + path.string() + "'",
                "check the path and the file's permissions");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kinetic
