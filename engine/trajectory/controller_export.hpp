#pragma once
// Trajectories in the forms robot controllers take (export only: import reads the JSON and CSV
// files of trajectory_io.hpp, which keep everything). Documented in docs/trajectory-format.md.
//
// - ROS 2 `trajectory_msgs/msg/JointTrajectory` as YAML (.yaml / .yml): what
//   `ros2 topic pub` or an action goal of a joint_trajectory_controller takes. The controller
//   wants strictly increasing times, so of two samples at one instant (an acceleration step) the
//   second is written, holding the acceleration after the step, as Trajectory::sample() answers.
// - URScript for Universal Robots (.script): a program that moves to the first sample with movej,
//   then streams the trajectory with servoj at the controller's period (2 ms on e-Series).
#include <string>

#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

std::string trajectory_to_ros_yaml(const Trajectory& trajectory);

struct UrScriptOptions {
  // s: servoj's t, the controller's cycle. 0: by the robot's name, 0.008 for a CB3 arm (ur3, ur5,
  // ur10 without the "e") and 0.002 otherwise (e-Series, UR20, UR30, and a robot known only by UR's
  // joint names, as CB3 arms are rare now).
  double period = 0.0;
  double lookahead_time = 0.1;         // s, in [0.03, 0.2]: servoj's smoothing look-ahead
  double gain = 300.0;                 // in [100, 2000]: servoj's proportional gain
  double approach_speed = 0.5;         // rad/s: movej to the first sample
  double approach_acceleration = 1.0;  // rad/s²
  std::string program_name = "kinetic_trajectory";
};

// Throws Error(Unsupported) for a trajectory that is not for a 6-joint Universal Robots arm (by
// robot name ur3/ur5/ur10/ur16/ur20/ur30…, or the six UR joint names in order) or not in radians,
// and Error(InvalidValue) for an empty trajectory or options out of range.
std::string trajectory_to_urscript(const Trajectory& trajectory,
                                   const UrScriptOptions& options = {});
// Throws Error(Unsupported) as trajectory_to_urscript() would for every trajectory of this robot
// (its name, and its joints' names and units in trajectory order), so that a .script export can be
// refused before anything is planned.
void check_urscript_robot(const std::string& robot, const std::vector<std::string>& joint_names,
                          const std::vector<PositionUnit>& units);

}  // namespace kinetic
