#pragma once
// The built-in UR5e and Panda, loaded once per test program (loading parses URDF and meshes).
#include "engine/model/robot_loader.hpp"

namespace kinetic::test {

inline RobotModelPtr builtin_ur5e() {
  static const RobotModelPtr model = load_builtin_robot("ur5e");
  return model;
}

inline RobotModelPtr builtin_panda() {
  static const RobotModelPtr model = load_builtin_robot("panda");
  return model;
}

}  // namespace kinetic::test
