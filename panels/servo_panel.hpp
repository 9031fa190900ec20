#pragma once
// Teleop panel (MoveIt Servo, RoboDK's jog panel): enable teleoperation, pick the input (on-screen
// buttons, a spacemouse, or the goal marker the arm follows), jog the TCP in the base or tool frame
// or one joint at a time, set the speed, see what limits the motion (singularity, obstacle, joint
// limit) and how far the goal is, and record the motion into a trajectory. It shows and reports;
// the studio runs the servo loop.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>

#include "panels/jog_pad.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;
class QVBoxLayout;

namespace kinetic::panels {

// Goal: the arm follows the goal marker (the Goal panel's gizmo) as it is dragged (MoveIt Servo's
// pose tracking).
enum class TeleopSource { OnScreen, SpaceMouse, Goal };
enum class JogFrame { Base, Tool };
// What the spacemouse's cap moves: both, or only the TCP's position or only its orientation (for
// a precise move along an axis without turning the tool, or the other way round).
enum class SpaceMouseAxes { All, Translation, Rotation };
// How the status line is coloured: off (grey), ready, moving (green), limited (orange: slowing
// down, at a joint limit), halted (red: stopped before a singularity or an obstacle, device lost).
enum class TeleopTone { Off, Ready, Moving, Limited, Halted };
// How far the TCP is from the goal it follows: metres and radians.
struct GoalDistance {
  double position = 0.0;
  double angle = 0.0;
};

class ServoPanel : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kDefaultSpeedPercent = 50;

  explicit ServoPanel(QWidget* parent = nullptr);

  // Everything is disabled without a robot.
  void set_robot_available(bool available);
  // The robot's planning groups (the row hides when there is only one) and the chosen group's
  // joints.
  void set_groups(const QStringList& groups, const QString& current);
  void set_joint_names(const QStringList& names);
  // The joint the keyboard jogs in joint mode (shown in the pad and the keys line).
  void set_key_joint(int joint);

  // What the studio did; none of these emits a signal.
  void set_teleop_enabled(bool on);
  void set_source(TeleopSource source);
  void set_frame(JogFrame frame);
  void set_spacemouse_axes(SpaceMouseAxes axes);
  void set_recording(bool recording);
  void set_status(const QString& text, TeleopTone tone);
  // News below the status line: the input device (a spacemouse that could not be opened or went
  // away) or a finished recording; "" hides it.
  void show_note(const QString& text, bool error);
  // The Goal input's distance line (shown while it is the input); nullopt: there is no goal yet.
  void set_goal_distance(const std::optional<GoalDistance>& distance);

  bool teleop_enabled() const;
  TeleopSource source() const;
  JogMode mode() const { return pad_->mode(); }
  JogFrame frame() const;
  SpaceMouseAxes spacemouse_axes() const;
  QString group() const;
  double speed_fraction() const;  // of the servo's maximum linear / angular speed, (0, 1]
  bool record_requested() const;

  // Test access.
  QPushButton* enable_button() const { return enable_; }
  QComboBox* source_combo() const { return source_; }
  QComboBox* mode_combo() const { return mode_; }
  QComboBox* frame_combo() const { return frame_; }
  QComboBox* spacemouse_axes_combo() const { return axes_; }
  QComboBox* group_combo() const { return group_; }
  QSlider* speed_slider() const { return speed_; }
  QLabel* status_label() const { return status_; }
  QLabel* note_label() const { return note_; }
  QLabel* goal_distance_label() const { return goal_distance_; }
  QLabel* keys_label() const { return keys_; }
  QCheckBox* record_box() const { return record_; }
  JogPad* jog_pad() const { return pad_; }

 signals:
  void enableToggled(bool on);
  void sourceChanged(kinetic::panels::TeleopSource source);
  void frameChanged(kinetic::panels::JogFrame frame);
  void spacemouseAxesChanged(kinetic::panels::SpaceMouseAxes axes);
  void groupChanged(const QString& group);
  void speedChanged(double fraction);
  void recordToggled(bool on);
  // A jog button went down (see JogPad::pressed) / came up, or the panel was hidden while one was
  // held.
  void jogPressed(kinetic::panels::JogMode mode, int index, int direction);
  void jogReleased();

 protected:
  void hideEvent(QHideEvent* event) override;

 private:
  // The constructor's sections, in order (the focus chain follows the order widgets are made).
  void build_enable_button(QVBoxLayout& layout);
  void build_choices(QVBoxLayout& layout);  // group, input, mode, frame, spacemouse axes
  void build_jog_group(QVBoxLayout& layout);
  void build_speed_row(QVBoxLayout& layout);
  void build_status_labels(QVBoxLayout& layout);
  void connect_controls();
  void update_enabled();
  void update_keys_hint();

  QPushButton* enable_ = nullptr;
  QComboBox *group_ = nullptr, *source_ = nullptr, *mode_ = nullptr, *frame_ = nullptr,
            *axes_ = nullptr;
  QLabel *group_label_ = nullptr, *axes_label_ = nullptr;
  JogPad* pad_ = nullptr;
  QSlider* speed_ = nullptr;
  QLabel* speed_value_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* note_ = nullptr;
  QLabel* goal_distance_ = nullptr;
  QLabel* keys_ = nullptr;
  QCheckBox* record_ = nullptr;
  bool robot_available_ = false;
};

}  // namespace kinetic::panels
