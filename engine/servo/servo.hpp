#pragma once
// Servoing (teleoperation): turns a velocity command — a TCP twist, joint jog velocities, or a
// pose to track — into the next joint state, one control period at a time, the way MoveIt Servo
// does: damped least squares through the group's Jacobian, joint velocity and position limits,
// slowing down towards singularities and obstacles and halting before reaching them. Plain
// computation, no threads (servo_loop.hpp runs it at a fixed rate).
#include <memory>
#include <string>

#include <Eigen/Core>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/types.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic {

using Twist = Eigen::Matrix<double, 6, 1>;  // [vx, vy, vz, wx, wy, wz]: m/s and rad/s

struct ServoCommand {
  // Kind::Twist names the command kind, kinetic::Twist the vector type (-Wshadow would object).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
  enum class Kind { Stop, Twist, JointJog, PoseTarget } kind = Kind::Stop;
#pragma GCC diagnostic pop
  enum class Frame { Base, Tool } frame = Frame::Base;  // of a twist (Tool: the TCP's axes)
  kinetic::Twist twist = kinetic::Twist::Zero();
  JointVector joint_velocities;    // JointJog: rad/s (m/s), the group's chain order
  Pose target = Pose::Identity();  // PoseTarget: the TCP in the group's base link
};

struct ServoOptions {
  double rate_hz = 500.0;          // control rate (the loop's period is 1 / rate_hz)
  double max_linear_speed = 0.25;  // m/s: a twist is scaled down to this
  double max_angular_speed = 1.0;  // rad/s
  double velocity_scaling = 1.0;   // (0, 1]: of the joints' velocity limits
  // Singularities: between these condition numbers of the Jacobian the command slows down
  // linearly; at hard_stop the motion halts (only motion that leaves the singularity is allowed).
  double singularity_slowdown = 17.0;
  double singularity_hard_stop = 30.0;
  // Obstacles: below slowdown_distance (m) from the scene the speed is scaled down linearly,
  // below stop_distance the motion halts (motion away is allowed).
  double collision_slowdown_distance = 0.05;
  double collision_stop_distance = 0.01;
  double joint_limit_margin = 0.02;  // rad (m): a joint stops this far inside its limits
  double pose_gain = 10.0;           // 1/s: PoseTarget twist = gain * error
  double pose_tolerance = 1e-4;      // m (and rad): PoseTarget reached
  double damping = 0.01;             // damped least squares lambda near singularities
  // Self-collision (link to link, held objects to links), pair by pair: the same rules with
  // smaller distances. The robot's own geometry is exact, and compact arms keep some link pairs a
  // few centimetres apart in ordinary poses (the Panda's wrist 3.3 cm from its elbow in "ready"),
  // which the scene's margins would slow down for good. MoveIt Servo keeps the two apart too.
  double self_collision_slowdown_distance = 0.01;
  double self_collision_stop_distance = 0.002;
};

enum class ServoStatus {
  Ok,
  DecelerateForSingularity,
  HaltForSingularity,
  DecelerateForCollision,
  HaltForCollision,
  JointBound,     // a joint reached its limit margin; motion in that direction stopped
  TargetReached,  // PoseTarget within tolerance
  Stopped,        // Stop command (or no command)
};
const char* to_string(ServoStatus status);

struct ServoStep {
  JointVector q;         // the next state, model order (size RobotModel::dof())
  JointVector velocity;  // model order, rad/s (m/s)
  ServoStatus status = ServoStatus::Stopped;
  double speed_scale = 1.0;  // [0, 1]: the slowdown applied (0: halted; 1: nothing slowed it)
  std::string message;       // what limits the motion, in words ("" when Ok)
};

// Throws Error(InvalidValue) naming the first option out of its range (what Servo::set_options
// and the constructor check).
void validate_servo_options(const ServoOptions& options);

class Servo {
 public:
  // group "" = the robot's first. Throws Error like Planner does for unknown groups.
  Servo(RobotModelPtr model, const std::string& group = "", ServoOptions options = {});
  ~Servo();
  Servo(Servo&&) noexcept;
  Servo& operator=(Servo&&) noexcept;
  void set_scene(const PlanningScene& scene);
  void set_options(const ServoOptions& options);  // Error(InvalidValue) naming the field
  const ServoOptions& options() const { return options_; }
  const KinematicChain& chain() const { return chain_; }

  // One control period from q (model order). A command with NaN or infinite values, or of the
  // wrong size, is Error(InvalidValue) / Error(DimensionMismatch); q is never left in collision
  // or outside limits by a step. Variables outside the group keep their values.
  //
  // Twist and PoseTarget go through damped least squares on the chain's Jacobian (the damping
  // fades in as the condition number passes singularity_slowdown); JointJog is taken as is. The
  // joint velocities are then scaled uniformly (direction kept) to the velocity limits, clipped at
  // the joint limit margins, slowed near singularities (Cartesian commands) and obstacles, in that
  // order. Slowdowns apply only to motion that approaches the singularity or obstacle (it is
  // judged at the candidate next state), never below 2% of the speed, so the arm reaches the hard
  // stop in finite time and halts there. Not thread-safe: one Servo per thread.
  ServoStep step(const JointVector& q, const ServoCommand& command);

 private:
  struct Workspace;  // per-step buffers and caches (servo.cpp): step() allocates little
  RobotModelPtr model_;
  KinematicChain chain_;
  ServoOptions options_;
  std::unique_ptr<CollisionChecker> checker_;
  std::unique_ptr<Workspace> work_;
};

}  // namespace kinetic
