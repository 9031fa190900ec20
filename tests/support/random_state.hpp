#pragma once
// A configuration drawn uniformly within the model's joint limits (continuous joints: -pi..pi),
// one draw per variable in model order: the random states the collision tests compare verdicts on.
#include <random>

#include "engine/model/robot_model.hpp"

namespace kinetic::test {

inline JointVector random_state(const RobotModel& model, std::mt19937_64& rng) {
  const JointVector lo = model.lower_limits(), hi = model.upper_limits();
  JointVector q(model.dof());
  for (int j = 0; j < model.dof(); ++j)
    q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
  return q;
}

}  // namespace kinetic::test
