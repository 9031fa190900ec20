#include "app/goal/tcp_kinematics.hpp"

namespace kinetic::app {

TcpKinematics::TcpKinematics(RobotModelPtr robot, const std::string& group)
    : chain_(KinematicChain::from_config(robot, group)),
      fk_(*robot),
      base_link_(robot->link_index(chain_.base_link())) {}

}  // namespace kinetic::app
