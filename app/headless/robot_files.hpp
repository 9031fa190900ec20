#pragma once
// The SRDF and kinetic.toml a job's URDF robot is loaded with: those the job names, else those
// found beside the URDF (engine find_robot_companions), and what the summary says about the ones
// it had to find, in the words of its "start:" line.
#include <filesystem>
#include <string>
#include <vector>

#include "app/headless/job_file.hpp"
#include "engine/model/robot_companions.hpp"

namespace kinetic::app::headless {

struct RobotFiles {
  std::filesystem::path srdf, config;  // "" for none (and for a built-in robot)
  RobotCompanions found;               // what the search found; empty where the job named the file
  // "srdf: ../srdf/panda.srdf, found in the package's srdf folder, as no --srdf was given"; a line
  // for the SRDF whenever it was searched for, for kinetic.toml only when one was found.
  std::vector<std::string> summary;
};

RobotFiles robot_files(const Job& job);

// Added to a robot load error when the search found files (one may be why it failed): which, and
// how to load without them; "" when it found none.
std::string found_files_hint(const RobotFiles& files, const Job& job);

}  // namespace kinetic::app::headless
