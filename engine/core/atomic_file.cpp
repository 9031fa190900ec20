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
#include "engine/core/input_file.hpp"

namespace kinetic {

void write_file_atomically(const std::filesystem::path& given, const std::string& contents) {
  // Through a symbolic link to the file it names (replacing the link would leave the real file
  // without the changes), and keeping that file's permissions (a private 0600 file stays private).
  std::error_code ec, link_ec;
  const bool link = std::filesystem::is_symlink(given, link_ec);  // (a new file: no link, no error)
  const std::filesystem::path path = link ? std::filesystem::weakly_canonical(given, ec) : given;
  if (ec)
    throw Error(ErrorCode::IoError, "cannot write '" + given.string() + "': " + ec.message(),
                "check where the symbolic link points");
  struct stat existing {};
  const mode_t mode = ::stat(path.c_str(), &existing) == 0 && S_ISREG(existing.st_mode)
                          ? existing.st_mode & 07777
                          : 0644;
  const std::filesystem::path folder =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  // Built with append: GCC 12 at -O3 warns falsely (-Wrestrict) on "." + name + "...".
  std::string temp_name(1, '.');
  temp_name.append(path.filename().string()).append(".tmp-XXXXXX");
  std::string temp = (folder / temp_name).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0)
    throw Error(ErrorCode::IoError,
                "cannot write '" + path.string() + "': cannot create a file in '" +
                    folder.string() + "': " + std::strerror(errno),
                "check that the folder exists and is writable");
  const auto fail = [&](const std::string& what, int error) {
    ::unlink(temp.c_str());
    throw Error(ErrorCode::IoError,
                "cannot write '" + path.string() + "': " + what + ": " + std::strerror(error),
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
  if (::fchmod(fd, mode) != 0 || ::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    fail("flush failed", error);
  }
  if (::close(fd) != 0) fail("close failed", errno);
  if (::rename(temp.c_str(), path.c_str()) != 0) fail("rename failed", errno);
}

std::string read_text_file(const std::filesystem::path& path) {
  return read_input_file(path, kTextInput);
}

}  // namespace kinetic
