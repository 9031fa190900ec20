#pragma once
// MoveIt config packages, as MoveIt Setup Assistant writes them (package.xml, .setup_assistant,
// config/*.srdf, joint_limits.yaml, kinematics.yaml, initial_positions.yaml): which robot
// description, SRDF and YAML files make up the robot, found the way MoveIt 2's launch files
// (moveit_configs_utils) find them. Rules: docs/robot-configuration.md, "MoveIt config packages".
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kinetic {

class PackageResolver;

struct MoveItConfigPackage {
  std::string folder;  // the package's folder (holding its package.xml), absolute
  std::string name;    // the <name> of its package.xml
  std::string urdf;    // the robot description (URDF or xacro), absolute
  std::map<std::string, std::string> xacro_args;  // what .setup_assistant passes to its xacro
  std::string urdf_how;                           // for messages: "config/panda.urdf.xacro",
                         // "kortex_description/robots/gen3.xacro (.setup_assistant)"
  std::string srdf;      // absolute
  std::string srdf_how;  // for messages: "config/panda.srdf"
  // Absolute paths; "" where the package has no such file.
  std::string joint_limits, kinematics, initial_positions;
};

// The folder of the MoveIt config package `path` names (the package folder, its config/ folder,
// its .setup_assistant or package.xml, or an SRDF in its config/ folder), nullopt when it names
// something else.
// A package is a MoveIt config when its folder holds a package.xml and a .setup_assistant or an
// SRDF in config/.
std::optional<std::string> moveit_config_folder(const std::string& path);

// Where the robot's files are. The SRDF: `srdf` when given (an SRDF the user opened), else the one
// plain config/*.srdf, else the one .setup_assistant names. The description: config/<SRDF
// stem>.urdf.xacro (or .urdf), else the package and path .setup_assistant names (with its xacro
// arguments, found through `resolver`), else the one config/*.urdf.xacro. Throws
// Error(FileNotFound) naming the package and the missing file with what to do; Error(ParseError)
// for a .setup_assistant that is not YAML (file and line).
MoveItConfigPackage read_moveit_config_package(const std::string& folder,
                                               const PackageResolver& resolver,
                                               const std::string& srdf = "");

// "gripper:=robotiq_2f_85 dof:=7" -> {gripper: robotiq_2f_85, dof: 7}; words without ":=" are
// skipped.
std::map<std::string, std::string> parse_xacro_arguments(const std::string& text);

}  // namespace kinetic
