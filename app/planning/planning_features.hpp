#pragma once
// The Planner dock and its glue: the planning group chosen, Plan / Plan & Execute / Cancel on the
// plan worker, the plan's result in the panel, and Plan & Execute's wait for the playback's end
// (PlanExecution). Each new plan is handed to the Trajectories dock (TrajectoryFeatures::add_plan),
// which lists and plays it. install_planning_features() adds both docks to a main window.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <optional>
#include <string>

#include "app/planning/plan_request.hpp"

class QDockWidget;
class QMainWindow;

namespace kinetic::panels {
class PlannerPanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class PlanExecution;
class PlanWorker;
class StudioDocument;
class TrajectoryFeatures;

class PlanningFeatures : public QObject {
  Q_OBJECT
 public:
  // `trajectories` receives the plans and plays them; it outlives this (both are the window's).
  PlanningFeatures(QMainWindow& window, StudioDocument& document, TrajectoryFeatures& trajectories);
  ~PlanningFeatures() override;

  panels::PlannerPanel* planner_panel() const { return planner_panel_; }
  QDockWidget* planner_dock() const { return planner_dock_; }
  PlanWorker& plan_worker() const { return *plan_worker_; }
  PlanExecution& execution() const { return *execution_; }
  // The Trajectories dock the plans go to.
  TrajectoryFeatures& trajectories() const { return trajectories_; }
  // Plan click to the new trajectory playing, of the last successful plan (ms; < 0 before any).
  double last_plan_to_playback_ms() const { return last_latency_ms_; }

  // The planning group chosen in the Planner panel ("" when the robot has none), and as the engine
  // takes it: "" for the robot's first (the engine's default).
  QString planning_group() const;
  std::string engine_group() const;

 public slots:
  void plan();  // with the planner panel's settings
  // MoveIt's Plan & Execute: plan() from the current state and, when the plan validates, play it
  // and move the robot to its end once the playback gets there (one undo step).
  void plan_and_execute();
  void cancel_plan();

 signals:
  void planFinished(const kinetic::app::PlanOutcome& outcome);
  // The planning group changed (chosen, a robot loaded, a session opened): `engine_group` as the
  // engine takes it, "" for the robot's first. The goal gizmo and the TCP trail follow it.
  void planningGroupChanged(const QString& engine_group);
  // A planned trajectory started playing, `latency_ms` after its Plan click.
  void planPlaying(double latency_ms);

 private:
  void connect_document();
  void connect_planner_panel();
  void submit_plan(bool execute);
  void on_plan_finished(const PlanOutcome& outcome);
  // Why a plan asked for with Plan & Execute is not executed ("" when it is).
  QString execution_refusal(const PlanOutcome& outcome) const;
  void refresh_robot();
  // A robot opened (not reloaded) whose MoveIt config sets default scaling factors: the panel's
  // velocity and acceleration scaling take them, as RViz's planning panel starts from them.
  void take_default_scaling(const RobotModelPtr& robot);
  // The closed-form IK offer and the TCP speed plot for the chosen group; planningGroupChanged.
  void apply_group();
  // A status message when a session's group (`asked`, "" for none) could not be chosen as is.
  void report_group_fallback(const QString& asked);

  StudioDocument& document_;
  TrajectoryFeatures& trajectories_;
  panels::PlannerPanel* planner_panel_ = nullptr;
  QDockWidget* planner_dock_ = nullptr;
  PlanWorker* plan_worker_ = nullptr;
  PlanExecution* execution_ = nullptr;
  std::optional<quint64> execute_request_;  // the plan worker's id of a Plan & Execute request
  quint64 plan_revision_ =
      0;  // the trajectories' scene revision when the running plan was asked for
  int plan_count_ = 0;
  std::optional<JointVector> previous_goal_;
  std::string opened_robot_;  // the source path (or name) of the robot whose defaults were taken
  quint64 plan_work_ = 0;  // the document's work_generation() when the running plan was asked for
  QElapsedTimer plan_clock_;
  double last_latency_ms_ = -1.0;
};

// Creates the Planner and Trajectories docks and their glue, parented to the window, the planner
// handing its plans to the trajectories; returns the planner (its trajectories() has toggle_play(),
// what a Space shortcut should call).
PlanningFeatures* install_planning_features(QMainWindow& window, StudioDocument& document);

}  // namespace kinetic::app
