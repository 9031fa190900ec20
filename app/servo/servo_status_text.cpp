#include "app/servo/servo_status_text.hpp"

#include <QCoreApplication>

namespace kinetic::app {

namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("ServoStatusText", text);
}

// "Halted" + "'wrist_3_link' 8 mm from 'table'" -> "Halted: 'wrist_3_link' 8 mm from 'table'";
// without a message the fallback says what happened.
QString with_reason(const QString& what, const std::string& message, const QString& fallback) {
  return QStringLiteral("%1: %2").arg(what,
                                      message.empty() ? fallback : QString::fromStdString(message));
}

// The servo's messages are clauses ("joint 'x' is at its upper limit ..."); a line starts
// capitalised.
QString sentence(const std::string& message) {
  QString text = QString::fromStdString(message);
  if (!text.isEmpty()) text[0] = text[0].toUpper();
  return text;
}

}  // namespace

ServoStatusText describe_servo_status(ServoStatus status, const std::string& message) {
  using panels::TeleopTone;
  switch (status) {
    case ServoStatus::Ok:
      return {tr("Moving"), TeleopTone::Moving};
    case ServoStatus::DecelerateForSingularity:
      return {with_reason(tr("Slowing down"), message, tr("near a singularity")),
              TeleopTone::Limited};
    case ServoStatus::HaltForSingularity:
      return {with_reason(tr("Halted"), message, tr("at a singularity; move away from it")),
              TeleopTone::Halted};
    case ServoStatus::DecelerateForCollision:
      return {with_reason(tr("Slowing down"), message, tr("close to a collision")),
              TeleopTone::Limited};
    case ServoStatus::HaltForCollision:
      return {with_reason(tr("Halted"), message, tr("about to collide; move away")),
              TeleopTone::Halted};
    case ServoStatus::JointBound:
      return {message.empty() ? tr("A joint is at its limit") : sentence(message),
              TeleopTone::Limited};
    case ServoStatus::TargetReached:
      return {tr("Target reached"), TeleopTone::Ready};
    case ServoStatus::Stopped:
      // With a message the loop stopped the arm itself (a command timed out or was refused).
      if (!message.empty()) return {with_reason(tr("Stopped"), message, {}), TeleopTone::Limited};
      return {tr("Ready: hold a jog button (or push the spacemouse) to move"), TeleopTone::Ready};
  }
  return {QString::fromUtf8(to_string(status)), TeleopTone::Ready};
}

ServoStatusText describe_goal_following(bool has_goal, ServoStatus status,
                                        const std::string& message) {
  using panels::TeleopTone;
  if (!has_goal)
    return {tr("No goal to follow: drag the goal gizmo in the 3D view (or set one in the Goal "
               "panel); the arm "
               "stays where it is"),
            TeleopTone::Ready};
  switch (status) {
    case ServoStatus::Ok:
      return {tr("Moving to the goal"), TeleopTone::Moving};
    case ServoStatus::TargetReached:
      return {tr("Goal reached: drag the goal gizmo and the arm follows"), TeleopTone::Ready};
    case ServoStatus::Stopped:
      if (message.empty()) return {tr("Ready: the arm follows the goal gizmo"), TeleopTone::Ready};
      break;
    default:
      break;
  }
  return describe_servo_status(status, message);
}

}  // namespace kinetic::app
