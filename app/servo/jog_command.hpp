#pragma once
// What a jog input asks the servo for: a press-and-hold button is one Cartesian axis or one
// joint in one direction, at a fraction of the servo's maximum speed; a spacemouse's deflection
// is a twist at that fraction. Plain functions, so the commands can be checked without a GUI.
#include "engine/servo/servo.hpp"
#include "panels/servo_panel.hpp"

namespace kinetic::app {

enum class JogAxis { X, Y, Z, Rx, Ry, Rz };
inline constexpr int kJogAxisCount = 6;

// A twist along (X, Y, Z) or about (Rx, Ry, Rz) one axis of `frame`; direction +1 or -1,
// speed_fraction of options.max_linear_speed / max_angular_speed.
ServoCommand cartesian_jog(JogAxis axis, int direction, double speed_fraction,
                           const ServoOptions& options, ServoCommand::Frame frame);

// One joint of the servo's chain (chain order) at speed_fraction of max_angular_speed (rad/s), or
// of max_linear_speed for a prismatic joint; the other joints stand still.
ServoCommand joint_jog(const KinematicChain& chain, int chain_joint, int direction,
                       double speed_fraction, const ServoOptions& options);

// A spacemouse's axes (fractions of full deflection) scaled by speed_fraction; `moves` keeps only
// the translation or only the rotation when asked.
ServoCommand spacemouse_jog(const Twist& axes, double speed_fraction, const ServoOptions& options,
                            ServoCommand::Frame frame,
                            panels::SpaceMouseAxes moves = panels::SpaceMouseAxes::All);

}  // namespace kinetic::app
