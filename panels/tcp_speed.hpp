#pragma once
// The speed of a robot's tool centre point (TCP) along a trajectory, for the Trajectories panel's
// plot. The app says which robot and which point (TcpPlotSource), so panels/ need not know the
// document or how the app picks the TCP.
#include <string>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic::panels {

// The point the TCP-speed plot follows: `offset` (link -> TCP) on link `link` of `robot`.
struct TcpPlotSource {
  RobotModelPtr robot;
  int link = -1;
  Pose offset = Pose::Identity();
};

struct TcpSpeeds {
  std::vector<double> linear;   // m/s, one per instant asked for
  std::vector<double> angular;  // rad/s
  std::string problem;          // why there are none; "" when computed
};

// |v| and |ω| of the TCP in the robot's root frame at each of `times`, as the geometric Jacobian
// of the TCP point times the trajectory's q̇ (exact for the q̇ the velocity plot shows, where finite
// differences of FK poses would lag and round corners). Joints the robot has but the trajectory
// does not name stay at zero, as in the TCP trail. Never throws: no robot, no TCP, an empty
// trajectory or a joint the robot does not have is said in `problem`.
TcpSpeeds tcp_speeds(const TcpPlotSource& source, const Trajectory& trajectory,
                     const std::vector<double>& times);

}  // namespace kinetic::panels
