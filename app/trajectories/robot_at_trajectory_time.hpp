#pragma once
// Where a trajectory puts the robot at a time: what "Robot here" / "Robot to end" in the
// Trajectories panel apply to the current state (MoveIt's Execute, without a controller). The
// world moves too when the trajectory changes it (a pick and place holds, then places its part).
#include <optional>
#include <string>
#include <vector>

#include "app/document/scene_change.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic::app {

// The joints `trajectory` moves that `robot` has no moving joint of, in the trajectory's order
// (a trajectory kept from another robot); empty when the robot can follow it.
std::vector<std::string> joints_missing_from(const RobotModel& robot, const Trajectory& trajectory);

struct RobotAtTime {
  double time = 0.0;                   // the time used: t clamped to the trajectory's span
  JointVector joints;                  // model order
  std::optional<PlanningScene> scene;  // the scene in force then, when the trajectory changes it
};

// The robot's joints at `t` of `trajectory`: the joints it moves take its values (by name), the
// others keep `current`. Throws Error(MissingJoint) for a trajectory joint the robot does not have
// (one made for another robot) and Error(OutOfLimits) for a value outside the robot's limits.
RobotAtTime robot_at_time(const RobotModel& robot, const Trajectory& trajectory,
                          const std::vector<SceneChange>& scene_changes, double t,
                          const JointVector& current);

}  // namespace kinetic::app
