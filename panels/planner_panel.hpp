#pragma once
// Planner panel: the planning group, planner choice (the engine's planners and Cartesian
// straight-line moves), a preset that fills every option, every option editable, the Cartesian
// moves' step sizes, jump threshold, collision checking and closed-form IK, an optional "keep TCP
// orientation" path constraint, goal type and start state, the time parameterization of the
// result, Plan / Plan & Execute / Cancel with progress, and the result or the failure (why, and the
// likely fix). It shows and reports; the studio runs the planner.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <optional>

#include "engine/planning/cartesian_planner.hpp"
#include "engine/planning/planner_options.hpp"
#include "panels/planner_settings.hpp"
#include "panels/result_label.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QVBoxLayout;

namespace kinetic::panels {

enum class PlanGoalType { Joints, TcpPose, Named };
enum class PlanStartType { Current, Named, RandomValid, PreviousGoal };

// A planning group the Group combo lists; `unusable` says why the engine cannot plan it ("" when
// it can): such a group is listed, greyed out, with the reason as its tooltip. `joints_only` says
// why a group plans joint-space goals only (its joints form no single chain: two arms, an arm and
// its hand, MoveIt's usual groups): listed and usable, the reason in its tooltip.
struct PlanningGroupChoice {
  QString name;
  QString unusable;
  QString joints_only;
  // A group that is not one chain: its end effectors, whose poses can still be goals (one gizmo
  // each), e.g. "left_hand, right_hand".
  QString end_effectors;
};

// What the result area shows after a successful plan.
struct PlanSummary {
  QString planner;
  double time_ms = 0.0;
  int iterations = 0;
  int tree_size = 0;
  int waypoints = 0;
  double length_before = 0.0, length_after = 0.0;
  double duration = 0.0;  // s, of the timed trajectory
  std::uint64_t seed = 0;
  std::optional<double> cartesian_fraction;  // Cartesian mode
  QString cartesian_stop;                    // why it stopped short ("" when complete)
  QStringList notes;                         // margin reduced, raw path used, ...
  QString validation;                        // "ok" or the violations
};

class PlannerPanel : public QWidget {
  Q_OBJECT
 public:
  explicit PlannerPanel(QWidget* parent = nullptr);

  // Settings as edited. options() is the engine's; in Cartesian mode its planner field is unused.
  PlannerOptions options() const;
  void set_options(const PlannerOptions& options);  // fills every field (seed too)
  // "default" | "realtime" | "offline"; the combo says "custom" while the fields match none.
  void apply_preset(const QString& name);
  bool cartesian() const;
  // "RRT-Connect", ..., "Cartesian"; with the orientation kept, what runs then:
  // "RRT-Connect, TCP orientation kept within 5.0°".
  QString planner_label() const;
  bool random_seed() const;  // the seed field is empty
  // Radians, when "Keep TCP orientation" is checked and applies (not in Cartesian mode).
  std::optional<double> keep_orientation_tolerance() const;
  // The Cartesian settings in engine units (m, rad); closed_form_ik only where the robot has a
  // closed-form solver. Presets leave them alone; they start at the engine's defaults.
  CartesianOptions cartesian_options() const;
  void set_cartesian_options(const CartesianOptions& options);
  // Whether the loaded robot has a closed-form IK solver (UR, OPW): gates "Closed-form IK steps".
  void set_closed_form_ik_available(bool available);

  void set_named_poses(const QStringList& names);
  // The robot's planning groups, first = the default. The choice stays when the new list has it
  // (a reload), else the first usable group is chosen. With one group or none the combo is
  // disabled, its tooltip saying why. Does not emit groupChanged.
  void set_groups(const QList<PlanningGroupChoice>& groups);
  // The chosen group's name; "" when the robot has none (its whole chain plans).
  QString group() const;
  PlanGoalType goal_type() const;
  QString goal_name() const;
  PlanStartType start_type() const;
  QString start_name() const;
  // What the document's goal has. The Goal combo follows it and the planner: the kind the user
  // chose last where the planner can use it, else one it can (the Cartesian line: the TCP pose);
  // with none usable, the hint under the combo says what to do.
  void set_goal_available(bool joints, bool tcp_pose);

  QString timing_key() const;  // "time_optimal" | "trapezoidal" | "scurve" | "cubic_spline"
  double velocity_scaling() const;
  double acceleration_scaling() const;

  // Every setting at once (what a session keeps); set_settings() does not emit settingsEdited.
  // Values outside a box's range are clamped by the box; an unknown timing keeps the current one.
  PlannerSettings settings() const;
  void set_settings(const PlannerSettings& settings);

  void set_running(bool running);
  void set_progress(const QString& phase, double elapsed_ms, int iterations, int tree_size);
  void show_result(const PlanSummary& summary);
  void show_failure(const QString& why, const QString& fix);
  void show_message(const QString& text);
  // Whether the result shown is a failure (show_failure): it describes the state it was planned
  // from, and its owner replaces it once that state changes.
  bool showing_failure() const;

