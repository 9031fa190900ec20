#pragma once
// The robot packages on this machine, for the studio's Robot library: MoveIt config packages and
// robot description packages found where package:// URIs are resolved (the package search paths
// the user set, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH/share, /opt/ros/*/share), crawled as a ROS
// workspace is (engine/model/package_resolver.hpp).
#include <cstddef>
#include <string>
#include <vector>

namespace kinetic {

struct RobotPackageEntry {
  std::string package;  // the <name> of its package.xml
  std::string folder;   // the package's folder, absolute
  bool moveit_config = false;
  // What opening the entry loads: a MoveIt config's folder, or one robot file of a description
  // package (each whole robot of its urdf/ and robots/ folders is an entry of its own).
  std::string open;
  std::string label;  // "panda_moveit_config", "kortex_description/robots/gen3.xacro"
};

// Where the Robot library looks besides the user's paths: ROS_PACKAGE_PATH entries,
// AMENT_PREFIX_PATH entries' share/, and /opt/ros/*/share, those that exist.
std::vector<std::string> installed_package_locations();

// Entries of every package under `locations` (crawled kMaxSearchDepth deep, hidden folders and
// COLCON_IGNORE'd ones skipped, a package never descended into), sorted by label; a package found
// twice (a path and an install of it) is listed once. At most `max_entries` (a home folder given
// as a path must not make a list nobody can use). Never throws.
std::vector<RobotPackageEntry> find_robot_packages(const std::vector<std::string>& locations,
                                                   std::size_t max_entries = 1000);

// Whether a description file is a whole robot rather than macros for one to include: its root
// <robot> has a <link>, or calls a macro (an xacro: element that is not a definition, an include
// or an argument). Reads at most 4 MiB; false for what cannot be read.
bool is_whole_robot_file(const std::string& path);

}  // namespace kinetic
