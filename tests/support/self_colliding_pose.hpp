#pragma once
// A self-colliding pose of a robot, found by sampling within its limits with a fixed seed, for
// tests that need the robot folded onto itself. Empty when none of `tries` samples collides.
#include <random>

#include "engine/collision/collision_checker.hpp"

namespace kinetic::test {

inline JointVector self_colliding_pose(const RobotModelPtr& robot, int tries = 10000,
                                       std::uint64_t seed = 7) {
  CollisionChecker checker(robot);
  std::mt19937_64 rng(seed);
  const JointVector lo = robot->lower_limits(), hi = robot->upper_limits();
  for (int attempt = 0; attempt < tries; ++attempt) {
    JointVector q(lo.size());
    for (int j = 0; j < q.size(); ++j)
      q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    if (checker.in_collision(q)) return q;
  }
  return {};
}

}  // namespace kinetic::test
