#pragma once
// Task panel (MoveIt Task Constructor's pick and place, as a form): the object to pick, where to
// put it (position and heading, with the rotations that are just as good), the gripper, Plan /
// Cancel, the outcome in words with the stages and their durations, and Apply. It shows and
// reports; the studio plans. Its whole setup is one value (TaskSettings) that sessions keep.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <array>
#include <cstdint>
#include <vector>

#include "engine/task/pick_place.hpp"
#include "panels/result_label.hpp"
#include "panels/task_settings.hpp"

class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QVBoxLayout;

namespace kinetic::panels {

// An object of the scene the gripper can hold (box, cylinder or sphere).
struct TaskObject {
  QString name;
  QString description;           // "cylinder r 0.025, l 0.08 m"
  Pose pose = Pose::Identity();  // world
};

// One row of the stage list.
struct TaskStageRow {
  QString name;
  double start = 0.0;     // s
  double duration = 0.0;  // s
};

// What the status line says after a plan that succeeded.
struct TaskSummary {
  QString object;
  QString grasp;           // "from above, across y"
  double place_yaw = 0.0;  // rad, heading of the place pose used
  int grasps_tried = 0;
  double planning_ms = 0.0;
  double duration = 0.0;   // s, of the timed motion
  std::uint64_t seed = 0;  // of the free-space moves: the same seed plans the same task
  QStringList notes;       // why earlier candidates failed
};

class TaskPanel : public QWidget {
  Q_OBJECT
 public:
  explicit TaskPanel(QWidget* parent = nullptr);

  // Inputs (they emit no signal unless said).
  void set_robot_available(bool available);
  // The scene's graspable objects; the chosen one stays chosen while it is there.
  void set_objects(const std::vector<TaskObject>& objects);
  // Follows the document's selection: chooses `name` when it is graspable, else nothing changes
  // (a choice emits placeChanged, as the user's).
  void select_object(const QString& name);
  void set_place(const Vector3& position, double yaw);  // m, rad (world Z)
  // Move in 3D view: on, the view's gizmo moves the place (emits moveInViewToggled when it
  // changes). Choosing another object, or the panel being disabled, turns it off.
  void set_move_in_view(bool on);
  bool move_in_view() const;
  // Move in 3D view as a click on the button would set it (the place target or an obstacle
  // clicked in the view): never on while the button is disabled.
  void request_move_in_view(bool on);
  // The links allowed to touch the held object when the field is left empty (shown as a hint).
  void set_default_touch_links(const QStringList& links);

  QString object() const;
  // The request as edited: object, place pose (the object keeps its tilt; yaw sets its heading),
  // place rotations, gripper, distances. Planner options are left for the studio to fill.
  PickPlaceRequest request() const;
  // The place dragged in the 3D view: its position and its heading about world Z go into the
  // fields (the object keeps its tilt), as if typed. Emits placeChanged.
  void move_place(const Pose& pose);

  // What the studio did.
  void set_running(bool running);
  void show_result(const TaskSummary& summary, const std::vector<TaskStageRow>& stages);
  void show_failure(const QString& why, const QString& fix);
  void show_message(const QString& text);
  // Whether the status shows a failure (show_failure): it describes the setup and the state it was
  // planned from, and its owner replaces it once they change.
  bool showing_failure() const { return status_->tone() == ResultLabel::Tone::Error; }
  // Apply needs a successful plan whose scene is still the document's.
  void set_apply_available(bool available);

  // The setup at once (what a session keeps). set_settings() emits placeChanged, not
  // settingsChanged; values outside the boxes' ranges are clamped. An object the scene lacks is
  // kept (settings() still names it, nothing is chosen, the panel says it is missing) and chosen
  // once the scene has it again, until the user chooses another.
  TaskSettings settings() const;
  void set_settings(const TaskSettings& settings);
  QString missing_object() const { return missing_object_; }  // "" when none is missing

  // Test access.
  QComboBox* object_combo() const { return object_; }
  QDoubleSpinBox* place_position_box(int axis) const {
    return place_[static_cast<std::size_t>(axis)];
  }
  QDoubleSpinBox* place_yaw_box() const { return yaw_; }  // degrees
  QSpinBox* place_rotations_box() const { return yaw_steps_; }
  QPushButton* from_object_button() const { return from_object_; }
  QPushButton* move_in_view_button() const { return move_in_view_; }
  QComboBox* gripper_combo() const { return gripper_; }
  QDoubleSpinBox* opening_box() const { return opening_; }            // mm
  QDoubleSpinBox* finger_depth_box() const { return finger_depth_; }  // mm
  QLineEdit* touch_links_edit() const { return touch_links_; }
  QDoubleSpinBox* approach_box() const { return approach_; }  // mm
  QDoubleSpinBox* lift_box() const { return lift_; }          // mm
  QPushButton* plan_button() const { return plan_; }
  QPushButton* cancel_button() const { return cancel_; }
  QPushButton* apply_button() const { return apply_; }
  QLabel* status_label() const { return status_; }
  QLabel* reason_label() const { return reason_; }
  QLabel* missing_object_label() const { return missing_; }
  QTableWidget* stage_table() const { return stages_; }

 signals:
  void planRequested();
  void cancelRequested();
  void applyRequested();
  // The object or the place (position, yaw) changed: by the user, select_object or move_place.
  void placeChanged();
  void moveInViewToggled(bool on);
  // The setup changed: by the user, or as it follows the scene's objects, select_object and
  // move_place; not by set_settings.
  void settingsChanged();

 private:
  // build_ui's sections, in order (the focus chain follows the order widgets are made).
  void build_ui();
  QGroupBox* make_pick_group();             // the object to pick
  QGroupBox* make_place_group();            // where it goes: position, yaw, rotations to try
  QGroupBox* make_gripper_group();          // gripper, touch links, approach and lift
  void build_run_area(QVBoxLayout& outer);  // why Plan is off, Plan, Cancel, result, stages, Apply
  void connect_controls();
  void choose(const QString& name);
  void copy_place_from_object();
  const TaskObject* chosen() const;
  void update_enabled();
  void show_missing_object();
  void settings_changed();

  std::vector<TaskObject> objects_;
  bool robot_available_ = false;
  bool running_ = false;
  bool apply_available_ = false;
  bool place_edited_ = false;       // until the user types a place, it follows the chosen object
  QString missing_object_;          // set_settings' object, while the scene lacks it
  bool applying_settings_ = false;  // set_settings() is filling the fields: no settingsChanged

  QComboBox* object_ = nullptr;
  QLabel* object_info_ = nullptr;
  QLabel* missing_ = nullptr;
  std::array<QDoubleSpinBox*, 3> place_{};
  QDoubleSpinBox* yaw_ = nullptr;
  QSpinBox* yaw_steps_ = nullptr;
  QPushButton* from_object_ = nullptr;
  QPushButton* move_in_view_ = nullptr;
  QComboBox* gripper_ = nullptr;
  QDoubleSpinBox *opening_ = nullptr, *finger_depth_ = nullptr, *approach_ = nullptr,
                 *lift_ = nullptr;
  QLineEdit* touch_links_ = nullptr;
  QPushButton *plan_ = nullptr, *cancel_ = nullptr, *apply_ = nullptr;
  QString plan_tip_;
  QLabel* reason_ = nullptr;
  ResultLabel* status_ = nullptr;
  QTableWidget* stages_ = nullptr;
  std::vector<QWidget*> inputs_;  // disabled while planning or when there is nothing to plan
};

}  // namespace kinetic::panels
