#pragma once
// Blending consecutive motions without stopping: the paths are joined and re-timed as one by
// time_optimal(), so the junction becomes a circular blend the robot passes at speed (unless the
// motion turns straight back, where it has to stop).
#include <vector>

#include "engine/trajectory/time_optimal.hpp"

namespace kinetic {

// Each path must start where the previous one ends (within `tolerance`, max-norm per joint);
// throws Error(InvalidValue) naming the junction otherwise.
Trajectory blend_paths(const std::vector<JointPath>& paths, const TrajectoryLimits& limits,
                       const TimeOptimalOptions& options = {}, double tolerance = 1e-6);

// The path blend_paths() times: the paths joined, each checked against `limits` and its start
// against the previous end (same errors). For callers that time the joined path themselves (the
// studio keeps the blended corners clear of obstacles with time_optimal_clear()).
JointPath join_paths(const std::vector<JointPath>& paths, const TrajectoryLimits& limits,
                     double tolerance = 1e-6);

// The same for timed trajectories: their waypoints (positions at waypoint_times(), which
// trapezoidal, S-curve and spline trajectories pass exactly and time-optimal ones within
// max_deviation) are joined and re-timed.
Trajectory blend_trajectories(const std::vector<Trajectory>& trajectories,
                              const TrajectoryLimits& limits,
                              const TimeOptimalOptions& options = {}, double tolerance = 1e-6);

// The waypoints blend_trajectories() joins and times, as one path (checked as join_paths() does).
JointPath join_trajectories(const std::vector<Trajectory>& trajectories,
                            const TrajectoryLimits& limits, double tolerance = 1e-6);

}  // namespace kinetic
