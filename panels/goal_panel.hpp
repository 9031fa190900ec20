#pragma once
// Goal panel: the goal TCP pose typed as position (m) and orientation as roll/pitch/yaw (degrees)
// or a quaternion, the end effector it is for (where the group has several, as two arms do), the
// gizmo's frame (world or local), collision-aware IK, cycling through the IK solutions ("solution
// k of n"), the IK status line, goal <-> current state buttons, and moving the goal by an offset in
// the tool's or the base's axes, and where the robot's TCP is now (a read-only line above the
// goal <-> current buttons, TcpReadout).
// It shows what it is given and reports the user's edits; it never solves anything itself.
#include <QStringList>
#include <QWidget>

#include "engine/core/types.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QHBoxLayout;
class QLabel;
class QPushButton;
class QStackedWidget;
class QToolButton;
class QVBoxLayout;

namespace kinetic::panels {

class TcpReadout;

class GoalPanel : public QWidget {
  Q_OBJECT
 public:
  enum class Orientation { RollPitchYaw = 0, Quaternion = 1 };

  explicit GoalPanel(QWidget* parent = nullptr);

  // None of the setters emit the edit signals.
  void set_pose(const Pose& pose);
  Pose pose() const;                              // from the fields (quaternion normalised)
  void set_frame_name(const QString& base_link);  // shown as "in <base link>"
  // A planning group that is not one chain: its end effectors, one gizmo each, and the one the
  // pose fields are for. Empty names hide the choice (a chain group has one TCP).
  void set_end_effectors(const QStringList& names, const QString& active);
  QString end_effector() const;
  void set_orientation_mode(Orientation mode);
  Orientation orientation_mode() const;
  void set_local_frame(bool local);
  bool local_frame() const;
  void set_collision_aware(bool on);
  bool collision_aware() const;
  // count 0: nothing solved yet, no solution to cycle through (blank, buttons disabled).
  void set_solution(int index, int count);
  void set_ik_status(const QString& text, bool failed);
  QString ik_status() const;
  QString solution_text() const;

  // Widgets, for tests and keyboard users.
  QDoubleSpinBox* position_field(int axis) const { return position_[axis]; }
  QDoubleSpinBox* rpy_field(int axis) const { return rpy_[axis]; }
  QDoubleSpinBox* quaternion_field(int index) const { return quaternion_[index]; }  // x, y, z, w
  QPushButton* next_button() const { return next_; }
  QPushButton* previous_button() const { return previous_; }
  QPushButton* goal_from_current_button() const { return goal_from_current_; }
  QPushButton* current_from_goal_button() const { return current_from_goal_; }
  QCheckBox* collision_aware_box() const { return collision_aware_; }
  QCheckBox* local_frame_box() const { return local_frame_; }
  QComboBox* end_effector_combo() const { return end_effector_; }
  // Move the goal by: translation (mm) and roll / pitch / yaw (°) fields, the axes, the button.
  QDoubleSpinBox* offset_translation_field(int axis) const { return offset_translation_[axis]; }
  QDoubleSpinBox* offset_rotation_field(int axis) const { return offset_rotation_[axis]; }
  QComboBox* offset_axes_combo() const { return offset_axes_; }
  QPushButton* move_goal_button() const { return move_goal_; }
  QToolButton* offset_toggle() const { return offset_toggle_; }  // unfolds the offset fields
  // The current TCP line; its "Set goal here" asks for goalFromCurrentRequested.
  TcpReadout* tcp_readout() const { return tcp_readout_; }

 signals:
  void poseEdited(const kinetic::Pose& pose);
  void endEffectorChosen(const QString& name);
  void localFrameChanged(bool local);
  void collisionAwareChanged(bool on);
  void nextSolutionRequested();
  void previousSolutionRequested();
  void goalFromCurrentRequested();
  void currentFromGoalRequested();

 private:
  // The constructor's sections, in order (the focus chain follows the order widgets are made).
  QHBoxLayout* build_title_row(
      QVBoxLayout& layout);  // the frame's name (the Offset toggle joins it)
  void build_end_effector_row(QVBoxLayout& layout);
  void build_pose_fields(QVBoxLayout& layout);
  void build_ik_rows(QVBoxLayout& layout);
  void build_readouts(QVBoxLayout& layout);
  QGroupBox* make_offset_group(QHBoxLayout& title_row);  // folded under the Offset toggle
  void fields_edited();
  void move_goal_by_offset();  // the fields' goal moved by the offset fields: set and emitted
  void show_orientation(const Eigen::Quaterniond& rotation);

  QLabel* frame_label_ = nullptr;
  QWidget* end_effector_row_ = nullptr;
  QComboBox* end_effector_ = nullptr;
  QDoubleSpinBox* position_[3] = {};
  QComboBox* orientation_mode_ = nullptr;
  QStackedWidget* orientation_stack_ = nullptr;
  QDoubleSpinBox* rpy_[3] = {};
  QDoubleSpinBox* quaternion_[4] = {};
  QCheckBox* local_frame_ = nullptr;
  QCheckBox* collision_aware_ = nullptr;
  QPushButton* previous_ = nullptr;
  QPushButton* next_ = nullptr;
  QLabel* solution_ = nullptr;
  QLabel* status_ = nullptr;
  QPushButton* goal_from_current_ = nullptr;
  QPushButton* current_from_goal_ = nullptr;
  QDoubleSpinBox* offset_translation_[3] = {};
  QDoubleSpinBox* offset_rotation_[3] = {};
  QComboBox* offset_axes_ = nullptr;
  QPushButton* move_goal_ = nullptr;
  QToolButton* offset_toggle_ = nullptr;
  TcpReadout* tcp_readout_ = nullptr;
  bool updating_ = false;
};

}  // namespace kinetic::panels
