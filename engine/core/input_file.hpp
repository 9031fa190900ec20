#pragma once
// Reading a file the user named, whole and safely: only a regular file is read (a FIFO would block
// and a device such as /dev/zero would never end), and never more than the limit for its kind, so
// a wrong path fails at once with a message naming the file and what it is instead.
#include <cstddef>
#include <filesystem>
#include <string>

namespace kinetic {

// What is read and how large it may be (docs/headless-jobs.md: "Where outputs may go, and limits
// on input files").
struct InputKind {
  const char* what;       // "job file", "scene file", ... as messages name it
  std::size_t max_bytes;  // larger files are refused before they are read
};

constexpr std::size_t kMiB = std::size_t(1) << 20;
inline constexpr InputKind kJobInput{"job file", 16 * kMiB};
inline constexpr InputKind kSceneInput{"scene file", 64 * kMiB};
inline constexpr InputKind kUrdfInput{"URDF file", 64 * kMiB};
inline constexpr InputKind kSrdfInput{"SRDF file", 16 * kMiB};
inline constexpr InputKind kRobotConfigInput{"kinetic.toml file", 4 * kMiB};
inline constexpr InputKind kSessionInput{"session file", 64 * kMiB};
inline constexpr InputKind kTrajectoryInput{"trajectory file", 256 * kMiB};
inline constexpr InputKind kMeshInput{"mesh file", 256 * kMiB};
inline constexpr InputKind kTextInput{"file", 256 * kMiB};

// Throws Error(FileNotFound) naming the file when it does not exist, is not a regular file (a
// folder, a FIFO, a device, a socket: said which), cannot be opened, or is larger than
// kind.max_bytes (said with the limit). Symbolic links are followed.
void check_input_file(const std::filesystem::path& path, const InputKind& kind);

// check_input_file, then the whole file as a string (read without blocking on what it is).
std::string read_input_file(const std::filesystem::path& path, const InputKind& kind);

// "a FIFO (named pipe)", "a folder", "a character device", ... for a path that exists but is not a
// regular file; "" for a regular file or a path that does not exist.
std::string not_a_regular_file(const std::filesystem::path& path);

}  // namespace kinetic