  // Test access.
  QComboBox* group_combo() const { return group_; }
  QComboBox* planner_combo() const { return planner_; }
  QComboBox* preset_combo() const { return preset_; }
  QComboBox* goal_combo() const { return goal_type_; }
  QComboBox* start_combo() const { return start_type_; }
  QComboBox* timing_combo() const { return timing_; }
  QDoubleSpinBox* velocity_box() const { return velocity_; }
  QDoubleSpinBox* timeout_box() const { return timeout_; }
  QSpinBox* iterations_box() const { return iterations_; }
  QDoubleSpinBox* margin_box() const { return margin_; }
  QSpinBox* shortcut_box() const { return shortcut_; }
  QCheckBox* smoothing_box() const { return smoothing_; }
  QCheckBox* keep_orientation_box() const { return keep_orientation_; }
  QCheckBox* replace_last_plan_box() const { return replace_last_plan_; }
  QDoubleSpinBox* orientation_tolerance_box() const { return orientation_tolerance_; }
  QLineEdit* seed_edit() const { return seed_; }
  QGroupBox* cartesian_group() const { return cartesian_group_; }
  QDoubleSpinBox* translation_step_box() const { return translation_step_; }
  QDoubleSpinBox* rotation_step_box() const { return rotation_step_; }
  QDoubleSpinBox* jump_threshold_box() const { return jump_threshold_; }
  QCheckBox* avoid_collisions_box() const { return avoid_collisions_; }
  QDoubleSpinBox* cartesian_margin_box() const { return cartesian_margin_; }
  QCheckBox* closed_form_ik_box() const { return closed_form_ik_; }
  QPushButton* plan_button() const { return plan_; }
  QPushButton* plan_execute_button() const { return plan_execute_; }
  QPushButton* cancel_button() const { return cancel_; }
  QLabel* goal_hint_label() const { return goal_hint_; }
  QProgressBar* progress_bar() const { return progress_; }
  ResultLabel* result_label() const { return result_; }

 signals:
  void planRequested();
  // Plan from the current state and, when the plan validates, play it and leave the robot at its
  // end.
  void planAndExecuteRequested();
  void cancelRequested();
  // The user chose another planning group (settingsEdited follows).
  void groupChanged();
  // A setting was changed in the panel (not by set_settings).
  void settingsEdited();

 private:
  // The constructor's sections, in order (the focus chain follows the order widgets are made).
  void build_group_row(QVBoxLayout& layout);  // the planning group
  QGroupBox* make_planner_group();            // the planner and its options
  void add_search_rows(QFormLayout& form);    // planner, preset, budget, margin, smoothing, seed…
  void add_constraint_rows(QFormLayout& form);  // workspace bounds, keep TCP orientation
  QGroupBox* make_cartesian_group();
  QGroupBox* make_states_group();           // start and goal
  QGroupBox* make_timing_group();           // the result's parameterization and scaling
  void build_run_area(QVBoxLayout& outer);  // Plan, Plan & Execute, Cancel, progress, result
  void connect_controls();
  void update_enabled();
  void update_cartesian_enabled();
  bool goal_type_usable(PlanGoalType type) const;
  void choose_goal_type();
  QString goal_problem() const;

  QComboBox *group_, *planner_, *preset_, *goal_type_, *goal_name_, *start_type_, *start_name_,
      *timing_;
  QDoubleSpinBox *timeout_, *margin_, *resolution_, *range_, *refine_, *velocity_, *acceleration_;
  QSpinBox *iterations_, *shortcut_, *smoothing_passes_, *neighbors_, *ik_attempts_;
  QCheckBox* smoothing_;
  QCheckBox* workspace_;
  QDoubleSpinBox* workspace_min_[3] = {};
  QDoubleSpinBox* workspace_max_[3] = {};
  QCheckBox* keep_orientation_;
  QCheckBox* replace_last_plan_ = nullptr;
  QDoubleSpinBox* orientation_tolerance_;  // degrees
  QLineEdit* seed_;
  QGroupBox* cartesian_group_;
  QDoubleSpinBox *translation_step_, *rotation_step_, *jump_threshold_,
      *cartesian_margin_;  // mm, mrad, rad, mm
  QCheckBox *avoid_collisions_, *closed_form_ik_;
  QPushButton *plan_, *plan_execute_, *cancel_;
  QProgressBar* progress_;
  ResultLabel* result_ = nullptr;
  QLabel* goal_hint_ = nullptr;
  void watch_settings();
  void refresh_preset_label();
  bool goal_joints_ = false, goal_pose_ = false, running_ = false,
       closed_form_ik_available_ = false;
  bool applying_settings_ = false;         // set_settings() is filling the boxes: no settingsEdited
  void select_group(const QString& name);  // when listed and usable, else the first usable group
  // The goal kind the user chose last (joints until they choose): what choose_goal_type() goes
  // back to when the planner and the goal allow it. choosing_goal_type_: the panel is switching.
  PlanGoalType preferred_goal_type_ = PlanGoalType::Joints;
  bool choosing_goal_type_ = false;
};

}  // namespace kinetic::panels
