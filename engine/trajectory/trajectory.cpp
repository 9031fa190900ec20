#include "engine/trajectory/trajectory.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "engine/core/error.hpp"

namespace kinetic {

const char* to_string(PositionUnit unit) {
  return unit == PositionUnit::Metre ? "m" : "rad";
}

TrajectorySample make_sample(double t, JointVector q, JointVector qd, JointVector qdd) {
  return TrajectorySample{t, std::move(q), std::move(qd), std::move(qdd)};
}

std::vector<TrajectorySample> TrajectorySamples::to_vector() const {
  std::vector<TrajectorySample> out;
  out.reserve(count_);
  for (std::size_t i = 0; i < count_; ++i) out.push_back((*this)[i]);
  return out;
}

namespace {

constexpr const char* kFieldNames[3] = {"position", "velocity", "acceleration"};

void check_size(const JointVector& v, std::size_t dof, std::size_t index, const char* field) {
  if (static_cast<std::size_t>(v.size()) != dof)
    throw Error(ErrorCode::DimensionMismatch, "trajectory sample " + std::to_string(index) + ": " +
                                                  field + " has " + std::to_string(v.size()) +
                                                  " values, expected " + std::to_string(dof));
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

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
           return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
         });
}

}  // namespace

Trajectory::Trajectory(std::string robot, std::vector<std::string> joint_names,
                       std::vector<PositionUnit> units,
                       const std::vector<TrajectorySample>& samples,
                       std::vector<double> waypoint_times)
    : robot_(std::move(robot)),
      joint_names_(std::move(joint_names)),
      units_(std::move(units)),
      waypoint_times_(std::move(waypoint_times)) {
  if (units_.empty()) units_.assign(joint_names_.size(), PositionUnit::Radian);
  const std::size_t dof = joint_names_.size();
  times_.reserve(samples.size());
  values_.reserve(samples.size() * stride());
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const TrajectorySample& s = samples[i];
    times_.push_back(s.t);
    const JointVector* fields[3] = {&s.position, &s.velocity, &s.acceleration};
    for (int f = 0; f < 3; ++f) {
      check_size(*fields[f], dof, i, kFieldNames[f]);
      values_.insert(values_.end(), fields[f]->data(), fields[f]->data() + dof);
    }
  }
  check();
}

Trajectory Trajectory::from_storage(std::string robot, std::vector<std::string> joint_names,
                                    std::vector<PositionUnit> units, std::vector<double> times,
                                    std::vector<double> values,
                                    std::vector<double> waypoint_times) {
  Trajectory t = adopt(std::move(robot), std::move(joint_names), std::move(units), std::move(times),
                       std::move(values), std::move(waypoint_times));
  t.check(true);
  return t;
}

Trajectory Trajectory::from_finite_storage(std::string robot, std::vector<std::string> joint_names,
                                           std::vector<PositionUnit> units,
                                           std::vector<double> times, std::vector<double> values,
                                           std::vector<double> waypoint_times) {
  Trajectory t = adopt(std::move(robot), std::move(joint_names), std::move(units), std::move(times),
                       std::move(values), std::move(waypoint_times));
  t.check(false);
  return t;
}

Trajectory Trajectory::adopt(std::string robot, std::vector<std::string> joint_names,
                             std::vector<PositionUnit> units, std::vector<double> times,
                             std::vector<double> values, std::vector<double> waypoint_times) {
  Trajectory t;
  t.robot_ = std::move(robot);
  t.joint_names_ = std::move(joint_names);
  t.units_ = std::move(units);
  if (t.units_.empty()) t.units_.assign(t.joint_names_.size(), PositionUnit::Radian);
  t.times_ = std::move(times);
  t.values_ = std::move(values);
  t.waypoint_times_ = std::move(waypoint_times);
  return t;
}

void Trajectory::check() const {
  check(true);
}

