#pragma once
// Discrete motion check of a straight joint-space edge against a CollisionWorld: every state of a
// grid must pass the state check, and whole runs of grid states are proven free at once
// (grid_check.cpp says how). GridCheckState holds its per-thread buffers.
#include <vector>

#include "engine/collision/lane_check.hpp"
#include "engine/collision/state_check.hpp"

namespace kinetic {

struct GridCheckState {
  // Per moving slot, self pair and solid part pair: speed along the edge and the padding a run
  // needs.
  std::vector<double> body_speed, self_speed, self_extra, part_speed, part_extra;
  struct Run {
    int a, b;                    // the states strictly between grid states a and b
    SlotMask scene;              // the bodies whose clearance from the scene is still to prove
    SlotMask self;               // the self pairs still to prove (slot_bit of their index)
    SlotMask roots = kAllSlots;  // the bodies whose root-sphere proof may succeed (slot_root_clear)
  };
  std::vector<Run> runs;
  JointVector q;
  JointVector dq;        // the edge's q1 - q0 (kept: a motion check allocates nothing)
  int blocked_step = 0;  // after a false verdict: the grid state found in collision
  // The lanes' buffers (lane_check.hpp): the grid states in the order they are checked, the
  // configurations of one batch and what the lanes left open in each.
  LaneState lanes;
  std::vector<int> order;
  // Per grid size (steps), the states 1 .. steps-1 middle first, then the quarters, ...: the same
  // few sizes come back edge after edge, so each is worked out once (grid_check.cpp).
  std::vector<std::vector<int>> bisections;
  std::vector<int> bisection_scratch;  // the same for a grid too large to keep
  JointVector lane_q[kLanes];
  LaneOpen lane_open[kLanes];
  // Worlds the lanes serve: edges to go before the whole-edge scene proof is tried again, and
  // the wait after its next failure (grid_check.cpp).
  int scene_proof_wait = 0, scene_proof_backoff = 0;
};

// The states q0 + (q1 - q0) * i / steps, 0 < i < steps (the ends are the caller's), all pass the
// state check with `options`: the verdict of checking each one, in the same order (the middle,
// then the quarters, ...: a blocked edge fails early), but a run of states is proven free at once
// when the state in its middle clears everything by how far each body can move to the run's ends.
// first_step (0 < first_step < steps): that state is checked before all others, where the caller
// expects a collision (the verdict is the same). with_ends: q0 and q1 (i = 0 and steps) must pass
// too, checked before the others (in the lanes' first pass, where the world has lanes, instead of
// two state checks of their own). After false, grid.blocked_step is the state found in collision.
bool grid_motion_free(const CollisionWorld& world, CollisionState& state, GridCheckState& grid,
                      const JointVector& q0, const JointVector& q1, int steps,
                      const CheckOptions& options, int first_step = 0, bool with_ends = false);

}  // namespace kinetic
