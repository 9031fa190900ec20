#include "engine/trajectory/validation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "engine/core/error.hpp"

namespace kinetic {

const char* to_string(ViolationKind kind) {
  switch (kind) {
    case ViolationKind::Position:
      return "position";
    case ViolationKind::Velocity:
      return "velocity";
    case ViolationKind::Acceleration:
      return "acceleration";
    case ViolationKind::Jerk:
      return "jerk";
    case ViolationKind::PositionJump:
      return "position jump";
    case ViolationKind::Collision:
      return "collision";
  }
  return "violation";
}

std::string TrajectoryValidationReport::summary() const {
  if (violations.empty()) return "ok";
  std::string text;
  for (const auto& v : violations) text += v.message + "\n";
  return text;
}

namespace {

// Rounding of the generators and of the quintic interpolation between samples is not a violation:
// a profile on its limit must pass (time-optimal samples land within a few 1e-9 of it), anything
// measurably beyond it (1 ppm) must not.
constexpr double kRelativeTolerance = 1e-6;
constexpr double kAbsoluteTolerance = 1e-12;

// The most states one validation checks for limits (one every time_resolution) and, separately,
// for collisions (one every collision_resolution of joint travel): 1e7 is a motion of about three
// hours at the default 1 ms. A trajectory read from a file may span any finite time or travel: its
// step counts, cast to long, were undefined beyond 2^63 (a span of 1e300 s) and took hours long
// before that (1e10 states for a span of 1e7 s).
constexpr double kMaxCheckedStates = 1e7;

[[noreturn]] void too_many_states(double states, const char* what, const char* option) {
  std::ostringstream text;
  text << "validation: checking the trajectory's " << what << " every " << option << " would take "
       << states << " states (at most " << kMaxCheckedStates << ")";
  throw Error(ErrorCode::InvalidValue, text.str(),
              std::string("validate with a coarser ") + option +
                  ", or check the trajectory's times and positions");
}

bool exceeds(double value, double limit) {
  return std::abs(value) > limit + kRelativeTolerance * std::abs(limit) + kAbsoluteTolerance;
}

// `value` with enough digits to differ from `other` in the message when they differ at all.
std::string distinct(double value, double other) {
  std::ostringstream a, b;
  a.precision(6);
  b.precision(6);
  a << value;
  b << std::abs(other);
  if (a.str() != b.str() || std::abs(value) == std::abs(other)) return a.str();
  a.str({});
  a.precision(17);
  a << value;
  return a.str();
}

bool has_acceleration_steps(const TrajectorySamples& samples) {
  for (std::size_t i = 1; i < samples.size(); ++i)
    if (samples[i].t == samples[i - 1].t) return true;
  return false;
}

// Collects offending instants and reports each run of consecutive ones once, at its worst.
class RunCollector {
 public:
  explicit RunCollector(std::vector<TrajectoryViolation>* out) : out_(out) {}

  // `over` = |value| exceeds limit. Call in time order for every checked instant.
  void observe(ViolationKind kind, int joint, const std::string& name, double t, double value,
               double limit, bool over, const std::string& detail = {}) {
    const auto key = std::make_pair(static_cast<int>(kind), joint);
    auto it = open_.find(key);
    if (!over) {
      if (it != open_.end()) close(it);
      return;
    }
    if (it == open_.end()) {
      TrajectoryViolation v{kind, joint, name, t, value, limit, t, t, detail, {}};
      open_.emplace(key, v);
      return;
    }
    TrajectoryViolation& v = it->second;
    v.end_time = t;
    if (kind != ViolationKind::Collision && std::abs(value) > std::abs(v.value)) {
      v.value = value;
      v.time = t;
    }
  }
  void finish() {
    while (!open_.empty()) close(open_.begin());
  }

