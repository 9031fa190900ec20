#pragma once
// The files a robot package keeps with a URDF: its SRDF (groups, rest poses, link pairs that never
// collide) and a kinetic.toml. Opening a URDF alone finds them here, by the rules
// docs/robot-configuration.md gives ("How robot files are found"), so it gets what its package
// describes.
#include <string>

namespace kinetic {

// One file found for a URDF; all empty when none was.
struct CompanionFile {
  std::string path;      // absolute, lexically normal
  std::string relative;  // from the URDF's folder: "panda.srdf", "../srdf/panda.srdf"
  std::string how;  // the rule that found it, for messages: "found in the package's srdf folder"
  bool found() const { return !path.empty(); }
};

struct RobotCompanions {
  CompanionFile srdf;
  CompanionFile toml;
};

// The SRDF is the first regular file of: <stem>.srdf beside the URDF, ../srdf/<stem>.srdf,
// ../config/<stem>.srdf (a MoveIt config's place), then the same three named after the URDF's
// <robot name="..."> where that differs from the file's stem. kinetic.toml: "kinetic.toml" beside
// the URDF only (a package's other folders hold other robots' URDFs). Nothing for a MoveIt config
// package (its folder, .setup_assistant or SRDF): the package names its own. Never throws: a URDF
// that cannot be read gives no name-based guess (loading it reports the real problem).
RobotCompanions find_robot_companions(const std::string& urdf_path);

// The name attribute of a URDF's root <robot> element, read from the start of the file without
// parsing the rest; "" when the file cannot be read or does not start that way.
std::string urdf_robot_name(const std::string& urdf_path);

}  // namespace kinetic
