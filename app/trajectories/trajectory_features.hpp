#pragma once
// The Trajectories dock and its glue: the list of the document's trajectories, their playback,
// the recorder, background re-timing / blending / validation with the reports kept per trajectory,
// import and export, and "Robot here". The planner (app/planning) hands it new plans (add_plan())
// and follows the playhead's seeks (playheadMoved); it knows nothing of the planner.
#include <QList>
#include <QObject>
#include <QString>
#include <optional>
#include <string>

#include "app/trajectories/trajectory_timing.hpp"
#include "app/trajectories/validation_status.hpp"
#include "app/workers/newest_wins_worker.hpp"

class QDockWidget;
class QMainWindow;

namespace kinetic::panels {
class TrajectoryPanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class PlaybackController;
class StudioDocument;
class TrajectoryRecorder;

class TrajectoryFeatures : public QObject {
  Q_OBJECT
 public:
  // Makes the panel, the playback and the recorder; the dock comes with add_dock().
  TrajectoryFeatures(QMainWindow& window, StudioDocument& document);
  // Puts the Trajectories dock on the right of `window` (after the Planner's: the View menu lists
  // the docks in the order they were made).
  void add_dock(QMainWindow& window);

  panels::TrajectoryPanel* trajectory_panel() const { return trajectory_panel_; }
  QDockWidget* trajectories_dock() const { return trajectories_dock_; }
  PlaybackController& playback() const { return *playback_; }
  TrajectoryRecorder& recorder() const { return *recorder_; }

  // Makes trajectory `index` the current one and plays it from the start, as a new plan does, with
  // its TCP trail shown (the document's shown trajectory): the Task panel's result.
  void show_and_play(int index);

  // A new plan, validated (`report`) in scene revision `revision`: its report is kept before it
  // reaches the list, so it shows with it (stale if the scene was edited while planning). Added, or
  // put in place of the last plan when `replace_last` and the list still holds that one unchanged;
  // made current and played from the start. Returns its index.
  int add_plan(const QString& name, const Trajectory& trajectory,
               const TrajectoryValidationReport& report, quint64 revision, bool replace_last);

  // Bumped by every scene edit and robot change: the reports made before go stale.
  quint64 scene_revision() const { return scene_revision_; }

  // What is known of trajectory `index`'s validity in the current scene (its report, if current).
  ValidationStatus validation_status(int index) const;

  // Each returns an empty string on success, else the message also shown in the panel.
  QString export_trajectory(int index, const QString& path);
  QString import_trajectory(const QString& path);

  // The robot the trajectories are for changed its planning group (`engine_group`, "" for the
  // robot's first): the speed plot follows that group's TCP.
  void set_group(const QString& engine_group);

 public slots:
  void toggle_play();  // Space
  void play_pause() { toggle_play(); }
  // Records the document's joints with the Trajectories panel's rate and timing (its Record).
  void set_recording(bool on);
  void retime(int index);
  // "Robot here" / "Robot to end": the current state (and the world, for a pick and place) as
  // trajectory `index` has them at `t`; one undo step. False (and said why) when it cannot.
  bool move_robot_to(int index, double t);
  void blend(const QList<int>& indices);
  void validate(int index);

 signals:
  // Re-time, blend, validation, import finished (error empty on success).
  void taskFinished(const QString& what, const QString& error);
  // The user moved the playhead (before the playback seeks): the end it reaches then is not the
  // motion played.
  void playheadMoved();

 private:
  void connect_document();
  void connect_trajectory_panel();
  void refresh_trajectories();
  void show_current(int index);
  // Makes trajectory `index` current and selected, and plays it from the start.
  void play_from_start(int index);
  void update_shown();
  TimingSettings panel_timing() const;
  // The shown trajectory's report, or why there is none; and the list's marks.
  void show_validation();
  void refresh_marks();
  // Keeps `report` for a trajectory validated in scene revision `revision`, and shows it if the
  // trajectory is the one shown.
  void record_validation(const Trajectory& trajectory,
                         const std::vector<SceneChange>& scene_changes,
                         const TrajectoryValidationReport& report, quint64 revision);
  int add_or_replace_plan(const QString& name, const Trajectory& trajectory, bool replace_last);

  StudioDocument& document_;
  panels::TrajectoryPanel* trajectory_panel_ = nullptr;
  QDockWidget* trajectories_dock_ = nullptr;
  PlaybackController* playback_ = nullptr;
  TrajectoryRecorder* recorder_ = nullptr;
  // Newest request wins per kind of work: a second re-time replaces the first, never a validation.
  NewestWinsWorker retiming_{QStringLiteral("re-timing")};
  NewestWinsWorker blending_{QStringLiteral("blending")};
  NewestWinsWorker validating_{QStringLiteral("validation")};
  quint64 scene_revision_ = 1;
  ValidationStatuses validations_;
  // The trajectory the last plan added, as it was added: "Replace last" replaces it only while the
  // list still holds it unchanged (not renamed, re-timed in place or removed).
  struct AddedPlan {
    int index = -1;
    QString name;
    Trajectory trajectory;
  };
  std::optional<AddedPlan> last_plan_;
};

}  // namespace kinetic::app
