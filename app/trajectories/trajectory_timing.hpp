#pragma once
// Time parameterization choices shared by planning, recording and re-timing: which engine
// generator turns a geometric path into a trajectory, with the user's velocity / acceleration
// scaling. Keys ("time_optimal", ...) are what the panels store in their combo boxes.
#include <QString>
#include <QStringList>
#include <functional>
#include <string>

#include "engine/model/robot_model.hpp"
#include "engine/trajectory/clear_time_optimal.hpp"
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic::app {

enum class TimingMethod { TimeOptimal, Trapezoidal, SCurve, CubicSpline };

QString timing_key(TimingMethod method);
// Unknown keys give TimeOptimal (the default).
TimingMethod timing_method_from_key(const QString& key);

struct TimingSettings {
  TimingMethod method = TimingMethod::TimeOptimal;
  double velocity_scaling = 1.0;      // [kMinScaling, 1] (the panel offers 0.01 to 1)
  double acceleration_scaling = 1.0;  // [kMinScaling, 1]
};

// Limits of the model's variables named by `joint_names` (in that order); all active variables
// in model order when empty. Throws Error(MissingJoint) for a joint the model does not have.
TrajectoryLimits limits_for(const RobotModel& model,
                            const std::vector<std::string>& joint_names = {});

// Times a path (positions in the order of limits.joint_names). Throws kinetic::Error. With
// `in_collision`, time-optimal corners are narrowed where they would collide
// (clear_time_optimal.hpp) and `note` says so.
Trajectory time_path(const JointPath& path, TrajectoryLimits limits, const TimingSettings& settings,
                     const std::function<bool(const JointVector&)>& in_collision = {},
                     const std::function<std::string(const JointVector&)>& collision_names = {},
                     std::string* note = nullptr);

// The geometric path a timed trajectory was made from: its positions at waypoint_times(), or at
// every sample when it has none; consecutive duplicates removed.
JointPath trajectory_waypoints(const Trajectory& trajectory);

// A trajectory made on a worker thread, or why it could not be made (error empty on success).
struct TrajectoryOrError {
  Trajectory trajectory;
  QString error;
};
// Runs `make`, turning an exception into the error text: the body of every background timing,
// re-timing and blending task.
TrajectoryOrError make_trajectory(const std::function<Trajectory()>& make);

}  // namespace kinetic::app
