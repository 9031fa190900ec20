#include "engine/trajectory/clear_time_optimal.hpp"

#include <cstdio>

#include "engine/trajectory/validation.hpp"

namespace kinetic {

namespace {
constexpr int kNarrowings = 6;  // halvings: 0.05 rad blends down to under 1 mrad
}  // namespace

ClearTiming time_optimal_clear(
    const JointPath& path, const TrajectoryLimits& limits,
    const std::function<bool(const JointVector&)>& in_collision,
    const std::function<std::string(const JointVector&)>& collision_names,
    TimeOptimalOptions options) {
  TrajectoryValidationOptions collisions_only;
  collisions_only.check_position = collisions_only.check_velocity = false;
  collisions_only.check_acceleration = collisions_only.check_jerk = false;
  collisions_only.max_position_jump = -1.0;
  collisions_only.in_collision = in_collision;
  collisions_only.collision_names = collision_names;
  ClearTiming out;
  for (int narrowing = 0;; ++narrowing) {
    out.trajectory = time_optimal(path, limits, options);
    out.max_deviation = options.max_deviation;
    if (!in_collision || narrowing == kNarrowings) return out;
    const TrajectoryValidationReport report =
        validate_trajectory(out.trajectory, limits, collisions_only);
    if (report.ok()) return out;
    if (out.narrowed_for.empty()) out.narrowed_for = report.violations.front().detail;
    options.max_deviation *= 0.5;
  }
}

std::string narrowed_corners_note(const ClearTiming& timing, double asked) {
  if (timing.narrowed_for.empty()) return {};
  char text[160];
  std::snprintf(text, sizeof text,
                "corners rounded within %.4g rad, not %.4g: wider blends touched ",
                timing.max_deviation, asked);
  return text + timing.narrowed_for;
}

}  // namespace kinetic
