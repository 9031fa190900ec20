#include "support/test_paths.hpp"

#include <cstdlib>
#include <filesystem>

namespace kinetic::test {

std::string shared_robots_dir() {
  std::filesystem::path dir = KINETIC_TEST_SHARED_ROBOTS;
  if (const char* env = std::getenv("KINETIC_SHARED_ROBOTS")) dir = env;
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return {};
  return std::filesystem::canonical(dir, ec).string();
}

std::string example_robot_data_dir() {
  const std::string root = shared_robots_dir();
  if (root.empty()) return {};
  const auto dir = std::filesystem::path(root) / "example-robot-data";
  return std::filesystem::is_directory(dir) ? dir.string() : std::string{};
}

std::string test_source_dir() {
  return KINETIC_TEST_SOURCE_DIR;
}

std::string mbm_panda_dir() {
  std::filesystem::path dir = KINETIC_TEST_SHARED_ROBOTS;
  if (const char* env = std::getenv("KINETIC_SHARED_ROBOTS")) dir = env;
  const auto panda = dir.parent_path() / "mbm" / "panda";
  std::error_code ec;
  if (!std::filesystem::is_directory(panda / "problems", ec)) return {};
  return std::filesystem::canonical(panda, ec).string();
}

bool shared_robots_available() {
  return !example_robot_data_dir().empty();
}

}  // namespace kinetic::test
