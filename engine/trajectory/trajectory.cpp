#include "engine/trajectory/trajectory.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "engine/core/error.hpp"

namespace kinetic {

const char* to_string(PositionUnit unit) { return unit == PositionUnit::Metre ? "m" : "rad"; }

TrajectorySample make_sample(double t, JointVector q, JointVector qd, JointVector qdd) {
  return TrajectorySample{t, std::move(q), std::move(qd), std::move(qdd)};
}

Trajectory::Trajectory(std::string robot, std::vector<std::string> joint_names,
                       std::vector<PositionUnit> units, std::vector<TrajectorySample> samples,
                       std::vector<double> waypoint_times)
    : robot_(std::move(robot)),
      joint_names_(std::move(joint_names)),
      units_(std::move(units)),
      samples_(std::move(samples)),
      waypoint_times_(std::move(waypoint_times)) {
  if (units_.empty()) units_.assign(joint_names_.size(), PositionUnit::Radian);
  check();
}

namespace {

void check_vector(const JointVector& v, std::size_t dof, std::size_t index, const char* field,
                  const std::vector<std::string>& names) {
  if (static_cast<std::size_t>(v.size()) != dof)
    throw Error(ErrorCode::DimensionMismatch,
                "trajectory sample " + std::to_string(index) + ": " + field + " has " +
                    std::to_string(v.size()) + " values, expected " + std::to_string(dof));
  for (std::size_t j = 0; j < dof; ++j)
    if (!std::isfinite(v[static_cast<Eigen::Index>(j)]))
      throw Error(ErrorCode::InvalidValue, "trajectory sample " + std::to_string(index) + ": " +
                                               field + " of joint '" + names[j] +
                                               "' is not finite");
}

// Coefficients of the quintic matching (q, q̇, q̈) at both ends of an interval of length h, for
// one joint: p(x) = c0 + c1 x + ... + c5 x^5 with x = t - t0.
struct Quintic {
  double c[6];
};

Quintic quintic(double q0, double v0, double a0, double q1, double v1, double a1, double h) {
  const double d = q1 - q0 - v0 * h - 0.5 * a0 * h * h;
  const double dv = v1 - v0 - a0 * h;
  const double da = a1 - a0;
  const double h2 = h * h, h3 = h2 * h;
  return {{q0, v0, 0.5 * a0, (20.0 * d - 8.0 * h * dv + h2 * da) / (2.0 * h3),
           (-30.0 * d + 14.0 * h * dv - 2.0 * h2 * da) / (2.0 * h3 * h),
           (12.0 * d - 6.0 * h * dv + h2 * da) / (2.0 * h3 * h2)}};
}

bool same_bits(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool same_bits(const JointVector& a, const JointVector& b) {
  if (a.size() != b.size()) return false;
  for (Eigen::Index i = 0; i < a.size(); ++i)
    if (!same_bits(a[i], b[i])) return false;
  return true;
}

}  // namespace

void Trajectory::check() const {
  const std::size_t dof = joint_names_.size();
  if (units_.size() != dof)
    throw Error(ErrorCode::DimensionMismatch, "trajectory has " + std::to_string(units_.size()) +
                                                  " position units for " + std::to_string(dof) +
                                                  " joints");
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    const auto& s = samples_[i];
    if (!std::isfinite(s.t))
      throw Error(ErrorCode::InvalidValue,
                  "trajectory sample " + std::to_string(i) + ": time is not finite");
    if (i > 0 && s.t < samples_[i - 1].t)
      throw Error(ErrorCode::InvalidValue,
                  "trajectory sample " + std::to_string(i) + ": time " + std::to_string(s.t) +
                      " s is before the previous sample's " + std::to_string(samples_[i - 1].t) +
                      " s",
                  "samples must be in non-decreasing time");
    if (i > 1 && s.t == samples_[i - 2].t)
      throw Error(ErrorCode::InvalidValue,
                  "trajectory sample " + std::to_string(i) + ": three samples share time " +
                      std::to_string(s.t) + " s",
                  "an acceleration step is written as exactly two samples with the same time");
    check_vector(s.position, dof, i, "position", joint_names_);
    check_vector(s.velocity, dof, i, "velocity", joint_names_);
    check_vector(s.acceleration, dof, i, "acceleration", joint_names_);
  }
  for (std::size_t i = 0; i < waypoint_times_.size(); ++i)
    if (!std::isfinite(waypoint_times_[i]) || (i > 0 && waypoint_times_[i] < waypoint_times_[i - 1]))
      throw Error(ErrorCode::InvalidValue, "trajectory waypoint time " + std::to_string(i) +
                                               " is not finite or not in increasing order");
}

std::size_t Trajectory::interval_index(double t) const {
  const auto after = std::upper_bound(samples_.begin(), samples_.end(), t,
                                      [](double value, const TrajectorySample& s) { return value < s.t; });
  const auto index = static_cast<std::size_t>(after - samples_.begin());
  return index == 0 ? 0 : index - 1;
}

TrajectoryState Trajectory::sample(double t) const {
  if (samples_.empty()) throw Error(ErrorCode::InvalidValue, "cannot sample an empty trajectory");
  if (std::isnan(t)) throw Error(ErrorCode::InvalidValue, "cannot sample a trajectory at NaN time");
  t = std::clamp(t, start_time(), end_time());
  const std::size_t i = interval_index(t);
  const auto& a = samples_[i];
  if (t == a.t || i + 1 >= samples_.size()) return {t, a.position, a.velocity, a.acceleration};
  const auto& b = samples_[i + 1];
  const double h = b.t - a.t, x = t - a.t;
  const auto n = static_cast<Eigen::Index>(dof());
  TrajectoryState state{t, JointVector(n), JointVector(n), JointVector(n)};
  for (Eigen::Index j = 0; j < n; ++j) {
    const Quintic p = quintic(a.position[j], a.velocity[j], a.acceleration[j], b.position[j],
                              b.velocity[j], b.acceleration[j], h);
    const double* c = p.c;
    state.position[j] = c[0] + x * (c[1] + x * (c[2] + x * (c[3] + x * (c[4] + x * c[5]))));
    state.velocity[j] = c[1] + x * (2 * c[2] + x * (3 * c[3] + x * (4 * c[4] + x * 5 * c[5])));
    state.acceleration[j] = 2 * c[2] + x * (6 * c[3] + x * (12 * c[4] + x * 20 * c[5]));
  }
  return state;
}

JointVector Trajectory::jerk(double t) const {
  if (samples_.size() < 2) return JointVector::Zero(dof());
  if (std::isnan(t)) throw Error(ErrorCode::InvalidValue, "cannot sample a trajectory at NaN time");
  t = std::clamp(t, start_time(), end_time());
  std::size_t i = std::min(interval_index(t), samples_.size() - 2);
  while (i > 0 && samples_[i + 1].t == samples_[i].t) --i;  // at the end: use the last real interval
  const auto& a = samples_[i];
  const auto& b = samples_[i + 1];
  const double h = b.t - a.t, x = t - a.t;
  JointVector jerk = JointVector::Zero(dof());
  if (h <= 0.0) return jerk;
  for (Eigen::Index j = 0; j < jerk.size(); ++j) {
    const Quintic p = quintic(a.position[j], a.velocity[j], a.acceleration[j], b.position[j],
                              b.velocity[j], b.acceleration[j], h);
    jerk[j] = 6 * p.c[3] + x * (24 * p.c[4] + x * 60 * p.c[5]);
  }
  return jerk;
}

Trajectory Trajectory::resampled(double dt) const {
  if (!(dt > 0.0) || !std::isfinite(dt))
    throw Error(ErrorCode::InvalidValue, "resampling step must be a positive number of seconds");
  std::vector<TrajectorySample> out;
  out.reserve(samples_.size());
  for (std::size_t i = 0; i < samples_.size(); ++i) {
    out.push_back(samples_[i]);
    if (i + 1 == samples_.size()) break;
    const double h = samples_[i + 1].t - samples_[i].t;
    const auto steps = static_cast<long>(std::ceil(h / dt));
    for (long k = 1; k < steps; ++k) {
      const TrajectoryState s = sample(samples_[i].t + h * static_cast<double>(k) / static_cast<double>(steps));
      out.push_back({s.t, s.position, s.velocity, s.acceleration});
    }
  }
  return Trajectory(robot_, joint_names_, units_, std::move(out), waypoint_times_);
}

bool operator==(const Trajectory& a, const Trajectory& b) {
  if (a.robot_ != b.robot_ || a.joint_names_ != b.joint_names_ || a.units_ != b.units_ ||
      a.samples_.size() != b.samples_.size() || a.waypoint_times_.size() != b.waypoint_times_.size())
    return false;
  for (std::size_t i = 0; i < a.waypoint_times_.size(); ++i)
    if (!same_bits(a.waypoint_times_[i], b.waypoint_times_[i])) return false;
  for (std::size_t i = 0; i < a.samples_.size(); ++i) {
    const auto& x = a.samples_[i];
    const auto& y = b.samples_[i];
    if (!same_bits(x.t, y.t) || !same_bits(x.position, y.position) ||
        !same_bits(x.velocity, y.velocity) || !same_bits(x.acceleration, y.acceleration))
      return false;
  }
  return true;
}

}  // namespace kinetic
