#pragma once
// Time-optimal path parameterization (TOTP) with per-joint velocity and acceleration limits.
//
// The waypoints are joined into a differentiable BlendedPath (lines + circular blends, Kunz &
// Stilman 2012, as MoveIt's TOTG). The fastest motion along it is found in the phase plane
// (s, x = ṡ²) by reachability analysis (TOPP-RA, Pham & Pham 2018): a backward pass computes the
// largest x from which the end is still reachable at rest, a forward pass accelerates as hard as
// the limits and that bound allow. On lines the limits are constant, so both passes and the
// resulting bang-coast-bang profile are exact; blends are cut into steps of at most
// arc_angle_step, with the limits enforced at both ends of every step and shrunk by a margin that
// bounds their variation within the step — so limits hold at every instant, not only at the grid.
// A path that turns back on itself (≈180°) stops at that waypoint.
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic {

struct TimeOptimalOptions {
  double max_deviation = 0.05;   // how far a blend may pass from its waypoint (joint-space norm)
  double arc_angle_step = 0.05;  // grid step on blends, radians of arc (smaller: closer to optimal)
};

// Throws Error on bad input (empty path, NaN, sizes, limits, scaling outside [kMinScaling, 1],
// options). A path whose waypoints all coincide gives a one-sample trajectory of duration 0.
Trajectory time_optimal(const JointPath& path, const TrajectoryLimits& limits,
                        const TimeOptimalOptions& options = {});

// Splits a path (without consecutive duplicates) where it turns back on itself: the motion must
// stop there. Each part has at least two waypoints; `first_index` receives each part's offset.
std::vector<JointPath> split_at_reversals(const JointPath& path,
                                          std::vector<std::size_t>* first_index);

}  // namespace kinetic
