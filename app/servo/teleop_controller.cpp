#include "app/servo/teleop_controller.hpp"

#include <algorithm>

#include "app/document/document_commands.hpp"
#include "app/document/studio_document.hpp"
#include "app/goal/goal_controller.hpp"
#include "app/servo/command_renewal.hpp"
#include "app/servo/goal_following.hpp"
#include "app/servo/jog_command.hpp"
#include "app/servo/teleop_undo_command.hpp"

namespace kinetic::app {

namespace {

bool same_joints(const JointVector& a, const JointVector& b) {
  return a.size() == b.size() && a == b;
}

QString error_text(const std::exception& error) {
  return QString::fromUtf8(error.what());
}

ServoStatusText off_status() {
  return {TeleopController::tr("Off: enable teleoperation to jog the arm."),
          panels::TeleopTone::Off};
}

}  // namespace

TeleopController::TeleopController(StudioDocument& document, GoalController& goal, QObject* parent)
    : QObject(parent), document_(document), goal_(&goal), status_(off_status()) {
  timer_.setInterval(kFrameIntervalMs);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &TeleopController::tick);
  connect(&document_, &StudioDocument::robotChanged, this, &TeleopController::on_robot_changed);
  connect(&document_, &StudioDocument::sceneChanged, this, &TeleopController::on_scene_changed);
  connect(&document_, &StudioDocument::jointsChanged, this, &TeleopController::on_joints_changed);
  connect(&document_.undo_stack(), &QUndoStack::indexChanged, this,
          &TeleopController::on_undo_index_changed);
  connect(&spacemouse_, &SpaceMouseInput::axesChanged, this, [this] {
    if (source_ == panels::TeleopSource::SpaceMouse) send_command();
  });
  connect(&spacemouse_, &SpaceMouseInput::lost, this, &TeleopController::on_spacemouse_lost);
  connect(&spacemouse_, &SpaceMouseInput::buttonPressed, this,
          &TeleopController::on_spacemouse_button);
  // The goal moved (a drag, undo, the Goal panel) or the arm did (the goal's world pose follows the
  // base): a new target at once, rather than at the next frame.
  connect(&goal, &GoalController::shownPoseChanged, this, &TeleopController::on_goal_moved);
  group_ = group_names().value(0);
  rebuild_chain();
}

TeleopController::~TeleopController() {
  // The loop's thread ends before the document it reads goes away; the spacemouse, closing as a
  // member, must not call back into a controller that is half gone.
  disconnect(&spacemouse_, nullptr, this, nullptr);
  stop_loop();
}

QStringList TeleopController::group_names() const {
  QStringList names;
  if (const RobotModelPtr robot = document_.robot())
    for (const std::string& name : robot->group_names()) names << QString::fromStdString(name);
  return names;
}

QStringList TeleopController::joint_names() const {
  QStringList names;
  if (kinematics_)
    for (const std::string& name : kinematics_->chain().joint_names())
      names << QString::fromStdString(name);
  return names;
}

void TeleopController::rebuild_chain() {
  kinematics_.reset();
  const RobotModelPtr robot = document_.robot();
  if (!robot) return;
  try {
    kinematics_ = std::make_unique<TcpKinematics>(robot, group_.toStdString());
  } catch (const std::exception&) {
    // A robot without a usable group: enable() reports why.
  }
}

const TcpKinematics* TeleopController::group_kinematics() const {
  const RobotModelPtr robot = document_.robot();
  if (!kinematics_ || !robot || kinematics_->chain().model() != robot ||
      document_.joints().size() != robot->dof())
    return nullptr;
  return kinematics_.get();
}

ServoOptions TeleopController::loop_options() const {
  ServoOptions options = options_;
  if (source_ == panels::TeleopSource::Goal) {
    options.max_linear_speed *= speed_;
    options.max_angular_speed *= speed_;
  }
  return options;
}

