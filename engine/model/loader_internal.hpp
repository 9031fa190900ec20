#pragma once
// Internal to engine/model: the common loading pipeline behind load_robot_file,
// load_robot_string and load_builtin_robot.
#include <string>
#include <vector>

#include "engine/model/moveit_config_package.hpp"
#include "engine/model/robot_loader.hpp"

namespace kinetic::detail {

// Reads a whole file; Error(FileNotFound) naming `what` and the path when it cannot.
std::string read_text_file(const std::string& path, const std::string& what);
std::string absolute_path(const std::string& path);

struct RobotSources {
  std::string urdf_xml, urdf_source;   // urdf_source names it in messages
  std::string base_dir;                // relative meshes resolve here; its ancestors hold packages
  std::string srdf_xml, srdf_source;   // srdf_source "" = no SRDF
  std::string toml_text, toml_source;  // toml_source "" = no kinetic.toml
  std::string source_path;             // RobotModel::source_path()
  std::vector<std::string> included_files;  // RobotModel::included_files() (xacro includes)
  std::vector<std::string> xacro_warnings;  // the xacro files' own (xacro.warning, deprecations)
  const MoveItConfigPackage* moveit = nullptr;  // the MoveIt config it came from, null for none
};

// URDF (tinyxml2 check + urdfdom) -> model -> SRDF -> a MoveIt config's YAML files -> kinetic.toml
// (checked against the model).
RobotModelPtr load_robot(const RobotSources& in, const LoadOptions& options);

}  // namespace kinetic::detail
