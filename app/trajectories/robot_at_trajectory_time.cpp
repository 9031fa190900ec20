#include "app/trajectories/robot_at_trajectory_time.hpp"

#include <algorithm>

#include "engine/core/error.hpp"

namespace kinetic::app {

namespace {
int moving_variable(const RobotModel& robot, const std::string& name) {
  const int joint = robot.find_joint(name);
  return joint < 0 ? -1 : robot.joints()[static_cast<std::size_t>(joint)].variable_index;
}
}  // namespace

std::vector<std::string> joints_missing_from(const RobotModel& robot,
                                             const Trajectory& trajectory) {
  std::vector<std::string> missing;
  for (const std::string& name : trajectory.joint_names())
    if (moving_variable(robot, name) < 0) missing.push_back(name);
  return missing;
}

RobotAtTime robot_at_time(const RobotModel& robot, const Trajectory& trajectory,
                          const std::vector<SceneChange>& scene_changes, double t,
                          const JointVector& current) {
  if (trajectory.empty()) throw Error(ErrorCode::InvalidValue, "the trajectory has no samples");
  RobotAtTime at;
  at.time = std::clamp(t, trajectory.start_time(), trajectory.end_time());
  const JointVector values = trajectory.sample(at.time).position;
  at.joints = current;
  const std::vector<std::string>& names = trajectory.joint_names();
  for (std::size_t j = 0; j < names.size(); ++j) {
    const int variable = moving_variable(robot, names[j]);
    if (variable < 0)
      throw Error(ErrorCode::MissingJoint,
                  "the trajectory moves joint '" + names[j] + "', which '" + robot.name() +
                      "' does not have as a moving joint",
                  "load the robot it was made for");
    at.joints[variable] = values[static_cast<Eigen::Index>(j)];
  }
  robot.validate(at.joints,
                 true);  // OutOfLimits names the joint (an imported file may exceed them)
  const int change = scene_change_index(scene_changes, at.time);
  if (change >= 0) at.scene = scene_changes[static_cast<std::size_t>(change)].scene;
  return at;
}

}  // namespace kinetic::app