void TeleopController::apply_loop_options() {
  if (!loop_) return;
  try {
    loop_->set_options(loop_options());
  } catch (const std::exception& error) {
    // (Scaled within (0, 1] of valid options: not expected.) Stop rather than run on old limits.
    shut_down(true);
    set_status({tr("Stopped: %1").arg(error_text(error)), panels::TeleopTone::Halted},
               ServoStatus::Stopped);
  }
}

QString TeleopController::enable() {
  if (loop_) return {};
  const RobotModelPtr robot = document_.robot();
  QString why;
  if (!robot) {
    why = tr("No robot is loaded.");
  } else {
    try {
      auto servo = std::make_unique<Servo>(robot, group_.toStdString(), loop_options());
      servo->set_scene(document_.scene());
      loop_ = std::make_unique<ServoLoop>(std::move(servo));
      loop_->start(document_.joints());
      renewal_ = std::make_unique<CommandRenewal>(*loop_);
    } catch (const std::exception& error) {
      renewal_.reset();
      loop_.reset();
      why = error_text(error);
    }
  }
  if (!why.isEmpty()) {
    set_status({tr("Cannot teleoperate: %1").arg(why), panels::TeleopTone::Halted},
               ServoStatus::Stopped);
    emit enabledChanged(false);
    return why;
  }
  shown_cycle_ = 0;
  last_shown_ = document_.joints();
  begin_undo_segment();
  send_command();
  timer_.start();
  set_status(describe(ServoStatus::Stopped, {}), ServoStatus::Stopped);
  emit enabledChanged(true);
  return {};
}

void TeleopController::disable() {
  shut_down(true);
}

void TeleopController::shut_down(bool show_final_state) {
  if (!loop_) return;
  timer_.stop();
  renewal_.reset();
  loop_->set_command(ServoCommand{});
  loop_->stop();
  if (show_final_state) show_latest();  // where the arm actually stopped
  loop_.reset();
  live_step_ = nullptr;
  held_.reset();
  set_status(off_status(), ServoStatus::Stopped);
  emit enabledChanged(false);
}

void TeleopController::set_enabled(bool on) {
  on ? static_cast<void>(enable()) : disable();
}

void TeleopController::stop_loop() {
  timer_.stop();
  renewal_.reset();
  if (loop_) loop_->stop();
  loop_.reset();
  live_step_ = nullptr;
}

void TeleopController::set_group(const QString& group) {
  if (group == group_) return;
  const bool was_enabled = enabled();
  disable();  // the session so far is its own undo step
  group_ = group;
  rebuild_chain();
  emit groupsChanged();
  if (was_enabled) enable();
}

void TeleopController::set_speed(double fraction) {
  speed_ = std::clamp(fraction, 0.01, 1.0);
  if (source_ == panels::TeleopSource::Goal) apply_loop_options();
  send_command();
}

void TeleopController::set_frame(ServoCommand::Frame frame) {
  frame_ = frame;
  send_command();
}

void TeleopController::set_spacemouse_axes(panels::SpaceMouseAxes axes) {
  spacemouse_axes_ = axes;
  send_command();
}

// The hands stay on the device: its left button switches the frame, its right one steps through
// what the cap moves (both, translation only, rotation only).
void TeleopController::on_spacemouse_button(int index) {
  if (source_ != panels::TeleopSource::SpaceMouse) return;
  if (index == 0) {
    set_frame(frame_ == ServoCommand::Frame::Base ? ServoCommand::Frame::Tool
                                                  : ServoCommand::Frame::Base);
    emit frameChanged(frame_);
  } else if (index == 1) {
    set_spacemouse_axes(
        static_cast<panels::SpaceMouseAxes>((static_cast<int>(spacemouse_axes_) + 1) % 3));
    emit spacemouseAxesChanged(spacemouse_axes_);
  }
}

