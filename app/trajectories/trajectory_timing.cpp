#include "app/trajectories/trajectory_timing.hpp"

#include "engine/core/error.hpp"
#include "engine/trajectory/cubic_spline.hpp"
#include "engine/trajectory/scurve.hpp"
#include "engine/trajectory/time_optimal.hpp"
#include "engine/trajectory/trapezoidal.hpp"

namespace kinetic::app {

TrajectoryOrError make_trajectory(const std::function<Trajectory()>& make) {
  TrajectoryOrError result;
  try {
    result.trajectory = make();
  } catch (const std::exception& error) {
    result.error = QString::fromUtf8(error.what());
  }
  return result;
}

QString timing_key(TimingMethod method) {
  switch (method) {
    case TimingMethod::Trapezoidal:
      return QStringLiteral("trapezoidal");
    case TimingMethod::SCurve:
      return QStringLiteral("scurve");
    case TimingMethod::CubicSpline:
      return QStringLiteral("cubic_spline");
    case TimingMethod::TimeOptimal:
      break;
  }
  return QStringLiteral("time_optimal");
}

TimingMethod timing_method_from_key(const QString& key) {
  for (TimingMethod m :
       {TimingMethod::Trapezoidal, TimingMethod::SCurve, TimingMethod::CubicSpline})
    if (timing_key(m) == key) return m;
  return TimingMethod::TimeOptimal;
}

TrajectoryLimits limits_for(const RobotModel& model, const std::vector<std::string>& joint_names) {
  std::vector<int> variables;
  for (const std::string& name : joint_names) {
    const int v = model.variable_index(name);
    if (v < 0) model.joint(name);  // throws MissingJoint with close names for an unknown joint
    if (v < 0)
      throw Error(ErrorCode::MissingJoint,
                  "joint '" + name + "' is not a moving joint of '" + model.name() + "'",
                  "load the robot this trajectory was made for");
    variables.push_back(v);
  }
  return TrajectoryLimits::from_model(model, variables);
}

Trajectory time_path(const JointPath& path, TrajectoryLimits limits, const TimingSettings& settings,
                     const std::function<bool(const JointVector&)>& in_collision,
                     const std::function<std::string(const JointVector&)>& collision_names,
                     std::string* note) {
  limits.velocity_scaling = settings.velocity_scaling;
  limits.acceleration_scaling = settings.acceleration_scaling;
  switch (settings.method) {
    case TimingMethod::Trapezoidal:
      return trapezoidal(path, limits);
    case TimingMethod::SCurve:
      return scurve(path, limits);
    case TimingMethod::CubicSpline:
      return cubic_spline(path, limits);
    case TimingMethod::TimeOptimal:
      break;
  }
  ClearTiming timing = time_optimal_clear(path, limits, in_collision, collision_names);
  if (note) *note = narrowed_corners_note(timing, TimeOptimalOptions{}.max_deviation);
  return std::move(timing.trajectory);
}

JointPath trajectory_waypoints(const Trajectory& trajectory) {
  JointPath path;
  if (trajectory.empty()) return path;
  if (!trajectory.waypoint_times().empty()) {
    for (double t : trajectory.waypoint_times()) path.push_back(trajectory.sample(t).position);
  } else {
    for (const auto& s : trajectory.samples()) path.push_back(s.position);
  }
  return remove_duplicate_waypoints(path, nullptr, 1e-9);
}

}  // namespace kinetic::app
