#pragma once
// Shared by the fuzz targets: the input as text, a file holding it for readers that take only a
// path, and the small robot that SRDF and kinetic.toml inputs are checked against.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/model/robot_loader.hpp"

namespace kinetic::fuzz {

inline std::string text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A folder of this process's own under the temporary folder (two targets may run at once),
// removed when the process exits normally. Never destroyed, so the exit handler can use it.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path* const dir = [] {
    auto* path = new std::filesystem::path(std::filesystem::temp_directory_path() /
                                           ("kinetic-fuzz-" + std::to_string(::getpid())));
    std::filesystem::create_directories(*path);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratch_dir(), ec);
    });
    return path;
  }();
  return *dir;
}

// Writes the input to scratch_dir()/name, replacing what was there; returns the path.
inline std::filesystem::path write_scratch_file(const uint8_t* data, size_t size,
                                                const std::string& name) {
  const auto path = scratch_dir() / name;
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

// The checkout's tests/data folder (fuzz_test_data.cpp).
const char* test_data_dir();

// tests/data's tiny_gripper (an arm, a mimic gripper, an SRDF): names in fuzzed SRDF and
// kinetic.toml inputs are looked up in it, as the studio does with the robot they belong to.
inline const RobotModel& reference_robot() {
  static const RobotModelPtr model =
      load_robot_file(std::string(test_data_dir()) + "/robot_library/tiny_gripper/robot.urdf");
  return *model;
}

}  // namespace kinetic::fuzz