QString TeleopController::set_source(panels::TeleopSource source) {
  held_.reset();
  QString error;
  if (source == panels::TeleopSource::SpaceMouse) {
    error = spacemouse_.open();
    if (!error.isEmpty()) source = panels::TeleopSource::OnScreen;
  } else {
    spacemouse_.close();
  }
  const bool options_change =
      (source_ == panels::TeleopSource::Goal) != (source == panels::TeleopSource::Goal);
  source_ = source;
  if (options_change) apply_loop_options();
  send_command();
  emit sourceChanged(source_);
  emit goalDistanceChanged();
  if (!error.isEmpty())
    emit deviceMessage(error, true);
  else if (source_ == panels::TeleopSource::SpaceMouse)
    emit deviceMessage(
        tr("Spacemouse connected: push, pull or twist its cap to move the TCP. Its left button "
           "switches the frame (Base / Tool), its right one what the cap moves."),
        false);
  else
    emit deviceMessage({}, false);
  return error;
}

void TeleopController::press(panels::JogMode mode, int index, int direction) {
  held_ = HeldJog{mode, index, direction};
  send_command();
}

void TeleopController::release() {
  held_.reset();
  send_command();
}

ServoCommand TeleopController::current_command() const {
  if (source_ == panels::TeleopSource::Goal) {
    const TcpKinematics* group = group_kinematics();
    const auto goal = goal_pose_world();
    return group && goal ? follow_goal_command(*group, *goal, document_.joints()) : ServoCommand{};
  }
  if (source_ == panels::TeleopSource::SpaceMouse) {
    const Twist& axes = spacemouse_.axes();
    return axes.isZero() ? ServoCommand{}
                         : spacemouse_jog(axes, speed_, options_, frame_, spacemouse_axes_);
  }
  if (!held_) return ServoCommand{};
  if (held_->mode == panels::JogMode::Joint)
    return kinematics_
               ? joint_jog(kinematics_->chain(), held_->index, held_->direction, speed_, options_)
               : ServoCommand{};
  if (held_->index < 0 || held_->index >= kJogAxisCount) return ServoCommand{};
  return cartesian_jog(static_cast<JogAxis>(held_->index), held_->direction, speed_, options_,
                       frame_);
}

void TeleopController::send_command() {
  // No renewal: the loop is shutting down (its final state being shown moves the goal here).
  if (!loop_ || !renewal_) return;
  try {
    renewal_->set_command(current_command());
  } catch (const std::exception& error) {
    // A command the servo refuses (wrong size after a group change): stop rather than guess.
    renewal_->set_command(ServoCommand{});
    set_status({tr("Stopped: %1").arg(error_text(error)), panels::TeleopTone::Halted},
               ServoStatus::Stopped);
  }
}

void TeleopController::tick() {
  // A fresh command (goal following aims from where the arm is now); between ticks, however long a
  // frame takes, CommandRenewal keeps the loop from timing out.
  send_command();
  show_latest();
}

bool TeleopController::show_latest() {
  if (!loop_) return false;
  const ServoLoopState state = loop_->latest();
  if (state.cycle == 0 || state.cycle == shown_cycle_) return false;
  shown_cycle_ = state.cycle;
  const RobotModelPtr robot = document_.robot();
  if (robot && state.step.q.size() == robot->dof() &&
      !same_joints(state.step.q, document_.joints()))
    move_document(state.step.q);
  set_status(describe(state.step.status, state.step.message), state.step.status);
  return true;
}

std::optional<panels::GoalDistance> TeleopController::goal_distance() const {
  const TcpKinematics* group = group_kinematics();
  const auto goal = goal_pose_world();
  if (!group || !goal) return std::nullopt;
  return distance_to_goal(*group, *goal, document_.joints());
}

ServoStatusText TeleopController::describe(ServoStatus status, const std::string& message) const {
  if (source_ != panels::TeleopSource::Goal) return describe_servo_status(status, message);
  return describe_goal_following(goal_pose_world().has_value(), status, message);
}

std::optional<Pose> TeleopController::goal_pose_world() const {
  return goal_ ? goal_->goal_pose_world() : std::nullopt;
}

