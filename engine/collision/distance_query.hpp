#pragma once
// Contacts and the minimum distance of one configuration against a CollisionWorld, with the
// per-thread buffer the distance search orders its candidate pairs in.
#include <vector>

#include "engine/collision/state_check.hpp"

namespace kinetic {

struct DistanceState {
  struct Candidate {
    double lower;  // root-sphere gap: a lower bound on the pair's distance
    int a, b;
  };
  std::vector<Candidate> candidates;
};

// Every pair within padding at the state's poses, deepest first (after update_poses).
std::vector<Contact> contacts_at_poses(const CollisionWorld& world, const CollisionState& state,
                                       const CheckOptions& options);
// The nearest pair at the state's poses (after update_poses).
DistanceResult min_distance_at_poses(const CollisionWorld& world, const CollisionState& state,
                                     DistanceState& buffers, const DistanceOptions& options);

}  // namespace kinetic
