#include "app/servo/goal_following.hpp"

namespace kinetic::app {

Pose goal_in_group_base(const TcpKinematics& group, const Pose& goal_in_world,
                        const JointVector& q) {
  return group.base_in_world(q).inverse() * goal_in_world;
}

ServoCommand follow_goal_command(const TcpKinematics& group, const Pose& goal_in_world,
                                 const JointVector& q) {
  ServoCommand command;
  command.kind = ServoCommand::Kind::PoseTarget;
  command.target = goal_in_group_base(group, goal_in_world, q);
  return command;
}

panels::GoalDistance distance_to_goal(const TcpKinematics& group, const Pose& goal_in_world,
                                      const JointVector& q) {
  const Pose tcp = group.tcp_in_world(q);
  panels::GoalDistance distance;
  distance.position = (goal_in_world.translation() - tcp.translation()).norm();
  distance.angle = Eigen::AngleAxisd(tcp.linear().transpose() * goal_in_world.linear()).angle();
  return distance;
}

}  // namespace kinetic::app