void Trajectory::check(bool scan_values) const {
  const std::size_t dof = joint_names_.size();
  if (units_.size() != dof)
    throw Error(ErrorCode::DimensionMismatch, "trajectory has " + std::to_string(units_.size()) +
                                                  " position units for " + std::to_string(dof) +
                                                  " joints");
  if (values_.size() != times_.size() * stride())
    throw Error(ErrorCode::DimensionMismatch, "trajectory storage holds " +
                                                  std::to_string(values_.size()) + " values for " +
                                                  std::to_string(times_.size()) + " samples of " +
                                                  std::to_string(dof) + " joints");
  // Times and values: cheap passes the compiler vectorises (generated trajectories have thousands
  // of samples); the slow naming only on failure. Non-finite test: exponent bits all set is the
  // one case where adding 1 to the exponent field carries into the sign bit.
  constexpr std::uint64_t kExponent = 0x7ff0000000000000ULL, kExponentOne = 1ULL << 52;
  const auto non_finite = [](double v) -> std::uint64_t {
    return ((std::bit_cast<std::uint64_t>(v) & kExponent) + kExponentOne) >> 63;
  };
  std::uint64_t bad_times = 0;
  for (const double t : times_) bad_times |= non_finite(t);
  for (std::size_t i = 1; i < times_.size(); ++i) bad_times |= times_[i] < times_[i - 1] ? 1U : 0U;
  for (std::size_t i = 2; i < times_.size(); ++i) bad_times |= times_[i] == times_[i - 2] ? 1U : 0U;
  for (std::size_t i = 0; bad_times != 0 && i < times_.size(); ++i) {
    const double t = times_[i];
    if (!std::isfinite(t))
      throw Error(ErrorCode::InvalidValue,
                  "trajectory sample " + std::to_string(i) + ": time is not finite");
    if (i > 0 && t < times_[i - 1])
      throw Error(ErrorCode::InvalidValue,
                  "trajectory sample " + std::to_string(i) + ": time " + std::to_string(t) +
                      " s is before the previous sample's " + std::to_string(times_[i - 1]) + " s",
                  "samples must be in non-decreasing time");
    if (i > 1 && t == times_[i - 2])
      throw Error(ErrorCode::InvalidValue,
                  "trajectory sample " + std::to_string(i) + ": three samples share time " +
                      std::to_string(t) + " s",
                  "an acceleration step is written as exactly two samples with the same time");
  }
  std::uint64_t bad_values = 0;
  if (scan_values)
    for (const double v : values_) bad_values |= non_finite(v);
  if (bad_values != 0)
    for (std::size_t k = 0; k < values_.size(); ++k)
      if (!std::isfinite(values_[k])) {
        const std::size_t i = k / stride(), field = (k % stride()) / dof, j = k % dof;
        throw Error(ErrorCode::InvalidValue, "trajectory sample " + std::to_string(i) + ": " +
                                                 kFieldNames[field] + " of joint '" +
                                                 joint_names_[j] + "' is not finite");
      }
  for (std::size_t i = 0; i < waypoint_times_.size(); ++i)
    if (!std::isfinite(waypoint_times_[i]) ||
        (i > 0 && waypoint_times_[i] < waypoint_times_[i - 1]))
      throw Error(ErrorCode::InvalidValue, "trajectory waypoint time " + std::to_string(i) +
                                               " is not finite or not in increasing order");
}

std::size_t Trajectory::interval_index(double t) const {
  const auto after = std::upper_bound(times_.begin(), times_.end(), t);
  const auto index = static_cast<std::size_t>(after - times_.begin());
  return index == 0 ? 0 : index - 1;
}

void Trajectory::interpolate(double t, double* q, double* qd, double* qdd) const {
  const std::size_t i = interval_index(t);
  const std::size_t n = joint_names_.size();
  const double* a = values_of(i);
  if (t == times_[i] || i + 1 >= times_.size()) {
    std::copy(a, a + n, q);
    std::copy(a + n, a + 2 * n, qd);
    std::copy(a + 2 * n, a + 3 * n, qdd);
    return;
  }
  const double* b = values_of(i + 1);
  const double h = times_[i + 1] - times_[i], x = t - times_[i];
  for (std::size_t j = 0; j < n; ++j) {
    const Quintic p = quintic(a[j], a[n + j], a[2 * n + j], b[j], b[n + j], b[2 * n + j], h);
    const double* c = p.c;
    q[j] = c[0] + x * (c[1] + x * (c[2] + x * (c[3] + x * (c[4] + x * c[5]))));
    qd[j] = c[1] + x * (2 * c[2] + x * (3 * c[3] + x * (4 * c[4] + x * 5 * c[5])));
    qdd[j] = 2 * c[2] + x * (6 * c[3] + x * (12 * c[4] + x * 20 * c[5]));
  }
}

TrajectoryState Trajectory::sample(double t) const {
  if (times_.empty()) throw Error(ErrorCode::InvalidValue, "cannot sample an empty trajectory");
  if (std::isnan(t)) throw Error(ErrorCode::InvalidValue, "cannot sample a trajectory at NaN time");
  t = std::clamp(t, start_time(), end_time());
  const auto n = static_cast<Eigen::Index>(dof());
  TrajectoryState state{t, JointVector(n), JointVector(n), JointVector(n)};
  interpolate(t, state.position.data(), state.velocity.data(), state.acceleration.data());
  return state;
}

JointVector Trajectory::jerk(double t) const {
  if (times_.size() < 2) return JointVector::Zero(dof());
  if (std::isnan(t)) throw Error(ErrorCode::InvalidValue, "cannot sample a trajectory at NaN time");
  t = std::clamp(t, start_time(), end_time());
  std::size_t i = std::min(interval_index(t), times_.size() - 2);
  while (i > 0 && times_[i + 1] == times_[i]) --i;  // at the end: use the last real interval
  const std::size_t n = joint_names_.size();
  const double* a = values_of(i);
  const double* b = values_of(i + 1);
  const double h = times_[i + 1] - times_[i], x = t - times_[i];
  JointVector jerk = JointVector::Zero(dof());
  if (h <= 0.0) return jerk;
  for (std::size_t j = 0; j < n; ++j) {
    const Quintic p = quintic(a[j], a[n + j], a[2 * n + j], b[j], b[n + j], b[2 * n + j], h);
    jerk[static_cast<Eigen::Index>(j)] = 6 * p.c[3] + x * (24 * p.c[4] + x * 60 * p.c[5]);
  }
  return jerk;
}

bool operator==(const Trajectory& a, const Trajectory& b) {
  return a.robot_ == b.robot_ && a.joint_names_ == b.joint_names_ && a.units_ == b.units_ &&
         same_bits(a.times_, b.times_) && same_bits(a.values_, b.values_) &&
         same_bits(a.waypoint_times_, b.waypoint_times_);
}

}  // namespace kinetic
