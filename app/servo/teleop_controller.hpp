#pragma once
// TeleopController: teleoperation of the document's robot. While enabled it owns an engine
// ServoLoop (its own thread, 500 Hz) for the robot, the chosen planning group and the scene,
// started from the document's joints; a ~60 Hz timer hands the input's command to the loop and
// shows the loop's newest state as the document's current joints (so the Joints panel, the
// viewport and the collision list follow). The session is one undo step ("Teleoperate").
//
// Inputs: the on-screen jog buttons (press / release; the command is re-sent every frame while a
// button is held, and the loop treats a command older than its timeout as Stop, so a lost release
// or a stalled GUI cannot leave the arm moving), a spacemouse (SpaceMouseInput), or the goal
// marker (GoalController's goal, as the gizmo drags it: the servo tracks it as a pose target,
// re-sent every frame too; no goal means Stop). A robot change restarts the loop for the new robot
// (and stops following the goal: the arm waits for the user), a scene edit reaches the running
// loop, an edit of the joints from elsewhere (a slider, undo) restarts it from there.
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <memory>
#include <optional>

#include "app/goal/tcp_kinematics.hpp"
#include "app/servo/servo_status_text.hpp"
#include "app/servo/spacemouse_input.hpp"
#include "engine/servo/servo_loop.hpp"
#include "panels/servo_panel.hpp"

namespace kinetic::app {

class CommandRenewal;
class GoalController;
class StudioDocument;
class TeleopUndoCommand;

class TeleopController : public QObject {
  Q_OBJECT
 public:
  // ~60 Hz: how often the arm's newest state is shown (what the eye and the viewport need). The
  // command to the loop is renewed by CommandRenewal's own clock, whatever this timer manages.
  static constexpr int kFrameIntervalMs = 16;

  // goal: where the Goal input's target comes from (the 3D view's and the Goal panel's goal).
  TeleopController(StudioDocument& document, GoalController& goal, QObject* parent = nullptr);
  ~TeleopController() override;

  bool enabled() const { return loop_ != nullptr; }
  // The planning group the servo moves (the robot's first by default), the robot's groups and the
  // group's joints, base to tip (what joint jogging offers).
  const QString& group() const { return group_; }
  QStringList group_names() const;
  QStringList joint_names() const;
  const ServoOptions& options() const { return options_; }
  double speed() const { return speed_; }
  ServoCommand::Frame frame() const { return frame_; }
  panels::SpaceMouseAxes spacemouse_axes() const { return spacemouse_axes_; }
  panels::TeleopSource source() const { return source_; }
  // What the status line shows: the servo's status in words, or why teleoperation is off.
  const ServoStatusText& status() const { return status_; }
  ServoStatus servo_status() const { return servo_status_; }
  // The command sent to the loop now (Stop when nothing is held or pushed, or there is no goal).
  ServoCommand current_command() const;
  // How far the group's TCP is from the goal; nullopt when there is no goal (or no group).
  std::optional<panels::GoalDistance> goal_distance() const;
  SpaceMouseInput& spacemouse() { return spacemouse_; }

 public slots:
  // Starts the loop from the document's joints; "" on success, else why not (also the status).
  QString enable();
  // Stops the arm and the loop; the document keeps where the arm stopped.
  void disable();
  void set_enabled(bool on);
  void set_group(const QString& group);
  void set_speed(double fraction);  // of the maximum linear / angular speed, clamped to [0.01, 1]
  void set_frame(kinetic::ServoCommand::Frame frame);
  void set_spacemouse_axes(kinetic::panels::SpaceMouseAxes axes);
  // "" on success; a spacemouse that cannot be opened leaves the on-screen buttons as the input
  // and returns the engine's message and hint (also sent as deviceMessage). Goal: the arm follows
  // the goal at the speed slider's share of the maximum speeds.
  QString set_source(kinetic::panels::TeleopSource source);
  void press(kinetic::panels::JogMode mode, int index, int direction);
  void release();

 signals:
  // Also (false) when enable() failed, so a toggle that was switched on springs back.
  void enabledChanged(bool enabled);
  void statusChanged();
  void groupsChanged();  // group_names(), group() or joint_names() changed
  void sourceChanged(kinetic::panels::TeleopSource source);
  // The spacemouse's buttons changed these (left: Base / Tool frame; right: what the cap moves).
  void frameChanged(kinetic::ServoCommand::Frame frame);
  void spacemouseAxesChanged(kinetic::panels::SpaceMouseAxes axes);
  // News about the input device for the panel ("" clears it).
  void deviceMessage(const QString& text, bool error);
  // goal_distance() may have changed (the goal or the arm moved), while the goal is the input.
  void goalDistanceChanged();

 private:
  struct HeldJog {
    panels::JogMode mode;
    int index;
    int direction;
  };
  void tick();
  void send_command();
  // Shows the loop's newest state in the document; false when there was nothing new.
  bool show_latest();
  void move_document(const JointVector& q);
  void begin_undo_segment();
  void set_status(const ServoStatusText& status, ServoStatus servo_status);
  // The status line for a servo status: in the goal's words while it is the input.
  ServoStatusText describe(ServoStatus status, const std::string& message) const;
  // The loop's options: the speed slider caps the goal's speeds (jog commands carry their own).
  ServoOptions loop_options() const;
  void apply_loop_options();
  // The group's kinematics when they belong to the document's robot (null between a robot change
  // and rebuild_chain(), or for a robot without the group).
  const TcpKinematics* group_kinematics() const;
  std::optional<Pose> goal_pose_world() const;  // the goal to follow, in the world frame
  // Stops the arm and the loop and says so; show_final_state: the document takes the last state.
  void shut_down(bool show_final_state);
  // Stops the loop without a word (the robot is gone, the controller is).
  void stop_loop();
  void rebuild_chain();
  void on_robot_changed();
  void on_scene_changed();
  void on_joints_changed();
  void on_spacemouse_lost(const QString& message);
  void on_spacemouse_button(int index);
  void on_undo_index_changed(int index);
  void on_goal_moved();
  // The commands pushed since the live undo step up to `index` are all goal edits.
  bool only_goal_edits_since_live_step(int index);

  StudioDocument& document_;
  QPointer<GoalController> goal_;  // (the window may delete it first)
  std::unique_ptr<ServoLoop> loop_;
  std::unique_ptr<CommandRenewal> renewal_;  // with loop_, and gone before it
  // The group's chain (joint names, joint jog sizes) and where its base and TCP are in the world.
  std::unique_ptr<TcpKinematics> kinematics_;
  QTimer timer_;
  ServoOptions options_;
  QString group_;
  double speed_ = panels::ServoPanel::kDefaultSpeedPercent / 100.0;
  ServoCommand::Frame frame_ = ServoCommand::Frame::Base;
  panels::TeleopSource source_ = panels::TeleopSource::OnScreen;
  panels::SpaceMouseAxes spacemouse_axes_ = panels::SpaceMouseAxes::All;
  SpaceMouseInput spacemouse_;
  std::optional<HeldJog> held_;
  ServoStatusText status_;
  ServoStatus servo_status_ = ServoStatus::Stopped;
  std::uint64_t shown_cycle_ = 0;
  JointVector last_shown_;                  // what this controller last put into the document
  JointVector segment_start_;               // the joints the current undo step starts from
  TeleopUndoCommand* live_step_ = nullptr;  // the undo step being extended (owned by the stack)
  int live_step_index_ = -1;
};

}  // namespace kinetic::app
