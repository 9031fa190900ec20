#pragma once
// Joints panel: one slider + spin box per active joint, limits shown, degrees or radians, plus
// named poses, zero / mid / random collision-free, copy and paste of a configuration as text, and
// keyboard stepping (Up/Down 1°, PgUp/PgDn 10°; 1 mm / 10 mm for prismatic joints), and under the
// sliders the user's stored states (StoredStatesPanel, fed with this panel's robot and values).
// A robot with more than kRowsShownAtMost joints gets a name filter and editors for the first
// kRowsShownAtMost joints that match: editors for 2,000 joints kept the window from drawing for
// tens of seconds while Qt laid them out.
// It does not own the robot state: it shows what it is given and reports the user's edits.
#include <QWidget>
#include <functional>
#include <optional>
#include <random>
#include <vector>

#include "engine/model/robot_model.hpp"

class QDoubleSpinBox;
class QSlider;
class QLabel;
class QCheckBox;
class QComboBox;
class QLineEdit;
class QPushButton;
class QVBoxLayout;

namespace kinetic::panels {

class StoredStatesPanel;

class JointsPanel : public QWidget {
  Q_OBJECT
 public:
  // true when the configuration is free of collisions (self and scene).
  using StateCheck = std::function<bool(const JointVector&)>;
  // Why the check last asked left the scene out (it then checks the robot alone; a clause without
  // a final full stop), or "" when it checked the scene: a random pose must not pass for clear of
  // obstacles it was never tested against.
  using SceneSkipped = std::function<QString()>;
  static constexpr int kRandomFreeAttempts = 200;
  static constexpr int kRowsShownAtMost = 64;
  // What the sliders edit: the robot's current state, or the goal's joints (MoveIt's Joints tab
  // edits the goal state). The owner feeds set_values() with that one's values and routes
  // valuesEdited to it; the panel only shows and reports.
  enum class Target { Robot = 0, Goal = 1 };

  explicit JointsPanel(QWidget* parent = nullptr);

  void set_robot(RobotModelPtr robot);
  void set_values(const JointVector& q);  // does not emit valuesEdited
  const JointVector& values() const { return values_; }
  Target target() const;
  void set_target(Target target);  // does not emit targetChanged
  bool uses_degrees() const;
  void set_uses_degrees(bool degrees);

  // Used by "Random (collision-free)"; without one, random samples are only within limits.
  void set_state_check(StateCheck check, SceneSkipped scene_skipped = {}) {
    state_check_ = std::move(check);
    scene_skipped_ = std::move(scene_skipped);
  }
  void set_random_seed(unsigned seed) { random_.seed(seed); }

  // Actions behind the buttons; each emits valuesEdited when it changes the values. Those that
  // can fail return false and show why (last_message()).
  bool apply_named_pose(const QString& name);
  void apply_zero();
  void apply_mid();
  bool apply_random_free();
  void copy_to_clipboard() const;
  bool paste_from_clipboard();
  bool paste_text(const QString& text);
  // Moves one variable by `step` (rad or m), wrapping continuous joints, clamping the others.
  void step_variable(int variable, double step);
  QString last_message() const { return last_message_; }

  // "[0.1, -1.2, ...]" in radians / metres, shortest round-trip numbers.
  static QString format_configuration(const JointVector& q);
  // Parses that format (brackets optional; commas or spaces). Returns nullopt and sets *error on
  // a wrong count or a value that is not a finite number.
  static std::optional<JointVector> parse_configuration(const QString& text, int dof,
                                                        QString* error);

  // Test access: the editors of one variable (nullptr while the filter leaves it out), and the
  // filter with its note (both shown only for robots with more than kRowsShownAtMost joints).
  QSlider* slider(int variable) const { return rows_.at(variable).slider; }
  QDoubleSpinBox* spin_box(int variable) const { return rows_.at(variable).spin; }
  QLineEdit* joint_filter() const { return filter_; }
  QString shown_rows_note() const;
  QComboBox* named_poses() const { return named_poses_; }
  QComboBox* target_combo() const { return target_; }
  // The stored states under the sliders; their signals go to whoever owns the states.
  StoredStatesPanel* stored_states() const { return stored_states_; }

 signals:
  void valuesEdited(const kinetic::JointVector& q);
  void targetChanged(kinetic::panels::JointsPanel::Target target);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  // Every variable has a row; only the shown ones have editors.
  struct Row {
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
    QLabel* limits = nullptr;
    double lower = 0.0, upper = 0.0;
    bool angular = true;
    bool continuous = false;
  };
  void rebuild_rows();
  void show_rows();  // editors for the rows the filter matches, at most kRowsShownAtMost
  void add_editors(int variable);
  void refresh_row(int variable);
  void refresh_all();
  void on_slider(int variable, int position);
  void on_spin(int variable, double shown_value);
  double to_shown(const Row& row, double value) const;
  double from_shown(const Row& row, double shown) const;
  void show_message(const QString& message, bool error);
  void edit_all(const JointVector& q);

  RobotModelPtr robot_;
  JointVector values_;
  std::vector<Row> rows_;
  QVBoxLayout* rows_layout_ = nullptr;
  QWidget* rows_widget_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QLabel* shown_note_ = nullptr;
  QCheckBox* degrees_ = nullptr;
  QComboBox* named_poses_ = nullptr;
  QComboBox* target_ = nullptr;
  QPushButton* apply_pose_ = nullptr;
  StoredStatesPanel* stored_states_ = nullptr;
  QLabel* message_ = nullptr;
  QString last_message_;
  StateCheck state_check_;
  SceneSkipped scene_skipped_;
  std::mt19937 random_{std::random_device{}()};
  bool updating_ = false;
};

}  // namespace kinetic::panels
