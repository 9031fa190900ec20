#include "engine/planning/planning_goal.hpp"

#include <cmath>

namespace kinetic {

Pose relative_target(const Pose& tcp, const RelativeGoal& goal) {
  if (goal.frame == RelativeGoal::Frame::Tool) return tcp * goal.offset;
  Pose target = tcp;
  target.translation() += goal.offset.translation();
  target.linear() = goal.offset.linear() * tcp.linear();
  return target;
}

JointVector turned_toward(JointVector q, const JointVector& reference, const RobotModel& model,
                          const std::vector<int>& variables) {
  constexpr double kTurn = 2.0 * M_PI;
  for (const int v : variables) {
    const Joint& joint = model.variable_joint(v);
    if (joint.type != JointType::Revolute && joint.type != JointType::Continuous) continue;
    const double nearest = q[v] + kTurn * std::round((reference[v] - q[v]) / kTurn);
    if (!joint.limits.has_position_limits) {
      q[v] = nearest;
      continue;
    }
    // The nearest turn may lie outside the limits where the one beside it does not.
    double best = q[v];
    for (int turns = -1; turns <= 1; ++turns) {
      const double candidate = nearest + kTurn * turns;
      if (candidate >= joint.limits.lower && candidate <= joint.limits.upper &&
          std::abs(candidate - reference[v]) < std::abs(best - reference[v]))
        best = candidate;
    }
    q[v] = best;
  }
  return q;
}

}  // namespace kinetic
