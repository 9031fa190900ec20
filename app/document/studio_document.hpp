#pragma once
// StudioDocument: the session a user works on — robot, current joint state, planning scene, goal,
// the selected scene object, the list of named trajectories and the user's stored states. Panels
// edit it; views listen to its change signals.
//
// Two kinds of setters: set_* change the value and emit the signal (used by loading, undo/redo and
// programmatic updates); edit_* do the same through the undo stack, so a user's edit can be undone
// (a drag in the 3D view is one undo step, see begin_gesture; other consecutive edits of the same
// kind merge while they come less than 800 ms apart).
#include <QObject>
#include <QString>
#include <QStringList>
#include <QUndoStack>
#include <functional>
#include <optional>
#include <vector>

#include "app/document/robot_preparation.hpp"
#include "app/document/scene_change.hpp"
#include "engine/model/robot_companions.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"
#include "engine/trajectory/trajectory.hpp"
#include "panels/planner_settings.hpp"
#include "panels/retime_settings.hpp"
#include "panels/stored_state.hpp"
#include "panels/task_settings.hpp"

namespace kinetic::app {

struct NamedTrajectory {
  QString name;
  Trajectory trajectory;
  // Where the motion changes the world (a pick and place: the object held, then put down), in
  // time order; empty for a plain motion, which runs in the document's scene.
  std::vector<SceneChange> scene_changes;
};

// The goal the planner aims at: joint values, and (when set from the gizmo or typed) the TCP pose
// those joints were solved for.
struct GoalState {
  std::optional<JointVector> joints;
  std::optional<Pose> tcp_pose;
  // The SRDF end effector tcp_pose is for, where the planning group is not one chain (a hand of
  // two arms: PoseGoal::end_effector); "" = the group's own chain.
  std::string end_effector{};
  bool empty() const { return !joints && !tcp_pose; }
};

class StudioDocument : public QObject {
  Q_OBJECT
 public:
  explicit StudioDocument(QObject* parent = nullptr);

  RobotModelPtr robot() const { return robot_; }
  // A count of the pieces of work this document has held: a session opened or a new one started
  // counts one more (workReplaced). A plan or task that finishes under another count was asked
  // for by the work before and is not added to this one.
  quint64 work_generation() const { return work_generation_; }
  void start_new_work();
  const JointVector& joints() const { return joints_; }
  // What the robot was loaded from, to reload it: a built-in name or a URDF path, with the
  // SRDF, kinetic.toml ("" for none, whether named or found) and package paths it was loaded with.
  const QString& robot_reference() const { return robot_reference_; }
  const QString& robot_srdf() const { return robot_srdf_; }
  const QString& robot_config() const { return robot_config_; }
  const QStringList& package_paths() const { return package_paths_; }
  // For messages: whether the robot came from a URDF file, what load_robot was asked for its SRDF
  // and kinetic.toml, and what the search beside the URDF found (empty where a file was named).
  bool robot_is_file() const { return robot_is_file_; }
  const std::optional<QString>& srdf_choice() const { return srdf_choice_; }
  const std::optional<QString>& config_choice() const { return config_choice_; }
  const RobotCompanions& companions_found() const { return companions_found_; }

  // Loads a built-in robot by name or a URDF file. For a URDF, srdf and config each say which file
  // comes with it: std::nullopt takes the one find_robot_companions finds (none when there is
  // none), "" loads none, a path loads that file; a built-in robot has its own. On failure the
  // current robot stays and the error message is returned (empty on success). Another robot opens
  // in its own rest pose (rest_pose: its named rest pose, else zeros unless they self-collide),
  // whatever joint names it shares with the one before, and with no goal; a reload (the same file
  // or built-in name: same_robot_reference) keeps the values of the joints that still exist. Clears
  // the undo history, except on a reload of the same joints and links.
  // It is prepare_robot (on this thread) and install_robot in one call.
  QString load_robot(const QString& reference, const std::optional<QString>& srdf = std::nullopt,
                     const std::optional<QString>& config = std::nullopt,
                     const QStringList& package_paths = {});
  // Installs a robot prepared (maybe on another thread) by prepare_robot, with the same signals
  // and rules as load_robot; returns prepared.error and changes nothing when it failed. A rest
  // pose it lacks (another robot was installed since it was prepared) is made here.
  QString install_robot(const PreparedRobot& prepared);
  // Reloads from robot_reference() with the same choices (a file found before is looked for
  // again) and paths.
  QString reload_robot();

  // A gesture: a drag in the 3D view from press to release, and the IK answers it is still owed
  // after. All its edits of one kind are one undo step however long it takes, and no edit before
  // or after merges into that step. Gestures nest (the view's drag and the goal's answers); the
  // outermost end closes it.
  void begin_gesture();
  void end_gesture();

  // Joint state. set_joints ignores vectors of the wrong size.
  void set_joints(const JointVector& q);
  void edit_joints(const JointVector& q, const QString& what = tr("Move joints"));

  // Planning scene (obstacles, attached objects, allowed pairs).
  const PlanningScene& scene() const { return scene_; }
  void set_scene(const PlanningScene& scene);
  void edit_scene(const PlanningScene& scene, const QString& what);

  // Selected scene object name (an obstacle or attached object); empty for none.
  const QString& selected_object() const { return selected_object_; }
  void set_selected_object(const QString& name);

  const GoalState& goal() const { return goal_; }
  void set_goal(const GoalState& goal);
  void edit_goal(const GoalState& goal, const QString& what = tr("Move goal"));

