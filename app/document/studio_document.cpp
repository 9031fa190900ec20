#include "app/document/studio_document.hpp"

#include <algorithm>
#include <exception>

#include "app/document/document_commands.hpp"
#include "app/document/robot_reference.hpp"
#include "engine/planning/rest_pose.hpp"

namespace kinetic::app {

namespace {
// The same moving joints in the same order and the same links: joint vectors, goals and scenes
// (attached objects name links) made for one robot mean the same for the other.
bool same_structure(const RobotModel& a, const RobotModel& b) {
  if (a.variable_names() != b.variable_names() || a.links().size() != b.links().size())
    return false;
  for (std::size_t i = 0; i < a.links().size(); ++i)
    if (a.links()[i].name != b.links()[i].name) return false;
  return true;
}

// The robot a load of `reference` replaces when it is a reload (the same file or built-in robot),
// whose pose it keeps; null when another robot is loaded, which opens in its own rest pose.
RobotModelPtr robot_being_reloaded(const RobotModelPtr& current, const QString& current_reference,
                                   const QString& reference) {
  return same_robot_reference(reference, current_reference) ? current : nullptr;
}
}  // namespace

StudioDocument::StudioDocument(QObject* parent) : QObject(parent) {}

void StudioDocument::start_new_work() {
  ++work_generation_;
  emit workReplaced();
}

QString StudioDocument::load_robot(const QString& reference, const std::optional<QString>& srdf,
                                   const std::optional<QString>& config,
                                   const QStringList& package_paths) {
  return install_robot(prepare_robot({reference, srdf, config, package_paths},
                                     robot_being_reloaded(robot_, robot_reference_, reference)));
}

QString StudioDocument::install_robot(const PreparedRobot& prepared) {
  if (!prepared.robot) return prepared.error;
  const RobotModelPtr& robot = prepared.robot;
  // A reload keeps the values of the joints that still exist, the others start in the robot's rest
  // pose; another robot opens in its own, also where its joints have the same names ("joint1").
  const RobotModelPtr reloaded =
      robot_being_reloaded(robot_, robot_reference_, prepared.request.reference);
  const std::vector<int> old_variable = carried_variables(*robot, reloaded.get());
  JointVector q = JointVector::Zero(robot->dof());
  if (!keeps_all_joints(*robot, reloaded.get())) {
    try {
      q = prepared.rest ? *prepared.rest : rest_pose(robot).q;
    } catch (const std::exception& error) {
      return QString::fromUtf8(error.what());
    }
  }
  for (int v = 0; v < robot->dof(); ++v)
    if (old_variable[size_t(v)] >= 0) q[v] = joints_[old_variable[size_t(v)]];
  if (reloaded) q = robot->clamp_to_limits(q);
  // Goals and undo steps mean the same only for the robot reloaded (another robot with the same
  // joint names is still another robot).
  const bool same_joints = reloaded && reloaded->dof() == robot->dof();
  const bool keeps_history = reloaded && same_structure(*reloaded, *robot);
  robot_ = robot;
  joints_ = q;
  const RobotLoadRequest& request = prepared.request;
  robot_reference_ = request.reference;
  robot_srdf_ = prepared.srdf_file;
  robot_config_ = prepared.config_file;
  package_paths_ = request.package_paths;
  robot_is_file_ = prepared.is_file;
  srdf_choice_ = request.srdf;
  config_choice_ = request.config;
  companions_found_ = prepared.found;
  // Undo steps and goals refer to the old robot's joints and links. A reload of the same robot
  // (F5, a file saved beside it, the generated collision matrix) keeps them: the same joints in
  // the same order and the same links, so every stored value still means what it meant.
  if (!keeps_history) undo_stack_.clear();
  if (!same_joints || (goal_.joints && goal_.joints->size() != robot_->dof())) goal_ = {};
  playback_joints_.reset();
  playback_scene_.reset();
  emit robotChanged();
  emit jointsChanged();
  emit goalChanged();
  emit playbackChanged();
  emit playbackSceneChanged();
  return {};
}

QString StudioDocument::reload_robot() {
  if (robot_reference_.isEmpty()) return tr("No robot to reload.");
  return load_robot(robot_reference_, srdf_choice_, config_choice_, package_paths_);
}

void StudioDocument::begin_gesture() {
  if (gesture_depth_++ == 0) ++gestures_begun_;
}

void StudioDocument::end_gesture() {
  if (gesture_depth_ > 0) --gesture_depth_;
}

void StudioDocument::set_joints(const JointVector& q) {
  if (!robot_ || q.size() != robot_->dof()) return;
  joints_ = q;
  emit jointsChanged();
}

void StudioDocument::edit_joints(const JointVector& q, const QString& what) {
  if (!robot_ || q.size() != robot_->dof()) return;
  undo_stack_.push(new ValueEditCommand<JointVector>(
      EditKind::Joints, what, joints_, q, [this](const JointVector& v) { set_joints(v); }, true,
      open_gesture()));
}

void StudioDocument::set_scene(const PlanningScene& scene) {
  scene_ = scene;
  const std::string selected = selected_object_.toStdString();
  if (!selected.empty() && !scene_.has_obstacle(selected) && !scene_.has_attached(selected))
    set_selected_object({});
  emit sceneChanged();
}

void StudioDocument::edit_scene(const PlanningScene& scene, const QString& what) {
  undo_stack_.push(new ValueEditCommand<PlanningScene>(
      EditKind::Scene, what, scene_, scene, [this](const PlanningScene& s) { set_scene(s); }, true,
      open_gesture()));
}

void StudioDocument::set_selected_object(const QString& name) {
  if (name == selected_object_) return;
  selected_object_ = name;
  emit selectionChanged();
}

void StudioDocument::set_goal(const GoalState& goal) {
  goal_ = goal;
  emit goalChanged();
}

void StudioDocument::edit_goal(const GoalState& goal, const QString& what) {
  undo_stack_.push(new ValueEditCommand<GoalState>(
      EditKind::Goal, what, goal_, goal, [this](const GoalState& g) { set_goal(g); }, true,
      open_gesture()));
}

void StudioDocument::set_trajectories(const std::vector<NamedTrajectory>& trajectories) {
  trajectories_ = trajectories;
  emit trajectoriesChanged();
  if (shown_trajectory_ >= static_cast<int>(trajectories_.size()))
    set_shown_trajectory(-1, stroboscope_);
}

void StudioDocument::edit_trajectories(const std::vector<NamedTrajectory>& trajectories,
                                       const QString& what) {
  undo_stack_.push(new ValueEditCommand<std::vector<NamedTrajectory>>(
      EditKind::Trajectories, what, trajectories_, trajectories,
      [this](const std::vector<NamedTrajectory>& t) { set_trajectories(t); }, true,
      open_gesture()));
}

QString StudioDocument::unique_trajectory_name(const QString& wanted) const {
  const auto taken = [this](const QString& name) {
    return std::any_of(trajectories_.begin(), trajectories_.end(),
                       [&](const NamedTrajectory& t) { return t.name == name; });
  };
  if (!taken(wanted)) return wanted;
  for (int n = 2;; ++n) {
    const QString candidate = QStringLiteral("%1 (%2)").arg(wanted).arg(n);
    if (!taken(candidate)) return candidate;
  }
}

int StudioDocument::add_trajectory(const QString& name, const Trajectory& trajectory,
                                   const std::vector<SceneChange>& scene_changes) {
  std::vector<NamedTrajectory> next = trajectories_;
  next.push_back({unique_trajectory_name(name), trajectory, scene_changes});
  edit_trajectories(next, tr("Add trajectory"));
  return static_cast<int>(trajectories_.size()) - 1;
}

void StudioDocument::set_stored_states(const std::vector<panels::StoredState>& states) {
  stored_states_ = states;
  emit storedStatesChanged();
}

void StudioDocument::edit_stored_states(const std::vector<panels::StoredState>& states,
                                        const QString& what) {
  // A click each (Store, Rename, Delete): never merged, so Undo takes back one at a time.
  undo_stack_.push(new ValueEditCommand<std::vector<panels::StoredState>>(
      EditKind::StoredStates, what, stored_states_, states,
      [this](const std::vector<panels::StoredState>& s) { set_stored_states(s); }, false));
}

void StudioDocument::store_state(const panels::StoredState& state) {
  std::vector<panels::StoredState> next = stored_states_;
  const int index = panels::find_stored_state(next, state.name);
  if (index >= 0)
    next[static_cast<std::size_t>(index)] = state;
  else
    next.push_back(state);
  edit_stored_states(next, index >= 0 ? tr("Replace state '%1'").arg(state.name)
                                      : tr("Store state '%1'").arg(state.name));
}

bool StudioDocument::rename_stored_state(const QString& from, const QString& to) {
  const int index = panels::find_stored_state(stored_states_, from);
  if (index < 0 || to.trimmed().isEmpty() || panels::find_stored_state(stored_states_, to) >= 0)
    return false;
  std::vector<panels::StoredState> next = stored_states_;
  next[static_cast<std::size_t>(index)].name = to;
  edit_stored_states(next, tr("Rename state '%1' to '%2'").arg(from, to));
  return true;
}

bool StudioDocument::delete_stored_state(const QString& name) {
  const int index = panels::find_stored_state(stored_states_, name);
  if (index < 0) return false;
  std::vector<panels::StoredState> next = stored_states_;
  next.erase(next.begin() + index);
  edit_stored_states(next, tr("Delete state '%1'").arg(name));
  return true;
}

void StudioDocument::set_playback_joints(const std::optional<JointVector>& q) {
  playback_joints_ = q;
  emit playbackChanged();
}

void StudioDocument::set_playback_scene(const std::optional<PlanningScene>& scene) {
  if (!scene && !playback_scene_) return;
  playback_scene_ = scene;
  emit playbackSceneChanged();
}

void StudioDocument::set_shown_trajectory(int index, bool stroboscope) {
  if (index < -1 || index >= static_cast<int>(trajectories_.size())) index = -1;
  if (index == shown_trajectory_ && stroboscope == stroboscope_) return;
  shown_trajectory_ = index;
  stroboscope_ = stroboscope;
  emit shownTrajectoryChanged();
}

void on_session_content_changed(StudioDocument& document, QObject* context,
                                const std::function<void()>& changed) {
  for (const auto signal :
       {&StudioDocument::robotChanged, &StudioDocument::jointsChanged,
        &StudioDocument::sceneChanged, &StudioDocument::goalChanged,
        &StudioDocument::trajectoriesChanged, &StudioDocument::storedStatesChanged})
    QObject::connect(&document, signal, context, changed);
}

void StudioDocument::load_planner_settings(const panels::PlannerSettings& settings) {
  planner_settings_ = settings;
  emit plannerSettingsLoaded();
}

void StudioDocument::load_retime_settings(const panels::RetimeSettings& settings) {
  retime_settings_ = settings;
  emit retimeSettingsLoaded();
}

void StudioDocument::load_task_settings(const std::optional<panels::TaskSettings>& settings) {
  task_settings_ = settings;
  emit taskSettingsLoaded();
}

}  // namespace kinetic::app
