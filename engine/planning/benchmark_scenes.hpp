#pragma once
// The planning benchmark scenes (also handy demo scenes): obstacles around a fixed-base arm whose
// base sits at the world origin, sized for arms with about 0.85 m reach (UR5e, Panda).
//   empty   no obstacles
//   table   a table top in front of the robot
//   shelf   a shelf with two compartments whose openings are narrow (0.22 m)
//   cage    four posts and a roof frame around the robot
//   boxes20 twenty random boxes (fixed seed), none touching the robot at its zero configuration
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic {

const std::vector<std::string>& benchmark_scene_names();
// Throws Error(InvalidValue) listing the names for an unknown scene.
PlanningScene benchmark_scene(const std::string& name, const RobotModelPtr& model);

}  // namespace kinetic
