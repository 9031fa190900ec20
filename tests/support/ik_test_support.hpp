#pragma once
// What the IK worker's tests share: the error between two poses, and a built-in robot whose
// kinetic.toml gives IK an hour of budget (a solve then runs until something stops it).
#include <fstream>
#include <sstream>
#include <string>

#include "engine/core/types.hpp"
#include "engine/model/robot_loader.hpp"

namespace kinetic::test {

// Translation error (m) plus rotation angle (rad) between a and b.
inline double pose_error(const Pose& a, const Pose& b) {
  return (a.translation() - b.translation()).norm() +
         Eigen::AngleAxisd(a.linear().transpose() * b.linear()).angle();
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The built-in robot `name` with an hour of IK budget in its kinetic.toml (null when it has no
// [ik] table). The xArm6 has the numeric solver, which returns as soon as it converges; the
// Panda's sweep spends its budget on a reachable target too.
inline RobotModelPtr with_an_hour_of_ik(const std::string& name) {
  const std::string dir = builtin_robot_directory() + "/" + name;
  std::string toml = read_text(dir + "/kinetic.toml");
  const auto at = toml.find("[ik]\n");
  if (at == std::string::npos) return nullptr;
  toml.insert(at + 5, "timeout_ms = 3600000\nmax_iterations = 1000000\n");
  return load_robot_string(read_text(dir + "/robot.urdf"), "", toml, dir);
}

}  // namespace kinetic::test
