#pragma once
// The end effectors a planning group's pose goals can name: SRDF end effectors whose arm (their
// parent group) is one chain with all its joints in the group. A group of two arms has one per
// hand; the arm reaches the pose while the group's other joints stay where they are. The studio
// shows one goal gizmo per end effector, and PoseGoal::end_effector names one.
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"

namespace kinetic {

struct GroupEndEffector {
  std::string name;  // the SRDF end effector's
  std::string arm;   // its parent group, a chain
};

// In the SRDF's order; empty when the SRDF gives the group none.
std::vector<GroupEndEffector> group_end_effectors(const RobotModelPtr& model,
                                                  const std::vector<int>& group_variables);

}  // namespace kinetic