void TeleopController::move_document(const JointVector& q) {
  last_shown_ = q;
  document_.set_joints(q);
  if (live_step_) {
    live_step_->set_after(q);
    return;
  }
  if (same_joints(q, segment_start_)) return;
  // The first motion of the session: one undo step, extended from now on.
  auto* step = new TeleopUndoCommand(
      tr("Teleoperate"), segment_start_, q,
      [document = &document_](const JointVector& v) { document->set_joints(v); });
  document_.undo_stack().push(step);
  live_step_ = step;
  live_step_index_ = document_.undo_stack().index();
}

void TeleopController::begin_undo_segment() {
  segment_start_ = document_.joints();
  live_step_ = nullptr;
}

void TeleopController::set_status(const ServoStatusText& status, ServoStatus servo_status) {
  servo_status_ = servo_status;
  if (status.text == status_.text && status.tone == status_.tone) return;
  status_ = status;
  emit statusChanged();
}

void TeleopController::on_robot_changed() {
  // The session belonged to the old robot (and loading cleared the undo history): no undo step.
  const bool was_enabled = enabled();
  stop_loop();
  held_.reset();
  if (source_ == panels::TeleopSource::Goal) {
    // A goal kept across the change (same joints) would pull the new robot away at once: the user
    // chooses to follow it again.
    source_ = panels::TeleopSource::OnScreen;
    emit sourceChanged(source_);
    emit deviceMessage(
        tr("The robot changed: the arm no longer follows the goal. Choose Follow goal as the "
           "input again to follow it."),
        false);
  }
  group_ = group_names().value(0);  // "" for a robot without named groups: its default chain
  rebuild_chain();
  emit groupsChanged();
  if (!was_enabled) return;
  if (!enable().isEmpty()) return;  // enable() reported why
}

void TeleopController::on_scene_changed() {
  if (!loop_) return;
  try {
    loop_->set_scene(document_.scene());
  } catch (const std::exception& error) {
    // Moving on without the edited scene could drive the arm into it: stop.
    disable();
    set_status(
        {tr("Stopped: the scene cannot be used for teleoperation: %1").arg(error_text(error)),
         panels::TeleopTone::Halted},
        ServoStatus::Stopped);
  }
}

void TeleopController::on_joints_changed() {
  if (!loop_ || same_joints(document_.joints(), last_shown_)) return;
  // Someone else moved the arm (a slider, a named pose, undo): the servo goes on from there, and
  // later motion is a new undo step.
  last_shown_ = document_.joints();
  try {
    loop_->start(document_.joints());
  } catch (const std::exception& error) {
    shut_down(false);  // the document keeps the edit
    set_status({tr("Stopped: %1").arg(error_text(error)), panels::TeleopTone::Halted},
               ServoStatus::Stopped);
    return;
  }
  shown_cycle_ = 0;
  begin_undo_segment();
  send_command();
}

void TeleopController::on_undo_index_changed(int index) {
  // Another edit was pushed, or ours undone: further motion starts a new undo step. Goal edits
  // do not move the arm (while it follows the goal they are the input): the session stays one step.
  if (live_step_ && index != live_step_index_ && !only_goal_edits_since_live_step(index))
    begin_undo_segment();
}

bool TeleopController::only_goal_edits_since_live_step(int index) {
  const QUndoStack& stack = document_.undo_stack();
  if (index < live_step_index_ || index > stack.count()) return false;
  for (int i = live_step_index_; i < index; ++i)
    if (stack.command(i)->id() != static_cast<int>(EditKind::Goal)) return false;
  return true;
}

void TeleopController::on_goal_moved() {
  if (source_ != panels::TeleopSource::Goal) return;
  send_command();
  emit goalDistanceChanged();
}

void TeleopController::on_spacemouse_lost(const QString& message) {
  // Stop at once, without waiting for the next frame.
  if (renewal_) renewal_->set_command(ServoCommand{});
  source_ = panels::TeleopSource::OnScreen;
  held_.reset();
  emit sourceChanged(source_);
  emit deviceMessage(message, true);
}

}  // namespace kinetic::app