  // Named trajectories (planned, recorded, imported). Indices are positions in the list.
  const std::vector<NamedTrajectory>& trajectories() const { return trajectories_; }
  void set_trajectories(const std::vector<NamedTrajectory>& trajectories);
  void edit_trajectories(const std::vector<NamedTrajectory>& trajectories, const QString& what);
  // Undoable conveniences; a name already in use gets a " (2)" suffix. Returns the index.
  int add_trajectory(const QString& name, const Trajectory& trajectory,
                     const std::vector<SceneChange>& scene_changes = {});
  QString unique_trajectory_name(const QString& wanted) const;

  // The user's stored states: named joint configurations, by joint name. They stay whatever robot
  // is loaded (a reload keeps them; one that no longer fits stays listed, and applying it says
  // why it cannot); a session file drops those that do not fit the robot it opens.
  const std::vector<panels::StoredState>& stored_states() const { return stored_states_; }
  void set_stored_states(const std::vector<panels::StoredState>& states);
  void edit_stored_states(const std::vector<panels::StoredState>& states, const QString& what);
  // Undoable, one step each. store_state puts the state in place of one of the same name, else
  // adds it at the end. rename refuses an empty name or one in use; rename and delete return
  // false (and change nothing) when no state has that name.
  void store_state(const panels::StoredState& state);
  bool rename_stored_state(const QString& from, const QString& to);
  bool delete_stored_state(const QString& name);

  // Joints shown by trajectory playback (a ghost over the current state); empty when not playing.
  const std::optional<JointVector>& playback_joints() const { return playback_joints_; }
  void set_playback_joints(const std::optional<JointVector>& q);
  // The world at the playhead of a trajectory with scene changes (drawn instead of scene(), its
  // attached objects on the playback ghost); empty otherwise.
  const std::optional<PlanningScene>& playback_scene() const { return playback_scene_; }
  void set_playback_scene(const std::optional<PlanningScene>& scene);

  // The trajectory the viewport shows (its TCP trail; ghosts along it when stroboscope is on);
  // -1 for none. Kept valid when trajectories are removed.
  int shown_trajectory() const { return shown_trajectory_; }
  bool stroboscope() const { return stroboscope_; }
  void set_shown_trajectory(int index, bool stroboscope = false);

  // The Planner panel's settings, saved with the session (not undo steps, and not a change that
  // asks to be saved: they are how to plan, not the work). set_ keeps the panel's edits; load_
  // replaces them from a session and emits plannerSettingsLoaded for the panel to show them.
  const std::optional<panels::PlannerSettings>& planner_settings() const {
    return planner_settings_;
  }
  void set_planner_settings(const panels::PlannerSettings& settings) {
    planner_settings_ = settings;
  }
  void load_planner_settings(const panels::PlannerSettings& settings);
  // The Trajectories panel's re-time settings, kept the same way (retimeSettingsLoaded on load_).
  const std::optional<panels::RetimeSettings>& retime_settings() const { return retime_settings_; }
  void set_retime_settings(const panels::RetimeSettings& settings) { retime_settings_ = settings; }
  void load_retime_settings(const panels::RetimeSettings& settings);
  // The Task panel's setup, kept the same way. It is about the session's scene, not a preference:
  // a session without one loads std::nullopt, and the panel goes back to its defaults
  // (taskSettingsLoaded on every load_).
  const std::optional<panels::TaskSettings>& task_settings() const { return task_settings_; }
  void set_task_settings(const panels::TaskSettings& settings) { task_settings_ = settings; }
  void load_task_settings(const std::optional<panels::TaskSettings>& settings);

  QUndoStack& undo_stack() { return undo_stack_; }

 signals:
  void workReplaced();
  void robotChanged();
  void jointsChanged();
  void sceneChanged();
  void selectionChanged();
  void goalChanged();
  void trajectoriesChanged();
  void storedStatesChanged();
  void playbackChanged();
  void playbackSceneChanged();
  void shownTrajectoryChanged();
  void plannerSettingsLoaded();
  void retimeSettingsLoaded();
  void taskSettingsLoaded();

 private:
  quint64 work_generation_ = 0;
  RobotModelPtr robot_;
  JointVector joints_;
  QString robot_reference_, robot_srdf_, robot_config_;
  QStringList package_paths_;
  bool robot_is_file_ = false;
  std::optional<QString> srdf_choice_, config_choice_;
  RobotCompanions companions_found_;
  PlanningScene scene_;
  QString selected_object_;
  GoalState goal_;
  std::vector<NamedTrajectory> trajectories_;
  std::vector<panels::StoredState> stored_states_;
  std::optional<JointVector> playback_joints_;
  std::optional<PlanningScene> playback_scene_;
  int shown_trajectory_ = -1;
  bool stroboscope_ = false;
  std::optional<panels::PlannerSettings> planner_settings_;
  std::optional<panels::RetimeSettings> retime_settings_;
  std::optional<panels::TaskSettings> task_settings_;
  QUndoStack undo_stack_;
  int gesture_depth_ = 0;
  quint64 gestures_begun_ = 0;  // the open gesture's number while gesture_depth_ > 0
  quint64 open_gesture() const { return gesture_depth_ > 0 ? gestures_begun_ : 0; }
};

// Calls `changed` on every change to what a session file stores (robot, joints, scene, goal,
// trajectories, stored states; not the selection or playback), for as long as `context` lives.
void on_session_content_changed(StudioDocument& document, QObject* context,
                                const std::function<void()>& changed);

}  // namespace kinetic::app
