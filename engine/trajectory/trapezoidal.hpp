#pragma once
// Trapezoidal (bang-coast-bang) time parameterization that stops at every waypoint. Joints are
// synchronised per segment: all follow q = q_a + (q_b - q_a) s(t) with one trapezoidal s(t), so
// they start and stop together and the segment stays the straight joint-space line the planner
// checked for collisions. s(t) is the fastest trapezoid allowed by the scaled velocity and
// acceleration limits of every joint.
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic {

// Throws Error on bad input (empty path, NaN, sizes, limits, scaling outside [kMinScaling, 1]). A
// path whose waypoints all coincide gives a one-sample trajectory of duration 0.
Trajectory trapezoidal(const JointPath& path, const TrajectoryLimits& limits);

// Duration of the fastest synchronised rest-to-rest trapezoid from a to b (0 when a == b).
double trapezoidal_segment_time(const JointVector& a, const JointVector& b,
                                const JointVector& velocity, const JointVector& acceleration);

}  // namespace kinetic
