#pragma once
// Continuous collision check along a joint-space path against a CollisionWorld, one straight
// segment at a time (path_check.cpp says how): self pairs by conservative advancement, the scene
// (and self pairs of solid primitives) by adaptive bisection with padded states. PathCheckState
// holds its per-thread state: the pairs' clearance budgets carry from one segment to the next.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/collision/grid_check.hpp"

namespace kinetic {

struct PathContact {
  std::string body_a, body_b;
  bool scene = false;  // body_b is an obstacle
};

struct PathCheckState {
  // Per watched pair: the clearance budget (m beyond padding, plus the tolerance) at the path
  // parameter of its last look along the current segment, and its closing speed.
  std::vector<double> budget, look_t, speed;
  std::vector<char> table_proven;  // per watched pair: its table proved the current segment
  struct Witness {  // the closest points of a pair's last exact look, in each body's frame
    Vector3 on_a = Vector3::Zero(), on_b = Vector3::Zero();
    bool known = false;
  };
  std::vector<Witness> witness;
  std::vector<std::pair<double, int>> due;  // (path parameter, pair) heap
  JointVector q;                            // the path's last state
  // The segment's q1 - q, and the state looked at on it (kept: an advance allocates nothing).
  JointVector dq, at;
  CheckOptions options;
  double tolerance = 1e-3;
  PathContact contact;
  std::uint64_t world_id = 0;  // the world the path began in
  // The scene bisection (segment_free): its intervals still to prove and per-slot paddings, and
  // the speeds it shares with the grid check.
  struct Interval {
    double t0, t1;
    SlotMask bodies;  // the bodies still to prove clear of the scene on [t0, t1]
    bool self;        // the self pairs are still to prove there
  };
  std::vector<Interval> intervals;
  std::vector<double> body_padding;
  GridCheckState speeds;
};

// Checks the first state with the state check; each advance checks the segment from the last state
// to q, and q itself. False: that segment (or q) fails; state.contact then names the pair that
// failed on the segment (empty when q itself failed the state check). Self pairs keep at least
// (their padding - tolerance) everywhere; a body within the tolerance of an obstacle counts as
// contact.
bool path_begin(const CollisionWorld& world, CollisionState& state, PathCheckState& path,
                const JointVector& q, const CheckOptions& options, double tolerance);
bool path_advance(const CollisionWorld& world, CollisionState& state, PathCheckState& path,
                  const JointVector& q);

}  // namespace kinetic
