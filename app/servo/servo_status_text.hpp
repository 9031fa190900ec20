#pragma once
// The Teleop panel's status line: a servo status in words, with the servo's own explanation of
// what limits the motion ("Slowing down: near a singularity (condition number 21)"), and its
// colour.
#include <QString>
#include <string>

#include "engine/servo/servo.hpp"
#include "panels/servo_panel.hpp"

namespace kinetic::app {

struct ServoStatusText {
  QString text;
  panels::TeleopTone tone = panels::TeleopTone::Ready;
};

// message: ServoStep::message ("" when nothing limits the motion).
ServoStatusText describe_servo_status(ServoStatus status, const std::string& message);

// The same while the arm follows the goal (the Goal input): there is no goal to follow yet, or the
// servo's status in the goal's words (following it, reached it, or what holds it back).
ServoStatusText describe_goal_following(bool has_goal, ServoStatus status,
                                        const std::string& message);

}  // namespace kinetic::app
