#include "engine/core/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "engine/core/error.hpp"

namespace kinetic {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISREG(mode)) return {};
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a file";
}

std::string megabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB",
                static_cast<double>(bytes) / static_cast<double>(kMiB));
  return text;
}

std::string named(const std::filesystem::path& path, const InputKind& kind) {
  return std::string(kind.what) + " '" + path.string() + "'";
}

[[noreturn]] void refuse_kind(const std::filesystem::path& path, const InputKind& kind,
                              const std::string& what) {
  throw Error(ErrorCode::FileNotFound, named(path, kind) + " is " + what + ", not a regular file",
              "name the file itself (a pipe, a device or a folder cannot be read as one)");
}

[[noreturn]] void refuse_size(const std::filesystem::path& path, const InputKind& kind,
                              std::size_t size, bool at_least) {
  throw Error(ErrorCode::FileNotFound,
              named(path, kind) + " is " + (at_least ? "larger than " : "") + megabytes(size) +
                  "; a " + kind.what + " may be at most " + megabytes(kind.max_bytes),
              "check that this is the right file");
}

[[noreturn]] void refuse_open(const std::filesystem::path& path, const InputKind& kind, int error) {
  if (error == ENOENT || error == ENOTDIR)
    throw Error(ErrorCode::FileNotFound, named(path, kind) + " does not exist",
                "check the path (relative paths are taken from the current directory)");
  throw Error(ErrorCode::FileNotFound,
              "cannot read " + named(path, kind) + ": " + std::strerror(error),
              "check the file's permissions");
}

// Opened without blocking (a FIFO's open waits for a writer otherwise) and checked on the open
// file itself, so what is read is what was checked.
int open_checked(const std::filesystem::path& path, const InputKind& kind, struct stat& info) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) refuse_open(path, kind, errno);
  if (::fstat(fd, &info) != 0) {
    const int error = errno;
    ::close(fd);
    refuse_open(path, kind, error);
  }
  if (const std::string what = kind_of(info.st_mode); !what.empty()) {
    ::close(fd);
    refuse_kind(path, kind, what);
  }
  if (static_cast<std::size_t>(info.st_size) > kind.max_bytes) {
    ::close(fd);
    refuse_size(path, kind, static_cast<std::size_t>(info.st_size), false);
  }
  return fd;
}

}  // namespace

std::string not_a_regular_file(const std::filesystem::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return {};
  return kind_of(info.st_mode);
}

void check_input_file(const std::filesystem::path& path, const InputKind& kind) {
  // A folder cannot be opened for reading on every system: said as a folder either way.
  if (const std::string what = not_a_regular_file(path); what == "a folder")
    refuse_kind(path, kind, what);
  struct stat info {};
  ::close(open_checked(path, kind, info));
}

std::string read_input_file(const std::filesystem::path& path, const InputKind& kind) {
  if (const std::string what = not_a_regular_file(path); what == "a folder")
    refuse_kind(path, kind, what);
  struct stat info {};
  const int fd = open_checked(path, kind, info);
  std::string text;
  text.reserve(static_cast<std::size_t>(info.st_size));
  char chunk[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      refuse_open(path, kind, error);
    }
    if (n == 0) break;
    // The size may grow while it is read (or be reported as 0, as /proc's files are).
    if (text.size() + static_cast<std::size_t>(n) > kind.max_bytes) {
      ::close(fd);
      refuse_size(path, kind, kind.max_bytes, true);
    }
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

}  // namespace kinetic
