#pragma once
// A slow, independent reference for time_optimal(): the classic numerical-integration method on a
// uniform fine grid of the same BlendedPath. At every grid point the admissible ṡ̈ range and the
// maximum velocity curve come from the limits at that point alone; a forward pass integrates
// maximum acceleration under the curve and a backward pass maximum deceleration. Used by tests and
// benchmarks to check that time_optimal() is within a percent of the optimum; too slow for
// anything else (cost grows with 1 / step).
#include "engine/trajectory/blended_path.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic {

struct PhasePlaneReference {
  double duration = 0.0;
  std::size_t grid_points = 0;
};

// step: grid spacing in s (arc length).
PhasePlaneReference phase_plane_reference(const BlendedPath& path, const TrajectoryLimits& limits,
                                          double step);

}  // namespace kinetic
