#pragma once
// Loading robots: URDF (file or string) with optional SRDF and kinetic.toml, and the built-in
// library in robot_configs/ by name. All failures throw kinetic::Error with an actionable message.
#include <map>
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"

namespace kinetic {

struct LoadOptions {
  // Extra folders searched for package://NAME/... (a folder NAME holding a package.xml, or a
  // folder whose package.xml names NAME). Searched after the robot file's ancestors and before
  // ROS_PACKAGE_PATH and AMENT_PREFIX_PATH/share.
  std::vector<std::string> package_paths;
  // true: an unresolvable mesh is an Error(MissingMesh); false: the mesh keeps mesh_path == ""
  // and is listed in RobotModel load warnings.
  bool require_meshes = false;
  // Values of a xacro file's xacro:arg (what `xacro FILE NAME:=VALUE` passes); files ending in
  // .xacro, or declaring the xacro namespace, are expanded before they are read.
  std::map<std::string, std::string> xacro_args;
};

// Loads a URDF file. srdf_path / toml_path may be "" (then "<stem>.srdf" / "kinetic.toml" next to
// the URDF are NOT guessed; pass them explicitly). `urdf_path` may instead name a MoveIt config
// package (its folder, its config/ folder, its .setup_assistant or an SRDF in it): the package's
// description, SRDF (unless srdf_path names another) and YAML files are loaded, and
// RobotModel::source_notes() says which (engine/model/moveit_config_package.hpp).
RobotModelPtr load_robot_file(const std::string& urdf_path, const std::string& srdf_path = "",
                              const std::string& toml_path = "", const LoadOptions& options = {});

// Loads a URDF from memory; relative mesh paths resolve against base_dir.
RobotModelPtr load_robot_string(const std::string& urdf_xml, const std::string& srdf_xml = "",
                                const std::string& toml_text = "", const std::string& base_dir = "",
                                const LoadOptions& options = {});

// Built-in library (robot_configs/<name>/kinetic.toml + robot.urdf).
struct BuiltinRobotInfo {
  std::string name;          // e.g. "ur5e"
  std::string manufacturer;  // e.g. "Universal Robots"
  std::string model;         // e.g. "UR5e"
  int dof = 0;
  std::string directory;
};
std::vector<BuiltinRobotInfo> builtin_robots();
// Whether load_builtin_robot(name) finds a library entry (the same name, or in other case).
bool is_builtin_robot_name(const std::string& name);
// Throws Error(UnknownRobot) listing the closest names.
RobotModelPtr load_builtin_robot(const std::string& name, const LoadOptions& options = {});
// Folder of the built-in library: $KINETIC_ROBOT_CONFIGS, else the source tree, else the
// installed share/kinetic/robot_configs.
std::string builtin_robot_directory();

}  // namespace kinetic
