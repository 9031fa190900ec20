#pragma once
// The files a headless run reads, so that no output replaces one of them (a screenshot named like
// the URDF's texture overwrote it): the ones the job names, and once loaded, every file the robot
// and the scene were read from (xacro includes, meshes, textures).
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_file.hpp"

namespace kinetic::app::headless {

// (path, what it is: "job file", "URDF", "mesh of link 'x'", ...)
using ReadFiles = std::vector<std::pair<std::filesystem::path, std::string>>;

// The job file, its scene file, the URDF and its SRDF and kinetic.toml (found or named).
ReadFiles files_the_job_names(const Job& job);

// What the loaded robot and scene were read from besides: included files, meshes, textures.
ReadFiles files_the_robot_and_scene_read(const JobResult& result);

}  // namespace kinetic::app::headless
