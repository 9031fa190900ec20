#pragma once
// Checks a timed trajectory before it goes to a controller: limits (with a safety factor),
// position jumps between samples, and collisions along the motion. Each violation names the joint,
// the time of its worst value, the value and the limit; a run of consecutive offending instants is
// reported once (its worst point), with the time span it covers, so a GUI can jump to it.
//
// A value counts as over its limit only beyond rounding: |value| > limit (1 + 1e-9) + 1e-12, so a
// profile riding exactly on its limit (time-optimal, trapezoidal) passes. Jerk limits apply to
// jerk-limited profiles (S-curve, cubic spline): a trajectory with acceleration steps (two samples
// at one instant: time-optimal, trapezoidal) is acceleration-limited by design, its jerk is not
// checked (jerk_checked = false, with a note) instead of reporting the steps as infinite jerk.
#include <functional>
#include <string>
#include <vector>

#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic {

enum class ViolationKind { Position, Velocity, Acceleration, Jerk, PositionJump, Collision };
const char* to_string(ViolationKind kind);

struct TrajectoryViolation {
  ViolationKind kind = ViolationKind::Position;
  int joint = -1;          // variable index in the trajectory (-1 for collisions)
  std::string joint_name;  // "" for collisions
  double time = 0.0;       // s: where the value is worst (collisions: first colliding instant)
  double value = 0.0;      // the offending value (collisions: 1)
  double limit = 0.0;      // the limit it broke, safety factor applied (collisions: 0)
  double start_time = 0.0, end_time = 0.0;  // the span of the run
  std::string detail;                       // collisions: the names callback's answer
  std::string message;                      // one readable line
};

struct TrajectoryValidationReport {
  std::vector<TrajectoryViolation> violations;
  std::size_t states_checked = 0;
  // False when check_jerk was off or the trajectory has acceleration steps (see notes).
  bool jerk_checked = false;
  std::vector<std::string> notes;  // what was not checked and why (not violations)
  bool ok() const { return violations.empty(); }
  std::string summary() const;  // "ok" or one line per violation (notes not included)
};

struct TrajectoryValidationOptions {
  // Limits are multiplied by this before comparing: < 1 demands headroom, > 1 tolerates overshoot.
  // Rounding is tolerated anyway (see above): 1 accepts a profile exactly on its limits.
  double safety_factor = 1.0;
  // Jerk is checked only on trajectories without acceleration steps (see above).
  bool check_position = true, check_velocity = true, check_acceleration = true, check_jerk = true;
  // A position jump: a joint moves between consecutive samples by more than its velocity limit
  // allows in that time plus this tolerance (rad or m); < 0 disables the check.
  double max_position_jump = 1e-3;
  // The trajectory is checked at every sample and at instants this far apart (s) between them.
  double time_resolution = 1e-3;
  // Collisions are checked at every sample and between samples so that no joint moves more than
  // this (rad or m) between two checked states.
  double collision_resolution = 0.01;
  std::function<bool(const JointVector&)> in_collision;            // optional
  std::function<std::string(const JointVector&)> collision_names;  // optional: "link_a - link_b"
};

// Throws Error(DimensionMismatch) when the trajectory's joints differ from the limits' and
// Error(InvalidValue) for bad options; everything else is a violation in the report.
TrajectoryValidationReport validate_trajectory(const Trajectory& trajectory,
                                               const TrajectoryLimits& limits,
                                               const TrajectoryValidationOptions& options = {});

}  // namespace kinetic
