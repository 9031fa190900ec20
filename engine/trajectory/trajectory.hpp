#pragma once
// Trajectory: a timed joint-space motion a controller can run.
//
// Representation (documented in docs/trajectory-format.md): a list of samples (t, q, q̇, q̈) in
// non-decreasing time. Between two consecutive samples the motion is the unique quintic polynomial
// that matches position, velocity and acceleration at both ends (the rule ROS controllers use when
// all three are given). Every generator in this folder places samples so that this rule reproduces
// its profile: trapezoidal, S-curve and cubic-spline profiles are polynomials of degree ≤ 3 between
// their knots (reproduced exactly); the time-optimal profile is sampled on its phase-plane grid.
// An acceleration step (trapezoidal ramps, bang-bang switches) is written as two samples with the
// same t, q and q̇ and the acceleration before and after; sample(t) at that instant returns the
// value after the step.
#include <string>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

using JointPath = std::vector<JointVector>;  // geometric path: waypoints in joint space

enum class PositionUnit { Radian, Metre };
const char* to_string(PositionUnit unit);  // "rad" | "m"

struct TrajectorySample {
  double t = 0.0;             // s from the start
  JointVector position;       // q
  JointVector velocity;       // q̇
  JointVector acceleration;   // q̈
};

// State at an arbitrary time (what sample(t) returns).
struct TrajectoryState {
  double t = 0.0;
  JointVector position, velocity, acceleration;
};

class Trajectory {
 public:
  Trajectory() = default;
  Trajectory(std::string robot, std::vector<std::string> joint_names,
             std::vector<PositionUnit> units, std::vector<TrajectorySample> samples,
             std::vector<double> waypoint_times = {});

  const std::string& robot() const { return robot_; }
  const std::vector<std::string>& joint_names() const { return joint_names_; }
  const std::vector<PositionUnit>& units() const { return units_; }
  const std::vector<TrajectorySample>& samples() const { return samples_; }
  // Time at which each waypoint of the source path is reached (for blended time-optimal paths:
  // the middle of the blend, the closest approach).
  const std::vector<double>& waypoint_times() const { return waypoint_times_; }

  int dof() const { return static_cast<int>(joint_names_.size()); }
  bool empty() const { return samples_.empty(); }
  double duration() const { return samples_.empty() ? 0.0 : samples_.back().t - samples_.front().t; }
  double start_time() const { return samples_.empty() ? 0.0 : samples_.front().t; }
  double end_time() const { return samples_.empty() ? 0.0 : samples_.back().t; }

  // State at time t (clamped into [start_time, end_time]); throws InvalidValue when empty or t is
  // NaN.
  TrajectoryState sample(double t) const;
  // Third derivative (jerk) of the interpolating polynomial at t; at an acceleration step the
  // step itself is not a finite jerk and is reported by validate_trajectory() instead.
  JointVector jerk(double t) const;

  // The same motion with samples at least every `dt` seconds (original samples kept, so the
  // interpolation stays exact): for controllers that want a dense stream.
  Trajectory resampled(double dt) const;

  // Checks the invariants (sizes, finite values, non-decreasing time); throws Error naming the
  // sample and joint. Constructors call it.
  void check() const;

  // Bitwise equality of every double (so -0.0 != 0.0): what "import(export(x)) == x" means.
  friend bool operator==(const Trajectory& a, const Trajectory& b);

 private:
  // Index i of the interval [samples_[i], samples_[i+1]] holding t (right-continuous).
  std::size_t interval_index(double t) const;
  std::string robot_;
  std::vector<std::string> joint_names_;
  std::vector<PositionUnit> units_;
  std::vector<TrajectorySample> samples_;
  std::vector<double> waypoint_times_;
};

// Makes a sample from its parts (sizes are checked by Trajectory::check()).
TrajectorySample make_sample(double t, JointVector q, JointVector qd, JointVector qdd);

}  // namespace kinetic
