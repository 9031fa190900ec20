#pragma once
// Jerk-limited S-curve (7 phases: jerk +J, 0, -J, cruise, -J, 0, +J) that stops at every waypoint.
// Joints are synchronised per segment like trapezoidal(): one normalised s(t) for the straight
// segment, the fastest one allowed by every joint's scaled velocity, acceleration and jerk limits
// (jerk is scaled by acceleration_scaling). Acceleration is continuous everywhere.
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic {

// Throws Error on bad input like trapezoidal().
Trajectory scurve(const JointPath& path, const TrajectoryLimits& limits);

}  // namespace kinetic
