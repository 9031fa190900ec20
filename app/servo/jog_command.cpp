#include "app/servo/jog_command.hpp"

#include <algorithm>

#include "engine/servo/spacemouse.hpp"

namespace kinetic::app {

namespace {
double clamp_fraction(double fraction) {
  return std::clamp(fraction, 0.0, 1.0);
}
}  // namespace

ServoCommand cartesian_jog(JogAxis axis, int direction, double speed_fraction,
                           const ServoOptions& options, ServoCommand::Frame frame) {
  Twist axes = Twist::Zero();
  axes[static_cast<int>(axis)] = direction < 0 ? -1.0 : 1.0;
  return spacemouse_jog(axes, speed_fraction, options, frame);
}

ServoCommand joint_jog(const KinematicChain& chain, int chain_joint, int direction,
                       double speed_fraction, const ServoOptions& options) {
  ServoCommand command;
  command.kind = ServoCommand::Kind::JointJog;
  command.joint_velocities = JointVector::Zero(chain.dof());
  if (chain_joint < 0 || chain_joint >= chain.dof()) return command;
  const int variable = chain.variable_indices()[static_cast<std::size_t>(chain_joint)];
  const bool prismatic = chain.model()->variable_joint(variable).type == JointType::Prismatic;
  const double top_speed = prismatic ? options.max_linear_speed : options.max_angular_speed;
  command.joint_velocities[chain_joint] =
      (direction < 0 ? -1.0 : 1.0) * clamp_fraction(speed_fraction) * top_speed;
  return command;
}

ServoCommand spacemouse_jog(const Twist& axes, double speed_fraction, const ServoOptions& options,
                            ServoCommand::Frame frame, panels::SpaceMouseAxes moves) {
  Twist kept = axes;
  if (moves == panels::SpaceMouseAxes::Translation) kept.tail<3>().setZero();
  if (moves == panels::SpaceMouseAxes::Rotation) kept.head<3>().setZero();
  return twist_command(kept * clamp_fraction(speed_fraction), options, frame);
}

}  // namespace kinetic::app