 private:
  void close(std::map<std::pair<int, int>, TrajectoryViolation>::iterator it) {
    TrajectoryViolation v = it->second;
    open_.erase(it);
    std::ostringstream m;
    m.precision(6);
    if (v.kind == ViolationKind::Collision) {
      m << "collision at t = " << v.time << " s";
      if (!v.detail.empty()) m << " (" << v.detail << ")";
      if (v.end_time > v.start_time) m << ", until " << v.end_time << " s";
    } else {
      m << to_string(v.kind) << " of joint '" << v.joint_name << "' is "
        << distinct(v.value, v.limit) << " at t = " << v.time << " s, limit "
        << distinct(v.limit, v.value);
      if (v.end_time > v.start_time)
        m << " (over from " << v.start_time << " to " << v.end_time << " s)";
    }
    v.message = m.str();
    out_->push_back(std::move(v));
  }
  std::vector<TrajectoryViolation>* out_;
  std::map<std::pair<int, int>, TrajectoryViolation> open_;
};

}  // namespace

TrajectoryValidationReport validate_trajectory(const Trajectory& trajectory,
                                               const TrajectoryLimits& limits,
                                               const TrajectoryValidationOptions& options) {
  limits.check();
  if (trajectory.dof() != limits.dof())
    throw Error(ErrorCode::DimensionMismatch, "trajectory has " + std::to_string(trajectory.dof()) +
                                                  " joints, the limits " +
                                                  std::to_string(limits.dof()));
  if (!(options.safety_factor > 0.0) || !(options.time_resolution > 0.0) ||
      !(options.collision_resolution > 0.0))
    throw Error(ErrorCode::InvalidValue,
                "validation options: safety_factor, time_resolution and collision_resolution must "
                "be positive");
  TrajectoryValidationReport report;
  if (trajectory.empty()) return report;
  // Bounds every step count below (their sum is at most this); NaN or infinity fails too.
  const double limit_states = trajectory.duration() / options.time_resolution +
                              static_cast<double>(trajectory.samples().size());
  if (!(limit_states <= kMaxCheckedStates))
    too_many_states(limit_states, "limits", "time_resolution");
  const auto n = static_cast<Eigen::Index>(limits.dof());
  const double f = options.safety_factor;
  const JointVector v = limits.scaled_velocity() * f, a = limits.scaled_acceleration() * f,
                    jmax = limits.scaled_jerk() * f;
  const TrajectorySamples samples = trajectory.samples();
  const auto& names = limits.joint_names;
  RunCollector limits_runs(&report.violations);
  // An acceleration step is intentional (acceleration-limited profile): never differentiated.
  report.jerk_checked = options.check_jerk && !has_acceleration_steps(samples);
  if (options.check_jerk && !report.jerk_checked)
    report.notes.push_back(
        "jerk not checked: the trajectory has acceleration steps (an acceleration-limited profile "
        "such "
        "as time-optimal or trapezoidal); jerk limits apply to jerk-limited profiles (S-curve, "
        "cubic spline)");

  const auto check_state = [&](const TrajectoryState& s, const JointVector& jerk) {
    ++report.states_checked;
    for (Eigen::Index j = 0; j < n; ++j) {
      const int joint = static_cast<int>(j);
      const auto& name = names[static_cast<std::size_t>(j)];
      if (options.check_position) {
        const double q = s.position[j];
        const double lo = limits.lower[j], hi = limits.upper[j];
        const double tol = 1e-9 * (1.0 + std::abs(q));
        const bool over = q < lo - tol || q > hi + tol;
        limits_runs.observe(ViolationKind::Position, joint, name, s.t, q, q < lo ? lo : hi, over);
      }
      if (options.check_velocity)
        limits_runs.observe(ViolationKind::Velocity, joint, name, s.t, s.velocity[j], v[j],
                            exceeds(s.velocity[j], v[j]));
      if (options.check_acceleration)
        limits_runs.observe(ViolationKind::Acceleration, joint, name, s.t, s.acceleration[j], a[j],
                            exceeds(s.acceleration[j], a[j]));
      if (report.jerk_checked)
        limits_runs.observe(ViolationKind::Jerk, joint, name, s.t, jerk[j], jmax[j],
                            exceeds(jerk[j], jmax[j]));
    }
  };

  const JointVector no_jerk = JointVector::Zero(n);
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const TrajectorySampleRef s = samples[i];
    const bool step = i + 1 < samples.size() && samples[i + 1].t == s.t;
    check_state({s.t, s.position, s.velocity, s.acceleration},
                report.jerk_checked ? trajectory.jerk(s.t) : no_jerk);
    if (i + 1 == samples.size() || step) continue;
    const double h = samples[i + 1].t - s.t;
    const auto steps = static_cast<long>(std::ceil(h / options.time_resolution));
    for (long k = 1; k < steps; ++k) {
      const double t = s.t + h * static_cast<double>(k) / static_cast<double>(steps);
      check_state(trajectory.sample(t), report.jerk_checked ? trajectory.jerk(t) : no_jerk);
    }
  }
  limits_runs.finish();

  if (options.max_position_jump >= 0.0) {
    RunCollector jumps(&report.violations);
    for (std::size_t i = 1; i < samples.size(); ++i)
      for (Eigen::Index j = 0; j < n; ++j) {
        const double d = samples[i].position[j] - samples[i - 1].position[j];
        const double allowed = v[j] * (samples[i].t - samples[i - 1].t) + options.max_position_jump;
        jumps.observe(ViolationKind::PositionJump, static_cast<int>(j),
                      names[static_cast<std::size_t>(j)], samples[i].t, d, allowed,
                      std::abs(d) > allowed);
      }
    jumps.finish();
  }

  if (options.in_collision) {
    double collision_states = static_cast<double>(samples.size());
    for (std::size_t i = 0; i + 1 < samples.size(); ++i)
      if (samples[i + 1].t > samples[i].t)
        collision_states +=
            std::ceil((samples[i + 1].position - samples[i].position).cwiseAbs().maxCoeff() /
                      options.collision_resolution);
    if (!(collision_states <= kMaxCheckedStates))
      too_many_states(collision_states, "collisions", "collision_resolution");
    RunCollector collisions(&report.violations);
    const auto check = [&](double t, const JointVector& q) {
      const bool hit = options.in_collision(q);
      collisions.observe(
          ViolationKind::Collision, -1, "", t, 1.0, 0.0, hit,
          hit && options.collision_names ? options.collision_names(q) : std::string());
    };
    for (std::size_t i = 0; i < samples.size(); ++i) {
      check(samples[i].t, samples[i].position);
      if (i + 1 == samples.size()) break;
      const double h = samples[i + 1].t - samples[i].t;
      if (h <= 0.0) continue;
      const double travel = (samples[i + 1].position - samples[i].position).cwiseAbs().maxCoeff();
      const auto steps = static_cast<long>(std::ceil(travel / options.collision_resolution));
      for (long k = 1; k < steps; ++k) {
        const double t = samples[i].t + h * static_cast<double>(k) / static_cast<double>(steps);
        check(t, trajectory.sample(t).position);
      }
    }
    collisions.finish();
  }
  std::stable_sort(report.violations.begin(), report.violations.end(),
                   [](const auto& x, const auto& y) { return x.time < y.time; });
  return report;
}

}  // namespace kinetic
