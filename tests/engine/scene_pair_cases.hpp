#pragma once
// Random states of a robot among a scene's obstacles, every (moving slot, obstacle) pair of each
// at paddings 0 and 0.02 m with the exact test's verdict: what the proofs that may only say
// "colliding" (witness vertices, inner spheres) are compared against.
#include <cstdint>
#include <random>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/collision/state_check.hpp"
#include "support/random_state.hpp"

namespace kinetic::test {

// visit(case, padding, slot, obstacle, exact) for each pair; false from it stops the walk.
// Returns how many pairs the exact test found colliding.
template <class Visit>
int visit_scene_pair_cases(const CollisionWorld& world, CollisionState& state,
                           const RobotModel& robot, int cases, std::uint64_t seed,
                           const Visit& visit) {
  std::mt19937_64 draw(seed);
  int colliding = 0;
  for (int i = 0; i < cases; ++i) {
    update_poses(world, state, random_state(robot, draw));
    for (const double padding : {0.0, 0.02})
      for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
        const int b = world.moving_bodies[m];
        for (int o = world.obstacle_begin; o < world.body_count(); ++o) {
          const bool exact = exact_pair_collision(
              *world.bodies[static_cast<std::size_t>(b)].body, state.pose(b),
              *world.bodies[static_cast<std::size_t>(o)].body, state.pose(o), padding);
          colliding += exact;
          if (!visit(i, padding, m, o, exact)) return colliding;
        }
      }
  }
  return colliding;
}

}  // namespace kinetic::test
