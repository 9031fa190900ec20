#pragma once
// Planner panel: planner choice (the engine's planners and Cartesian straight-line moves), a
// preset that fills every option, every option editable, an optional "keep TCP orientation" path
// constraint, goal type and start state, the time parameterization of the result, Plan / Cancel
// with progress, and the result or the failure (why, and the likely fix). It shows and reports;
// the studio runs the planner.
#include <QString>
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <optional>

#include "engine/planning/planner_options.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;

namespace kinetic::panels {

enum class PlanGoalType { Joints, TcpPose, Named };
enum class PlanStartType { Current, Named, RandomValid, PreviousGoal };

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
  void apply_preset(const QString& name);           // "default" | "realtime" | "offline"
  bool cartesian() const;
  // "RRT-Connect", ..., "Cartesian"; with the orientation kept, what runs then:
  // "RRT-Connect, TCP orientation kept within 5.0°".
  QString planner_label() const;
  bool random_seed() const;       // the seed field is empty
  // Radians, when "Keep TCP orientation" is checked and applies (not in Cartesian mode).
  std::optional<double> keep_orientation_tolerance() const;

  void set_named_poses(const QStringList& names);
  PlanGoalType goal_type() const;
  QString goal_name() const;
  PlanStartType start_type() const;
  QString start_name() const;
  void set_goal_available(bool joints, bool tcp_pose);  // what the document's goal has

  QString timing_key() const;  // "time_optimal" | "trapezoidal" | "scurve" | "cubic_spline"
  double velocity_scaling() const;
  double acceleration_scaling() const;

  void set_running(bool running);
  void set_progress(const QString& phase, double elapsed_ms, int iterations, int tree_size);
  void show_result(const PlanSummary& summary);
  void show_failure(const QString& why, const QString& fix);
  void show_message(const QString& text);

  // Test access.
  QComboBox* planner_combo() const { return planner_; }
  QComboBox* preset_combo() const { return preset_; }
  QComboBox* goal_combo() const { return goal_type_; }
  QComboBox* start_combo() const { return start_type_; }
  QComboBox* timing_combo() const { return timing_; }
  QDoubleSpinBox* timeout_box() const { return timeout_; }
  QSpinBox* iterations_box() const { return iterations_; }
  QDoubleSpinBox* margin_box() const { return margin_; }
  QSpinBox* shortcut_box() const { return shortcut_; }
  QCheckBox* smoothing_box() const { return smoothing_; }
  QCheckBox* keep_orientation_box() const { return keep_orientation_; }
  QDoubleSpinBox* orientation_tolerance_box() const { return orientation_tolerance_; }
  QLineEdit* seed_edit() const { return seed_; }
  QPushButton* plan_button() const { return plan_; }
  QPushButton* cancel_button() const { return cancel_; }
  QProgressBar* progress_bar() const { return progress_; }
  QLabel* result_label() const { return result_; }

 signals:
  void planRequested();
  void cancelRequested();

 private:
  void update_enabled();

  QComboBox *planner_, *preset_, *goal_type_, *goal_name_, *start_type_, *start_name_, *timing_;
  QDoubleSpinBox *timeout_, *margin_, *resolution_, *range_, *refine_, *velocity_, *acceleration_;
  QSpinBox *iterations_, *shortcut_, *smoothing_passes_, *neighbors_, *ik_attempts_;
  QCheckBox* smoothing_;
  QCheckBox* workspace_;
  QDoubleSpinBox* workspace_min_[3] = {};
  QDoubleSpinBox* workspace_max_[3] = {};
  QCheckBox* keep_orientation_;
  QDoubleSpinBox* orientation_tolerance_;  // degrees
  QLineEdit* seed_;
  QPushButton *plan_, *cancel_;
  QProgressBar* progress_;
  QLabel* result_;
  bool goal_joints_ = false, goal_pose_ = false, running_ = false;
};

}  // namespace kinetic::panels
