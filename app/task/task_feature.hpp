#pragma once
// The Task dock: the Task panel, its worker and the glue between them and the document. Plan
// takes a snapshot of the document (robot, scene, current joints), the Planner panel's options
// and its Cartesian step settings (for the straight stages), and plans + times the pick and place
// on the worker; a success is added to the Trajectories list as "Pick <object>" with its scene
// changes and played. Apply moves the robot to where the task ends and the object to its place,
// as one undo step. While the dock is shown, the place target (the chosen object at the place
// pose) is offered to the 3D view, whose gizmo moves it while the panel's Move in 3D view is on.
// The panel's setup is the document's task_settings(), which sessions save and restore.
// install_task_feature() adds the dock on the right; the caller lists it in the View menu.
#include <QObject>
#include <optional>

#include "app/task/task_request.hpp"

class QDockWidget;
class QMainWindow;

namespace kinetic::panels {
class TaskPanel;
}

namespace kinetic::app {

class PlaceTarget;
class PlanningFeatures;
class StudioDocument;
class TaskWorker;
class TrajectoryFeatures;

class TaskFeature : public QObject {
  Q_OBJECT
 public:
  TaskFeature(QMainWindow& window, StudioDocument& document, PlanningFeatures& planning,
              TrajectoryFeatures& trajectories);
  ~TaskFeature() override;

  QDockWidget* dock() const { return dock_; }
  panels::TaskPanel* panel() const { return panel_; }
  TaskWorker& worker() const { return *worker_; }
  PlaceTarget& place_target() const { return *place_target_; }

 public slots:
  void plan();
  void cancel();
  void apply();

 signals:
  // Every answer of the worker that was not replaced by a newer request (tests wait for it).
  void taskFinished(const kinetic::app::TaskOutcome& outcome);

 private:
  void connect_settings();
  void refresh_robot();
  void refresh_objects();
  // The marker follows the panel: the chosen object's shape at the place pose it would plan with.
  void refresh_marker();
  void on_finished(const TaskOutcome& outcome);
  void show_success(const TaskOutcome& outcome);

  StudioDocument& document_;
  PlanningFeatures& planning_;
  TrajectoryFeatures& trajectories_;
  QDockWidget* dock_ = nullptr;
  panels::TaskPanel* panel_ = nullptr;
  TaskWorker* worker_ = nullptr;
  PlaceTarget* place_target_ = nullptr;
  bool dock_shown_ = false;
  quint64 scene_revision_ = 0;    // counts the document's scene and robot changes
  quint64 planned_revision_ = 0;  // of the running request
  quint64 planned_work_ =
      0;  // the document's work_generation() when the running task was asked for
  // What Apply does: the last success, while the document's scene is still the one it was planned
  // in.
  struct Applicable {
    QString object;
    PlanningScene final_scene;
    JointVector final_joints;  // model order
  };
  std::optional<Applicable> applicable_;
};

TaskFeature* install_task_feature(QMainWindow& window, StudioDocument& document,
                                  PlanningFeatures& planning, TrajectoryFeatures& trajectories);

}  // namespace kinetic::app
