#include "engine/planning/planning_goal.hpp"

namespace kinetic {

Pose relative_target(const Pose& tcp, const RelativeGoal& goal) {
  if (goal.frame == RelativeGoal::Frame::Tool) return tcp * goal.offset;
  Pose target = tcp;
  target.translation() += goal.offset.translation();
  target.linear() = goal.offset.linear() * tcp.linear();
  return target;
}

}  // namespace kinetic
