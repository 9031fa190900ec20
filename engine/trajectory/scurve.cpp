#include "engine/trajectory/scurve.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "engine/trajectory/sample_builder.hpp"

namespace kinetic {
namespace {

constexpr double kShortestPhase = 1e-6;  // s

struct Phase {
  double duration;
  double jerk;  // of the normalised coordinate s
};

// Fastest rest-to-rest 7-phase profile over s ∈ [0, 1] with limits v, a, j on s.
std::array<Phase, 7> fastest_profile(double v, double a, double j) {
  // Accelerating from rest to speed w takes ramp(w) seconds and covers w * ramp(w) / 2.
  const auto ramp = [a, j](double w) {
    return w * j >= a * a ? w / a + a / j : 2.0 * std::sqrt(w / j);
  };
  double w = v;
  if (w * ramp(w) > 1.0) {  // cannot reach v: the peak speed w solves w * ramp(w) = 1
    w = 0.5 * (-a * a / j + std::sqrt(a * a * a * a / (j * j) + 4.0 * a));
    if (w * j < a * a) w = std::cbrt(j / 4.0);
  }
  const double jerk_time = w * j >= a * a ? a / j : std::sqrt(w / j);
  const double constant_acc_time = std::max(0.0, ramp(w) - 2.0 * jerk_time);
  const double cruise = std::max(0.0, (1.0 - w * ramp(w)) / w);
  return {{{jerk_time, j},
           {constant_acc_time, 0.0},
           {jerk_time, -j},
           {cruise, 0.0},
           {jerk_time, -j},
           {constant_acc_time, 0.0},
           {jerk_time, j}}};
}

}  // namespace

Trajectory scurve(const JointPath& input, const TrajectoryLimits& limits) {
  check_path(input, limits);
  std::vector<std::size_t> kept_index;
  const JointPath path = remove_duplicate_waypoints(input, &kept_index);
  const JointVector v = limits.scaled_velocity();
  const JointVector a = limits.scaled_acceleration();
  const JointVector jmax = limits.scaled_jerk();
  const JointVector zero = JointVector::Zero(limits.dof());

  detail::SampleBuilder builder(limits.dof(), path.size() * 8);
  std::vector<double> kept_times{0.0};
  double t = 0.0;
  builder.push(0.0, path[0], zero, zero);
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const JointVector delta = path[i + 1] - path[i];
    double sv = std::numeric_limits<double>::infinity(), sa = sv, sj = sv;
    for (Eigen::Index k = 0; k < delta.size(); ++k) {
      const double d = std::abs(delta[k]);
      if (d == 0.0) continue;
      sv = std::min(sv, v[k] / d);
      sa = std::min(sa, a[k] / d);
      sj = std::min(sj, jmax[k] / d);
    }
    // Integrate the piecewise-constant jerk exactly; one sample per phase boundary.
    double s = 0.0, sd = 0.0, sdd = 0.0;
    const auto phases = fastest_profile(sv, sa, sj);
    for (std::size_t p = 0; p < phases.size(); ++p) {
      const double h = phases[p].duration, jerk = phases[p].jerk;
      if (h <= 0.0) continue;
      s += h * (sd + h * (0.5 * sdd + h * jerk / 6.0));
      sd += h * (sdd + 0.5 * h * jerk);
      sdd += h * jerk;
      t += h;
      // Phases shorter than a microsecond (rounding leftovers) get no sample of their own.
      if (p == 6 || h < kShortestPhase) continue;
      builder.push(t, path[i] + delta * s, delta * sd, delta * sdd);
    }
    builder.push(t, path[i + 1], zero, zero);  // the exact waypoint, at rest
    kept_times.push_back(t);
  }
  std::vector<double> waypoint_times;
  for (std::size_t k : kept_index) waypoint_times.push_back(kept_times[k]);
  return builder.take(limits.robot, limits.joint_names, limits.units, std::move(waypoint_times));
}

}  // namespace kinetic
