#pragma once
// How far one moving body is from the scene beyond its padding, as a lower bound cheap enough for
// each state of the continuous path check (path_check.cpp): a body clear by g there stays clear
// for as long as it moves less than g, so one state proves a stretch of the segment in proportion
// to its clearance instead of a fixed half-interval.
#include "engine/collision/state_check.hpp"

namespace kinetic {

// Lower bound on the distance of two bodies of solid primitives below `cutoff` (cutoff when
// nothing is nearer), exact within `exact_within` and within kLooseRatio beyond it, with the
// points of the last GJK iterate (points of the two bodies, |a - b| >= the bound).
PairDistance solid_distance_bound(const CollisionBody& a, const Pose& pose_a,
                                  const CollisionBody& b, const Pose& pose_b, double cutoff,
                                  double exact_within);

struct SceneGap {
  double gap = 0.0;      // m beyond the padding: a lower bound on slot m's clearance from the scene
  int obstacle = -1;     // the obstacle the bound belongs to (-1: every obstacle clears `cap`)
  bool contact = false;  // an exact distance puts `obstacle` within the padding at this state
  bool unknown = false;  // a near pair has no distance bound here (gap is then 0)
};

// Slot m against every obstacle at the state's poses: `cap` or more when each clears the padding
// by at least cap; otherwise the least bound found, from the convex hulls where they clear the
// padding by more than `tolerance`, else from GJK on solid primitives (exact within the
// tolerance), else from the exact distance (less the rounding GJK may leave).
SceneGap slot_scene_gap(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                        double padding, double cap, double tolerance);

}  // namespace kinetic
