#include "panels/tcp_speed.hpp"

#include <exception>

#include "engine/kinematics/forward_kinematics.hpp"

namespace kinetic::panels {

TcpSpeeds tcp_speeds(const TcpPlotSource& source, const Trajectory& trajectory,
                     const std::vector<double>& times) {
  TcpSpeeds out;
  const RobotModel* robot = source.robot.get();
  if (!robot) {
    out.problem = "no robot is loaded";
    return out;
  }
  if (source.link < 0 || source.link >= static_cast<int>(robot->links().size())) {
    out.problem = robot->name() + " has no TCP link (no planning group or end effector)";
    return out;
  }
  if (trajectory.empty()) {
    out.problem = "no trajectory";
    return out;
  }
  // Trajectory joint -> model variable; a joint the robot lacks means another robot's trajectory.
  std::vector<int> variable_of_joint;
  for (const std::string& name : trajectory.joint_names()) {
    const int joint = robot->find_joint(name);
    if (joint < 0) {
      out.problem = "the trajectory moves joint '" + name + "', which " + robot->name() +
                    " does not have (it was made for another robot)";
      return out;
    }
    variable_of_joint.push_back(
        robot->joints()[joint].variable_index);  // -1: fixed or mimic, skipped
  }
  try {
    const ForwardKinematics fk(*robot);
    const Vector3 tcp_in_link = source.offset.translation();
    JointVector q = robot->zero_configuration(), q_dot = JointVector::Zero(robot->dof());
    out.linear.reserve(times.size());
    out.angular.reserve(times.size());
    for (const double t : times) {
      const TrajectoryState state = trajectory.sample(t);
      for (std::size_t j = 0; j < variable_of_joint.size(); ++j) {
        if (variable_of_joint[j] < 0) continue;
        q[variable_of_joint[j]] = state.position[static_cast<Eigen::Index>(j)];
        q_dot[variable_of_joint[j]] = state.velocity[static_cast<Eigen::Index>(j)];
      }
      const Eigen::Matrix<double, 6, 1> twist =
          fk.link_jacobian(q, source.link, tcp_in_link) * q_dot;
      out.linear.push_back(twist.head<3>().norm());
      out.angular.push_back(twist.tail<3>().norm());
    }
  } catch (const std::exception& error) {  // a floating joint, a non-finite sample
    out = {};
    out.problem = error.what();
  }
  return out;
}

}  // namespace kinetic::panels
