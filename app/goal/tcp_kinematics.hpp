#pragma once
// TcpKinematics: where a robot's TCP is. Goal poses (GoalState::tcp_pose, PoseGoal) are given in
// the planning group's base link, as the IK solvers and the planner want them; the viewport works
// in the world (root link) frame. This converts between the two. Of the robot's first planning
// group unless another is named (the Teleop panel servos any group).
#include <string>

#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic::app {

class TcpKinematics {
 public:
  // Throws kinetic::Error when the robot has no such planning group chain (group "": the first).
  explicit TcpKinematics(RobotModelPtr robot, const std::string& group = "");

  const KinematicChain& chain() const { return chain_; }
  int base_link() const { return base_link_; }
  // q: model order.
  Pose tcp_in_base(const JointVector& q) const { return chain_.fk(chain_.to_chain(q)); }
  Pose base_in_world(const JointVector& q) const { return fk_.link_pose(q, base_link_); }
  Pose tcp_in_world(const JointVector& q) const { return base_in_world(q) * tcp_in_base(q); }

 private:
  KinematicChain chain_;
  ForwardKinematics fk_;
  int base_link_ = 0;
};

}  // namespace kinetic::app
