#pragma once
// Limits a time parameterization must respect, per joint variable, plus the user's scaling.
#include <string>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

// The slowest scaling accepted: a motion at 0.001 takes a thousand times as long as the limits
// allow. Below it motions last days, and their jerk phases (microseconds, hours into the motion)
// fall below the time resolution of the samples.
constexpr double kMinScaling = 0.001;

class RobotModel;

struct TrajectoryLimits {
  std::string robot;                         // copied into the trajectories made with these limits
  std::vector<std::string> joint_names;      // one per variable
  std::vector<PositionUnit> units;           // rad or m per variable
  JointVector velocity, acceleration, jerk;  // > 0 (rad/s, rad/s², rad/s³ or m/...)
  JointVector lower, upper;                  // position limits (±inf for continuous joints)
  double velocity_scaling = 1.0;             // [kMinScaling, 1]: multiplies velocity limits
  double acceleration_scaling = 1.0;  // [kMinScaling, 1]: multiplies acceleration and jerk limits

  // From a model's joint limits: all active variables in model order, or the given variable
  // indices (e.g. RobotModel::group_variables()).
  static TrajectoryLimits from_model(const RobotModel& model,
                                     const std::vector<int>& variables = {});
  // The same limits for every joint (joints named joint_1 ... joint_n, no position limits).
  static TrajectoryLimits uniform(int dof, double velocity, double acceleration, double jerk);

  int dof() const { return static_cast<int>(joint_names.size()); }
  // Throws Error (DimensionMismatch / InvalidValue) naming the joint or the scaling at fault.
  void check() const;
  JointVector scaled_velocity() const { return velocity * velocity_scaling; }
  JointVector scaled_acceleration() const { return acceleration * acceleration_scaling; }
  JointVector scaled_jerk() const { return jerk * acceleration_scaling; }
};

// Checks a path against limits: at least one waypoint, every waypoint of size limits.dof() and
// finite. Throws Error naming the waypoint and joint.
void check_path(const JointPath& path, const TrajectoryLimits& limits);

// The path without consecutive waypoints closer than `tolerance` (max-norm), and for each input
// waypoint the index of the kept waypoint it maps to.
JointPath remove_duplicate_waypoints(const JointPath& path, std::vector<std::size_t>* map_to_kept,
                                     double tolerance = 1e-12);
// The same selection without copying: the indices (into `path`) of the kept waypoints.
std::vector<std::size_t> distinct_waypoints(const JointPath& path,
                                            std::vector<std::size_t>* map_to_kept,
                                            double tolerance = 1e-12);

}  // namespace kinetic
