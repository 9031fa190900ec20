#pragma once
// File-system questions asked while searching for robot files, answered without throwing: a path
// that cannot be read (no permission, a broken link) is simply not a file or folder there.
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace kinetic {

inline bool is_regular_file_here(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

inline bool is_folder_here(const std::filesystem::path& path) {
  std::error_code ec;
  return std::filesystem::is_directory(path, ec);
}

// A ':'-separated list as ROS_PACKAGE_PATH and AMENT_PREFIX_PATH hold (null: empty), empty parts
// skipped.
inline std::vector<std::string> split_path_list(const char* value) {
  std::vector<std::string> parts;
  if (!value) return parts;
  std::stringstream in(value);
  for (std::string part; std::getline(in, part, ':');)
    if (!part.empty()) parts.push_back(part);
  return parts;
}

}  // namespace kinetic
