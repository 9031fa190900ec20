#pragma once
// The planning and trajectory features of the studio: the Planner and Trajectories docks and the
// glue between them, the document and the workers (plan worker, playback, Plan & Execute's wait
// for the playback's end, recorder, background timing / blending / validation), and the planning
// group chosen. install_planning_features() adds them to a main window.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <optional>
#include <string>

#include "app/planning/plan_request.hpp"
#include "app/planning/validation_status.hpp"
#include "app/workers/newest_wins_worker.hpp"

class QDockWidget;
class QMainWindow;

namespace kinetic::panels {
class PlannerPanel;
class TrajectoryPanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class PlanExecution;
class PlanWorker;
class PlaybackController;
class StudioDocument;
class TrajectoryRecorder;

class PlanningFeatures : public QObject {
  Q_OBJECT
 public:
  PlanningFeatures(QMainWindow& window, StudioDocument& document);
  ~PlanningFeatures() override;

  panels::PlannerPanel* planner_panel() const { return planner_panel_; }
  panels::TrajectoryPanel* trajectory_panel() const { return trajectory_panel_; }
  QDockWidget* planner_dock() const { return planner_dock_; }
  QDockWidget* trajectories_dock() const { return trajectories_dock_; }
  PlanWorker& plan_worker() const { return *plan_worker_; }
  PlaybackController& playback() const { return *playback_; }
  PlanExecution& execution() const { return *execution_; }
  TrajectoryRecorder& recorder() const { return *recorder_; }
  // Plan click to the new trajectory playing, of the last successful plan (ms; < 0 before any).
  double last_plan_to_playback_ms() const { return last_latency_ms_; }

  // Makes trajectory `index` the current one and plays it from the start, as a new plan does, with
  // its TCP trail shown (the document's shown trajectory): the Task panel's result.
  void show_and_play(int index);

  // The planning group chosen in the Planner panel ("" when the robot has none), and as the engine
  // takes it: "" for the robot's first (the engine's default).
  QString planning_group() const;
  std::string engine_group() const;

  // What is known of trajectory `index`'s validity in the current scene (its report, if current).
  ValidationStatus validation_status(int index) const;

  // Each returns an empty string on success, else the message also shown in the panel.
  QString export_trajectory(int index, const QString& path);
  QString import_trajectory(const QString& path);

 public slots:
  void toggle_play();  // Space
  // Records the document's joints with the Trajectories panel's rate and timing (its Record).
  void set_recording(bool on);
  void play_pause() { toggle_play(); }
  void plan();         // with the planner panel's settings
  // MoveIt's Plan & Execute: plan() from the current state and, when the plan validates, play it
  // and move the robot to its end once the playback gets there (one undo step).
  void plan_and_execute();
  void cancel_plan();
  void retime(int index);
  // "Robot here" / "Robot to end": the current state (and the world, for a pick and place) as
  // trajectory `index` has them at `t`; one undo step. False (and said why) when it cannot.
  bool move_robot_to(int index, double t);
  void blend(const QList<int>& indices);
  void validate(int index);

 signals:
  void planFinished(const kinetic::app::PlanOutcome& outcome);
  // The planning group changed (chosen, a robot loaded, a session opened): `engine_group` as the
  // engine takes it, "" for the robot's first. The goal gizmo and the TCP trail follow it.
  void planningGroupChanged(const QString& engine_group);
  // A planned trajectory started playing, `latency_ms` after its Plan click.
  void planPlaying(double latency_ms);
  // Re-time, blend, validation, import finished (error empty on success).
  void taskFinished(const QString& what, const QString& error);

 private:
  void connect_document();
  void connect_planner_panel();
  void connect_trajectory_panel();
  void submit_plan(bool execute);
  void on_plan_finished(const PlanOutcome& outcome);
  // Why a plan asked for with Plan & Execute is not executed ("" when it is).
  QString execution_refusal(const PlanOutcome& outcome) const;
  void refresh_trajectories();
  void refresh_robot();
  // A robot opened (not reloaded) whose MoveIt config sets default scaling factors: the panel's
  // velocity and acceleration scaling take them, as RViz's planning panel starts from them.
  void take_default_scaling(const RobotModelPtr& robot);
  // The closed-form IK offer and the TCP speed plot for the chosen group; planningGroupChanged.
  void apply_group();
  // A status message when a session's group (`asked`, "" for none) could not be chosen as is.
  void report_group_fallback(const QString& asked);
  void show_current(int index);
  void update_shown();
  TimingSettings panel_timing() const;
  // The shown trajectory's report, or why there is none; and the list's marks.
  void show_validation();
  void refresh_marks();
  // Keeps `report` for a trajectory validated in scene revision `revision`, and shows it if the
  // trajectory is the one shown.
  void record_validation(const Trajectory& trajectory, const std::vector<SceneChange>& scene_changes,
                         const TrajectoryValidationReport& report, quint64 revision);

  StudioDocument& document_;
  panels::PlannerPanel* planner_panel_ = nullptr;
  panels::TrajectoryPanel* trajectory_panel_ = nullptr;
  QDockWidget *planner_dock_ = nullptr, *trajectories_dock_ = nullptr;
  PlanWorker* plan_worker_ = nullptr;
  PlaybackController* playback_ = nullptr;
  PlanExecution* execution_ = nullptr;
  std::optional<quint64> execute_request_;  // the plan worker's id of a Plan & Execute request
  TrajectoryRecorder* recorder_ = nullptr;
  // Newest request wins per kind of work: a second re-time replaces the first, never a validation.
  NewestWinsWorker retiming_{QStringLiteral("re-timing")};
  NewestWinsWorker blending_{QStringLiteral("blending")};
  NewestWinsWorker validating_{QStringLiteral("validation")};
  quint64 scene_revision_ = 1;  // bumped by every scene edit and robot change: reports go stale
  quint64 plan_revision_ = 0;   // scene_revision_ when the running plan was asked for
  ValidationStatuses validations_;
  int plan_count_ = 0;
  std::optional<JointVector> previous_goal_;
  std::string opened_robot_;  // the source path (or name) of the robot whose defaults were taken
  quint64 plan_work_ = 0;  // the document's work_generation() when the running plan was asked for
  // The trajectory the last plan added, as it was added: "Replace last" replaces it only while the
  // list still holds it unchanged (not renamed, re-timed in place or removed).
  struct AddedPlan {
    int index = -1;
    QString name;
    Trajectory trajectory;
  };
  std::optional<AddedPlan> last_plan_;
  int add_or_replace_plan(const QString& name, const Trajectory& trajectory);
  QElapsedTimer plan_clock_;
  double last_latency_ms_ = -1.0;
};

// Creates the docks and the glue, parented to the window; returns the controller (its
// toggle_play() slot is what a Space shortcut should call).
PlanningFeatures* install_planning_features(QMainWindow& window, StudioDocument& document);

}  // namespace kinetic::app
