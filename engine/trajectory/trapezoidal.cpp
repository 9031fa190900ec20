#include "engine/trajectory/trapezoidal.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/trajectory/sample_builder.hpp"

namespace kinetic {
namespace {

// Limits of the normalised coordinate s ∈ [0, 1] along q_a + Δ s: the tightest joint wins.
struct NormalisedLimits {
  double velocity = std::numeric_limits<double>::infinity();
  double acceleration = std::numeric_limits<double>::infinity();
};

NormalisedLimits normalised(const JointVector& delta, const JointVector& v, const JointVector& a) {
  NormalisedLimits n;
  for (Eigen::Index j = 0; j < delta.size(); ++j) {
    const double d = std::abs(delta[j]);
    if (d == 0.0) continue;
    n.velocity = std::min(n.velocity, v[j] / d);
    n.acceleration = std::min(n.acceleration, a[j] / d);
  }
  return n;
}

// Ramp time and cruise time of the fastest trapezoid over s ∈ [0, 1].
struct Profile {
  double ramp = 0.0, cruise = 0.0, peak_velocity = 0.0, acceleration = 0.0;
  double duration() const { return 2.0 * ramp + cruise; }
};

Profile fastest_profile(const NormalisedLimits& n) {
  Profile p;
  p.acceleration = n.acceleration;
  if (n.velocity * n.velocity / n.acceleration >= 1.0) {  // triangle: never reaches cruise speed
    p.ramp = std::sqrt(1.0 / n.acceleration);
    p.peak_velocity = n.acceleration * p.ramp;
  } else {
    p.ramp = n.velocity / n.acceleration;
    p.peak_velocity = n.velocity;
    p.cruise = (1.0 - n.velocity * p.ramp) / n.velocity;
  }
  return p;
}

}  // namespace

double trapezoidal_segment_time(const JointVector& a, const JointVector& b,
                                const JointVector& velocity, const JointVector& acceleration) {
  const JointVector delta = b - a;
  if (delta.cwiseAbs().maxCoeff() == 0.0) return 0.0;
  return fastest_profile(normalised(delta, velocity, acceleration)).duration();
}

Trajectory trapezoidal(const JointPath& path, const TrajectoryLimits& limits) {
  check_path(path, limits);
  std::vector<std::size_t> kept_index;
  const std::vector<std::size_t> kept = distinct_waypoints(path, &kept_index);  // no copies
  const JointVector v = limits.scaled_velocity();
  const JointVector a = limits.scaled_acceleration();
  const auto n = static_cast<Eigen::Index>(limits.dof());
  const JointVector zero = JointVector::Zero(n);

  // Samples are built from expressions: only what ends up in the trajectory is allocated.
  detail::SampleBuilder builder(n, kept.size() * 5);
  std::vector<double> kept_times;
  kept_times.reserve(kept.size());
  kept_times.push_back(0.0);
  double t = 0.0;
  if (kept.size() == 1) builder.push(0.0, path[kept[0]], zero, zero);
  JointVector delta(n), acc(n), vel(n);
  for (std::size_t i = 0; i + 1 < kept.size(); ++i) {
    const JointVector& from = path[kept[i]];
    const JointVector& to = path[kept[i + 1]];
    delta = to - from;
    const Profile p = fastest_profile(normalised(delta, v, a));
    acc = delta * p.acceleration;
    vel = delta * p.peak_velocity;
    const double ramp_distance = 0.5 * p.acceleration * p.ramp * p.ramp;  // in s
    builder.push(t, from, zero, acc);
    builder.push(t + p.ramp, from + delta * ramp_distance, vel, acc);
    if (p.cruise > 0.0) {
      builder.push(t + p.ramp, from + delta * ramp_distance, vel, zero);
      const double cruise_end = t + p.ramp + p.cruise;
      builder.push(cruise_end, from + delta * (1.0 - ramp_distance), vel, zero);
      builder.push(cruise_end, from + delta * (1.0 - ramp_distance), vel, -acc);
    } else {
      builder.push(t + p.ramp, from + delta * ramp_distance, vel, -acc);
    }
    t += p.duration();
    builder.push(t, to, zero, -acc);
    kept_times.push_back(t);
  }
  std::vector<double> waypoint_times;
  waypoint_times.reserve(kept_index.size());
  for (std::size_t k : kept_index) waypoint_times.push_back(kept_times[k]);
  return builder.take(limits.robot, limits.joint_names, limits.units, std::move(waypoint_times));
}

}  // namespace kinetic
