#pragma once
// Clamped cubic spline through every waypoint (zero velocity at both ends, continuous velocity
// and acceleration at the waypoints, which it passes through without stopping).
#include <vector>

#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic {

// With the given durations between consecutive waypoints (one per segment, each > 0). Limits
// only name the robot and joints here; check the result with validate_trajectory().
Trajectory cubic_spline(const JointPath& path, const std::vector<double>& durations,
                        const TrajectoryLimits& limits);

// Fitted to the limits: starts from the synchronised trapezoidal segment times, then stretches
// time uniformly by the smallest factor that brings the spline's velocity, acceleration and jerk
// within the scaled limits everywhere (velocity scales with 1/k, acceleration 1/k², jerk 1/k³).
Trajectory cubic_spline(const JointPath& path, const TrajectoryLimits& limits);

}  // namespace kinetic
