#include "app/planning/planning_features.hpp"

#include <QCheckBox>
#include <QCoreApplication>
#include <QDockWidget>
#include <QFileInfo>
#include <QMainWindow>
#include <QRegularExpression>
#include <algorithm>

#include "app/trajectories/robot_at_trajectory_time.hpp"
#include "app/planning/plan_execution.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/trajectories/trajectory_check.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_recorder.hpp"
#include "app/viewport/scene_bridge/scene_visuals.hpp"
#include "app/document/studio_document.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/kinematics/group_end_effectors.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/opw_ik.hpp"
#include "engine/kinematics/ur_ik.hpp"
#include "engine/planning/state_diagnostics.hpp"
#include "engine/trajectory/blending.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "panels/planner_panel.hpp"
#include "panels/trajectory_panel.hpp"

namespace kinetic::app {

namespace {

QString error_text(const std::exception& error) { return QString::fromUtf8(error.what()); }

// The largest N of the trajectories named "plan N · …" (0 for none).
int highest_plan_number(const std::vector<NamedTrajectory>& trajectories) {
  static const QRegularExpression numbered(QStringLiteral("^plan (\\d+)\\b"));
  int highest = 0;
  for (const NamedTrajectory& t : trajectories)
    if (const QRegularExpressionMatch match = numbered.match(t.name); match.hasMatch())
      highest = std::max(highest, match.captured(1).toInt());
  return highest;
}

// The values of `group`'s variables in `q` (model order), in the order the engine plans them.
JointVector group_values(const RobotModel& robot, const std::string& group, const JointVector& q) {
  const std::vector<int> variables = robot.group_variables(group);
  JointVector values(static_cast<int>(variables.size()));
  for (std::size_t i = 0; i < variables.size(); ++i) values[static_cast<int>(i)] = q[variables[i]];
  return values;
}

// A re-timed or blended trajectory, its corners kept clear of obstacles, with its validation:
// made on a worker thread, so it has a status the moment it is added.
struct CheckedTiming {
  TrajectoryOrError timed;
  std::string corners_note;  // narrowed_corners_note(): "" when the blends were not narrowed
  std::vector<SceneChange> scene_changes;  // the source's, moved onto the new clock
  TrajectoryValidationReport report;
  QString validation_error;
};

// Validates `checked.timed` (when made) in `scene` / its scene changes.
void validate_checked(CheckedTiming& checked, const RobotModelPtr& robot, const PlanningScene& scene,
                      const JointVector& base) {
  if (!checked.timed.error.isEmpty()) return;
  try {
    checked.report = validate_in_scenes(robot, checked.timed.trajectory, scene, checked.scene_changes, base);
  } catch (const std::exception& error) {
    checked.validation_error = QString::fromUtf8(error.what());
  }
}

// "Re-timed 'a': 1.2 s (was 2 s)." plus what validation found and the narrowed-corners note.
QString checked_suffix(const CheckedTiming& checked) {
  QString text;
  if (!checked.corners_note.empty())
    text += QStringLiteral(" ") + QCoreApplication::translate("PlanningFeatures", "Time-optimal %1.")
                                      .arg(QString::fromStdString(checked.corners_note));
  if (!checked.validation_error.isEmpty())
    text += QStringLiteral(" ") +
            QCoreApplication::translate("PlanningFeatures", "Not validated: %1").arg(checked.validation_error);
  else if (!checked.report.ok())
    text += QStringLiteral(" ") + QCoreApplication::translate("PlanningFeatures", "%1 violation(s): see below.")
                                      .arg(checked.report.violations.size());
  return text;
}

// Whether "closed-form IK steps" can apply: the group's IK solver is a UR or OPW one, the solvers
// whose closed form the Cartesian steps use (cartesian_step_ik.cpp). group "": the default.
bool has_closed_form_ik(const RobotModelPtr& robot, const std::string& group) {
  if (!robot) return false;
  try {
    const IkSolverPtr solver = make_ik_solver(robot, group);
    return std::dynamic_pointer_cast<const UrIkSolver>(solver) || std::dynamic_pointer_cast<const OpwIkSolver>(solver);
  } catch (const std::exception&) {  // no usable solver: the steps are numeric
    return false;
  }
}

// The TCP the Trajectories panel's speed plot follows: the one the TCP trail traces (the chosen
// planning group's tip and TCP offset, where the goal gizmo sits; group "": the first).
panels::TcpPlotSource tcp_plot_source(const RobotModelPtr& robot, const std::string& group) {
  if (!robot) return {};
  try {
    const TcpFrame tcp = resolve_tcp_frame(*robot, group);
    return {robot, tcp.link, tcp.offset};
  } catch (const std::exception&) {  // no TCP: the plot says so
    return {robot, -1, Pose::Identity()};
  }
}

// The robot's planning groups for the Group combo. Any group with a movable joint plans joint-space
// goals; pose goals, IK and Cartesian lines need its chain, so a group that forms none (two arms,
// an arm and its hand) is listed for joint goals only, with the engine's reason.
QList<panels::PlanningGroupChoice> group_choices(const RobotModelPtr& robot) {
  QList<panels::PlanningGroupChoice> choices;
  if (!robot) return choices;
  for (const std::string& name : robot->group_names()) {
    panels::PlanningGroupChoice choice{QString::fromStdString(name), {}, {}, {}};
    try {
      if (robot->group_variables(name).empty())
        choice.unusable = QCoreApplication::translate("PlanningFeatures", "it has no movable joint");
    } catch (const std::exception& error) {
      choice.unusable = QString::fromUtf8(error.what());
    }
    if (choice.unusable.isEmpty()) {
      try {
        KinematicChain::from_config(robot, name);
      } catch (const std::exception& error) {
        choice.joints_only = QString::fromUtf8(error.what());
        QStringList effectors;
        for (const GroupEndEffector& ee : group_end_effectors(robot, robot->group_variables(name)))
          effectors << QString::fromStdString(ee.name);
        choice.end_effectors = effectors.join(QStringLiteral(", "));
      }
    }
    choices << choice;
  }
  return choices;
}

}  // namespace

PlanningFeatures* install_planning_features(QMainWindow& window, StudioDocument& document) {
  return new PlanningFeatures(window, document);
}

PlanningFeatures::PlanningFeatures(QMainWindow& window, StudioDocument& document)
    : QObject(&window), document_(document) {
  setObjectName(QStringLiteral("PlanningFeatures"));
  planner_panel_ = new panels::PlannerPanel;
  trajectory_panel_ = new panels::TrajectoryPanel;
  planner_dock_ = new QDockWidget(tr("Planner"), &window);
  planner_dock_->setObjectName(QStringLiteral("PlannerDock"));
  planner_dock_->setWidget(planner_panel_);
  trajectories_dock_ = new QDockWidget(tr("Trajectories"), &window);
  trajectories_dock_->setObjectName(QStringLiteral("TrajectoriesDock"));
  trajectories_dock_->setWidget(trajectory_panel_);
  window.addDockWidget(Qt::RightDockWidgetArea, planner_dock_);
  window.addDockWidget(Qt::RightDockWidgetArea, trajectories_dock_);
  planner_panel_->setMinimumWidth(320);
  trajectory_panel_->setMinimumWidth(360);

  plan_worker_ = new PlanWorker(this);
  playback_ = new PlaybackController(document_, this);
  execution_ = new PlanExecution(
      document_, *playback_, [this](int index, double t) { return move_robot_to(index, t); }, this);
  recorder_ = new TrajectoryRecorder(document_, this);

  connect_document();
  connect_planner_panel();
  connect_trajectory_panel();
  refresh_robot();
  refresh_trajectories();
  planner_panel_->set_goal_available(document_.goal().joints.has_value(), document_.goal().tcp_pose.has_value());
}

PlanningFeatures::~PlanningFeatures() { plan_worker_->cancel(); }

void PlanningFeatures::connect_document() {
  // Other work opened: a plan asked for by the old one is stopped (and dropped if it finishes),
  // and Replace last starts over.
  connect(&document_, &StudioDocument::workReplaced, this, [this] {
    plan_worker_->cancel();
    plan_count_ = 0;  // the new work's plans are counted from its own
    last_plan_.reset();
    previous_goal_.reset();
  });
  // A report holds for the scene and robot it checked against: any edit makes every one stale.
  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    ++scene_revision_;
    previous_goal_.reset();
    refresh_robot();
    refresh_marks();
    show_validation();
  });
  connect(&document_, &StudioDocument::sceneChanged, this, [this] {
    ++scene_revision_;
    refresh_marks();
    show_validation();
  });
  connect(&document_, &StudioDocument::goalChanged, this, [this] {
    planner_panel_->set_goal_available(document_.goal().joints.has_value(), document_.goal().tcp_pose.has_value());
  });
  connect(&document_, &StudioDocument::trajectoriesChanged, this, &PlanningFeatures::refresh_trajectories);
  // A failure describes the state it was planned from ("start state is in collision"): once the
  // robot, its joints, the goal or the scene change it is stale and gives way to a note.
  for (const auto signal : {&StudioDocument::robotChanged, &StudioDocument::jointsChanged,
                            &StudioDocument::goalChanged, &StudioDocument::sceneChanged})
    connect(&document_, signal, this, [this] {
      if (planner_panel_->showing_failure())
        planner_panel_->show_message(
            tr("The robot, the goal or the scene changed since planning failed: "
               "plan again to check this state."));
    });
}

void PlanningFeatures::refresh_robot() {
  const RobotModelPtr robot = document_.robot();
  QStringList names;
  if (robot)
    for (const std::string& name : robot->named_pose_names()) names << QString::fromStdString(name);
  planner_panel_->set_named_poses(names);
  planner_panel_->set_groups(group_choices(robot));
  if (robot) trajectory_panel_->set_limits(limits_for(*robot));
  take_default_scaling(robot);
  apply_group();
}

void PlanningFeatures::take_default_scaling(const RobotModelPtr& robot) {
  if (!robot) return;
  // A reload (F5, the file changed) keeps what the user set; only another robot starts afresh.
  const std::string opened = robot->source_path().empty() ? robot->name() : robot->source_path();
  if (opened == opened_robot_) return;
  opened_robot_ = opened;
  const RobotConfig& config = robot->config();
  if (config.default_velocity_scaling == 1.0 && config.default_acceleration_scaling == 1.0) return;
  panels::PlannerSettings settings = planner_panel_->settings();
  settings.velocity_scaling = config.default_velocity_scaling;
  settings.acceleration_scaling = config.default_acceleration_scaling;
  planner_panel_->set_settings(settings);
  document_.set_planner_settings(planner_panel_->settings());
  planner_panel_->show_message(tr("Velocity scaling %1 and acceleration scaling %2, the defaults of this robot's "
                                  "MoveIt config (joint_limits.yaml).")
                                   .arg(planner_panel_->velocity_scaling())
                                   .arg(planner_panel_->acceleration_scaling()));
}

QString PlanningFeatures::planning_group() const { return planner_panel_->group(); }

std::string PlanningFeatures::engine_group() const {
  const RobotModelPtr robot = document_.robot();
  const std::string chosen = planning_group().toStdString();
  // The first group is asked for as "", as before there was a choice: the engine's defaults
  // (kinetic.toml's [ik] group for IK) stay what they were.
  return robot && !robot->group_names().empty() && robot->group_names().front() == chosen ? std::string() : chosen;
}

void PlanningFeatures::apply_group() {
  const RobotModelPtr robot = document_.robot();
  const std::string group = engine_group();
  // Kept for the session also when a robot without the group chose another (not a user edit).
  document_.set_planner_settings(planner_panel_->settings());
  planner_panel_->set_closed_form_ik_available(has_closed_form_ik(robot, group));
  trajectory_panel_->set_tcp_source(tcp_plot_source(robot, group));
  emit planningGroupChanged(QString::fromStdString(group));
}

void PlanningFeatures::report_group_fallback(const QString& asked) {
  const RobotModelPtr robot = document_.robot();
  const QString chosen = planning_group();
  if (!robot || asked == chosen) return;
  const QString robot_name = QString::fromStdString(robot->name());
  if (!asked.isEmpty())
    planner_panel_->show_message(tr("The session plans for the group '%1', which '%2' does not have or cannot plan "
                                    "for: planning for '%3'.")
                                     .arg(asked, robot_name, chosen));
  else if (robot->group_names().size() > 1)
    planner_panel_->show_message(
        tr("The session names no planning group (it was saved before there was a choice): planning for '%1', "
           "the first of '%2'.")
            .arg(chosen, robot_name));
}

void PlanningFeatures::refresh_trajectories() {
  std::vector<panels::TrajectoryEntry> entries;
  std::vector<const Trajectory*> listed;
  for (const NamedTrajectory& t : document_.trajectories()) {
    entries.push_back({t.name, t.trajectory});
    listed.push_back(&t.trajectory);
  }
  validations_.keep_only(listed);
  const int before = trajectory_panel_->current();
  trajectory_panel_->set_trajectories(entries);
  refresh_marks();
  // The list changed under the same row (replaced by re-timing, undo): show the new contents.
  if (trajectory_panel_->current() == before) show_current(before);
}

void PlanningFeatures::show_current(int index) {
  const auto& list = document_.trajectories();
  const bool valid = index >= 0 && index < static_cast<int>(list.size());
  const Trajectory shown = valid ? list[index].trajectory : Trajectory();
  std::vector<SceneChange> changes = valid ? list[index].scene_changes : std::vector<SceneChange>();
  if (!(shown == playback_->trajectory())) playback_->set_trajectory(shown, std::move(changes));
  else playback_->set_scene_changes(std::move(changes));
  update_shown();
  show_validation();
  // Trajectories stay when another robot is loaded: say when this one does not fit it.
  if (valid && document_.robot()) {
    const std::vector<std::string> missing = joints_missing_from(*document_.robot(), shown);
    if (!missing.empty())
      trajectory_panel_->show_message(
          tr("'%1' moves joint '%2', which '%3' does not have: it was made for another robot (its ghost "
             "shows only the joints this robot has). Load the robot it was made for to play it.")
              .arg(list[index].name, QString::fromStdString(missing.front()),
                   QString::fromStdString(document_.robot()->name())),
          true);
  }
}

ValidationStatus PlanningFeatures::validation_status(int index) const {
  const auto& list = document_.trajectories();
  if (index < 0 || index >= static_cast<int>(list.size())) return {};
  const NamedTrajectory& t = list[static_cast<std::size_t>(index)];
  return validations_.status(t.trajectory, t.scene_changes, scene_revision_);
}

void PlanningFeatures::show_validation() {
  const int index = trajectory_panel_->current();
  const auto& list = document_.trajectories();
  if (index < 0 || index >= static_cast<int>(list.size())) {
    trajectory_panel_->show_not_validated(QString());  // nothing shown: no report either
    return;
  }
  // Only the shown trajectory's own report: its violation rows seek the motion on screen.
  const ValidationStatus status = validation_status(index);
  if (status.report) trajectory_panel_->set_validation(*status.report);
  else trajectory_panel_->show_not_validated(not_validated_text(status.state));
}

void PlanningFeatures::refresh_marks() {
  const auto& list = document_.trajectories();
  for (int i = 0; i < static_cast<int>(list.size()); ++i) {
    const ValidationStatus status = validation_status(i);
    trajectory_panel_->set_mark(i, validation_mark(status.state), validation_mark_tip(status));
  }
}

void PlanningFeatures::record_validation(const Trajectory& trajectory, const std::vector<SceneChange>& scene_changes,
                                         const TrajectoryValidationReport& report, quint64 revision) {
  validations_.record(trajectory, scene_changes, report, revision);
  refresh_marks();
  show_validation();
}

void PlanningFeatures::show_and_play(int index) {
  if (index < 0 || index >= static_cast<int>(document_.trajectories().size())) return;
  trajectory_panel_->set_current(index);
  trajectory_panel_->select({index});
  trajectory_panel_->trail_box()->setChecked(true);
  show_current(index);
  playback_->seek(playback_->trajectory().start_time());
  playback_->play();
}

void PlanningFeatures::update_shown() {
  const bool trail = trajectory_panel_->trail_box()->isChecked();
  const bool strobe = trajectory_panel_->strobe_box()->isChecked();
  document_.set_shown_trajectory(trail || strobe ? trajectory_panel_->current() : -1, strobe);
}

TimingSettings PlanningFeatures::panel_timing() const {
  TimingSettings timing;
  timing.method = timing_method_from_key(trajectory_panel_->timing_key());
  timing.velocity_scaling = trajectory_panel_->velocity_scaling();
  timing.acceleration_scaling = trajectory_panel_->acceleration_scaling();
  return timing;
}

void PlanningFeatures::connect_planner_panel() {
  // The panel's settings are kept in the document, which saves them with the session; a loaded
  // session's come back to the panel (as the panel's boxes take them: clamped to their ranges).
  document_.set_planner_settings(planner_panel_->settings());
  connect(planner_panel_, &panels::PlannerPanel::settingsEdited, this,
          [this] { document_.set_planner_settings(planner_panel_->settings()); });
  connect(&document_, &StudioDocument::plannerSettingsLoaded, this, [this] {
    const panels::PlannerSettings loaded = *document_.planner_settings();
    planner_panel_->set_settings(loaded);
    document_.set_planner_settings(planner_panel_->settings());
    report_group_fallback(loaded.group);
    apply_group();
  });
  connect(planner_panel_, &panels::PlannerPanel::groupChanged, this, &PlanningFeatures::apply_group);
  connect(planner_panel_, &panels::PlannerPanel::planRequested, this, &PlanningFeatures::plan);
  connect(planner_panel_, &panels::PlannerPanel::planAndExecuteRequested, this, &PlanningFeatures::plan_and_execute);
  connect(execution_, &PlanExecution::finished, this, [this](bool moved, const QString&, const QString& message) {
    if (!moved && !message.isEmpty()) trajectory_panel_->show_message(message, true);
  });
  connect(planner_panel_, &panels::PlannerPanel::cancelRequested, this, &PlanningFeatures::cancel_plan);
  connect(plan_worker_, &PlanWorker::busyChanged, planner_panel_, &panels::PlannerPanel::set_running);
  connect(plan_worker_, &PlanWorker::progress, this,
          [this](quint64, const QString& phase, double elapsed_ms, int iterations, int tree_size) {
            planner_panel_->set_progress(phase, elapsed_ms, iterations, tree_size);
          });
  connect(plan_worker_, &PlanWorker::finished, this, &PlanningFeatures::on_plan_finished);
}

void PlanningFeatures::plan() { submit_plan(false); }

void PlanningFeatures::plan_and_execute() { submit_plan(true); }

void PlanningFeatures::submit_plan(bool execute) {
  // The newest request wins: an execution still waiting for its playback would move the robot
  // under the new plan's start.
  execution_->cancel(tr("a new plan was asked for"));
  execute_request_.reset();
  const RobotModelPtr robot = document_.robot();
  if (!robot) {
    planner_panel_->show_failure(tr("No robot is loaded."), tr("Load a robot from the File menu."));
    return;
  }
  PlanRequest request;
  request.robot = robot;
  request.group = engine_group();
  request.scene = document_.scene();
  request.scene_revision = scene_revision_;
  plan_revision_ = scene_revision_;
  try {
    // Execution runs from where the robot stands, whatever start the panel names.
    switch (execute ? panels::PlanStartType::Current : planner_panel_->start_type()) {
      case panels::PlanStartType::Current: request.start = document_.joints(); break;
      case panels::PlanStartType::Named: request.start = robot->named_pose(planner_panel_->start_name().toStdString()); break;
      case panels::PlanStartType::RandomValid: request.random_start = true; break;
      case panels::PlanStartType::PreviousGoal:
        if (!previous_goal_)
          throw Error(ErrorCode::InvalidValue, "there is no previous goal yet", "plan once, or start from the current state");
        request.start = *previous_goal_;
        break;
    }
    const GoalState& goal = document_.goal();
    switch (planner_panel_->goal_type()) {
      case panels::PlanGoalType::Joints:
        if (!goal.joints) throw Error(ErrorCode::InvalidValue, "no goal joints are set", "set a goal in the goal panel or with the gizmo");
        request.goal = JointGoal{*goal.joints};
        // Another group: its own joints only, so the goal the planner checks is the state it ends
        // in (the other joints stay as they start), not the goal's values of joints that do not move.
        if (!request.group.empty()) request.goal = JointGoal{group_values(*robot, request.group, *goal.joints)};
        break;
      case panels::PlanGoalType::TcpPose:
        if (!goal.tcp_pose) throw Error(ErrorCode::InvalidValue, "no TCP pose goal is set", "drag the goal gizmo to set one");
        request.goal = PoseGoal{*goal.tcp_pose, goal.end_effector};
        break;
      case panels::PlanGoalType::Named: request.goal = NamedGoal{planner_panel_->goal_name().toStdString()}; break;
    }
    request.options = planner_panel_->options();
    request.options.validate();
  } catch (const Error& error) {
    planner_panel_->show_failure(QString::fromStdString(error.message()), QString::fromStdString(error.hint()));
    return;
  }
  request.random_seed = planner_panel_->random_seed();
  request.cartesian = planner_panel_->cartesian();
  request.cartesian_options = planner_panel_->cartesian_options();
  request.keep_orientation_tolerance = planner_panel_->keep_orientation_tolerance();
  request.timing.method = timing_method_from_key(planner_panel_->timing_key());
  request.timing.velocity_scaling = planner_panel_->velocity_scaling();
  request.timing.acceleration_scaling = planner_panel_->acceleration_scaling();
  // Numbered on from the plans the work holds: a reopened session's "plan 2" is followed by
  // "plan 3", not by a second "plan 1".
  plan_count_ = std::max(plan_count_, highest_plan_number(document_.trajectories()));
  request.name = tr("plan %1 · %2").arg(++plan_count_).arg(planner_panel_->planner_label());
  planner_panel_->show_message(tr("Planning…"));
  plan_clock_.start();
  plan_work_ = document_.work_generation();
  const quint64 id = plan_worker_->submit(std::move(request));
  if (execute) execute_request_ = id;
}

void PlanningFeatures::cancel_plan() { plan_worker_->cancel(); }

void PlanningFeatures::on_plan_finished(const PlanOutcome& outcome) {
  const bool execute = execute_request_ == outcome.id;
  execute_request_.reset();
  if (outcome.ok && plan_work_ != document_.work_generation()) {
    planner_panel_->show_message(tr("The plan finished after another session was opened or a new one started; "
                                    "it was not added. Plan again."));
    emit planFinished(outcome);
    return;
  }
  if (!outcome.ok) {
    if (outcome.error_code == ErrorCode::Cancelled) planner_panel_->show_message(tr("Planning cancelled."));
    else planner_panel_->show_failure(outcome.error, likely_fix(outcome));
    emit planFinished(outcome);
    return;
  }
  panels::PlanSummary summary;
  summary.planner = outcome.name;
  summary.time_ms = outcome.stats.planning_time_ms;
  summary.iterations = outcome.stats.iterations;
  summary.tree_size = outcome.stats.tree_size;
  summary.waypoints = static_cast<int>(outcome.cartesian ? outcome.cartesian->path.size() : outcome.stats.path.size());
  summary.length_before = outcome.stats.length_before;
  summary.length_after = outcome.stats.length_after;
  summary.duration = outcome.trajectory.duration();
  summary.seed = outcome.seed;
  if (outcome.cartesian) {
    summary.cartesian_fraction = outcome.cartesian->fraction;
    summary.cartesian_stop = QString::fromStdString(outcome.cartesian->stop_reason);
  }
  for (const std::string& note : outcome.stats.notes) summary.notes << QString::fromStdString(note);
  const QString refusal = execute ? execution_refusal(outcome) : QString();
  if (execute)
    summary.notes << (refusal.isEmpty() ? tr("Plan & Execute: the robot goes to the goal when the playback reaches "
                                             "the end (a pause or an edit before then calls it off).")
                                        : tr("Not executed: %1. The robot stays where it is.").arg(refusal));
  summary.validation = QString::fromStdString(outcome.validation.summary());
  planner_panel_->show_result(summary);
  if (!outcome.trajectory.empty() && !outcome.trajectory.samples().empty())
    previous_goal_ = outcome.trajectory.samples().back().position;

  // Only when the document still has the robot it was planned for.
  if (outcome.trajectory.robot() == (document_.robot() ? document_.robot()->name() : std::string())) {
    // Kept before the trajectory is added, so it shows with its report (stale if the scene was
    // edited while planning).
    validations_.record(outcome.trajectory, {}, outcome.validation, plan_revision_);
    const int index = add_or_replace_plan(outcome.name, outcome.trajectory);
    trajectory_panel_->set_current(index);
    trajectory_panel_->select({index});
    show_current(index);
    playback_->seek(playback_->trajectory().start_time());
    playback_->play();
    if (execute && refusal.isEmpty()) execution_->start(document_.trajectories()[index].name, outcome.trajectory);
    last_latency_ms_ = plan_clock_.isValid() ? plan_clock_.nsecsElapsed() / 1e6 : -1.0;
    emit planPlaying(last_latency_ms_);
  }
  emit planFinished(outcome);
}

QString PlanningFeatures::execution_refusal(const PlanOutcome& outcome) const {
  if (!outcome.validation.ok())
    return tr("its validation found %1 violation(s)").arg(outcome.validation.violations.size());
  // As a pick and place is applied: only in the world and from the state it was planned in.
  if (plan_revision_ != scene_revision_) return tr("the scene or the robot changed while planning");
  if (outcome.start.size() != document_.joints().size() || (outcome.start - document_.joints()).norm() > 1e-9)
    return tr("the robot was moved while planning");
  return {};
}

int PlanningFeatures::add_or_replace_plan(const QString& name, const Trajectory& trajectory) {
  const auto& list = document_.trajectories();
  const bool replace = planner_panel_->settings().replace_last_plan && last_plan_ && last_plan_->index >= 0 &&
                       last_plan_->index < static_cast<int>(list.size()) &&
                       list[static_cast<std::size_t>(last_plan_->index)].name == last_plan_->name &&
                       list[static_cast<std::size_t>(last_plan_->index)].trajectory == last_plan_->trajectory;
  int index = -1;
  if (replace) {
    index = last_plan_->index;
    std::vector<NamedTrajectory> next = list;
    next[static_cast<std::size_t>(index)] = NamedTrajectory{name, trajectory, {}};
    document_.edit_trajectories(next, tr("Replace %1 with %2").arg(last_plan_->name, name));
  } else {
    index = document_.add_trajectory(name, trajectory);
  }
  last_plan_ = AddedPlan{index, name, trajectory};
  return index;
}

void PlanningFeatures::toggle_play() {
  if (playback_->trajectory().empty()) show_current(trajectory_panel_->current());
  playback_->toggle_play();
}

void PlanningFeatures::set_recording(bool on) {
  recorder_->set_rate(trajectory_panel_->record_rate());
  recorder_->set_timing(panel_timing());
  on ? recorder_->start() : recorder_->stop();
}

void PlanningFeatures::connect_trajectory_panel() {
  auto* panel = trajectory_panel_;
  // The re-time settings are kept in the document as the planner's are (connect_planner_panel).
  document_.set_retime_settings(panel->retime_settings());
  connect(panel, &panels::TrajectoryPanel::retimeSettingsEdited, this,
          [this] { document_.set_retime_settings(trajectory_panel_->retime_settings()); });
  connect(&document_, &StudioDocument::retimeSettingsLoaded, this, [this] {
    trajectory_panel_->set_retime_settings(*document_.retime_settings());
    document_.set_retime_settings(trajectory_panel_->retime_settings());
  });
  connect(panel, &panels::TrajectoryPanel::currentChanged, this, &PlanningFeatures::show_current);
  connect(panel, &panels::TrajectoryPanel::renameRequested, this, [this](int index, const QString& name) {
    auto list = document_.trajectories();
    if (index < 0 || index >= static_cast<int>(list.size())) return;
    list[index].name = document_.unique_trajectory_name(name);
    document_.edit_trajectories(list, tr("Rename trajectory"));
  });
  connect(panel, &panels::TrajectoryPanel::removeRequested, this, [this](const QList<int>& indices) {
    std::vector<NamedTrajectory> kept;
    const auto& list = document_.trajectories();
    for (int i = 0; i < static_cast<int>(list.size()); ++i)
      if (!indices.contains(i)) kept.push_back(list[i]);
    document_.edit_trajectories(kept, indices.size() > 1 ? tr("Delete trajectories") : tr("Delete trajectory"));
  });
  connect(panel, &panels::TrajectoryPanel::duplicateRequested, this, [this](int index) {
    const auto& list = document_.trajectories();
    if (index < 0 || index >= static_cast<int>(list.size())) return;
    const NamedTrajectory copy = list[index];
    trajectory_panel_->set_current(
        document_.add_trajectory(copy.name + tr(" copy"), copy.trajectory, copy.scene_changes));
  });
  connect(panel, &panels::TrajectoryPanel::moveRobotRequested, this, &PlanningFeatures::move_robot_to);
  connect(panel, &panels::TrajectoryPanel::playToggled, this, &PlanningFeatures::toggle_play);
  // Seeking does not stop the playback, but the end it then reaches is not the motion played.
  connect(panel, &panels::TrajectoryPanel::seekRequested, this, [this] { execution_->cancel(tr("the playhead was moved")); });
  connect(panel, &panels::TrajectoryPanel::seekRequested, playback_, &PlaybackController::seek);
  connect(panel, &panels::TrajectoryPanel::stepRequested, playback_, &PlaybackController::step);
  connect(panel, &panels::TrajectoryPanel::speedChanged, playback_, &PlaybackController::set_speed);
  connect(panel, &panels::TrajectoryPanel::loopChanged, playback_, &PlaybackController::set_loop);
  connect(panel, &panels::TrajectoryPanel::showOptionsChanged, this, &PlanningFeatures::update_shown);
  connect(playback_, &PlaybackController::timeChanged, panel, &panels::TrajectoryPanel::set_time);
  connect(playback_, &PlaybackController::playingChanged, panel, &panels::TrajectoryPanel::set_playing);
  connect(panel, &panels::TrajectoryPanel::retimeRequested, this, &PlanningFeatures::retime);
  connect(panel, &panels::TrajectoryPanel::blendRequested, this, &PlanningFeatures::blend);
  connect(panel, &panels::TrajectoryPanel::validateRequested, this, &PlanningFeatures::validate);
  connect(panel, &panels::TrajectoryPanel::exportRequested, this,
          [this](int index, const QString& path) { export_trajectory(index, path); });
  connect(panel, &panels::TrajectoryPanel::importRequested, this, [this](const QString& path) { import_trajectory(path); });
  connect(panel, &panels::TrajectoryPanel::recordToggled, this, &PlanningFeatures::set_recording);
  connect(panel, &panels::TrajectoryPanel::recordRateChanged, recorder_, &TrajectoryRecorder::set_rate);
  connect(recorder_, &TrajectoryRecorder::recordingChanged, panel, &panels::TrajectoryPanel::set_recording);
  connect(recorder_, &TrajectoryRecorder::finished, this, [this](int index, const QString& error) {
    if (index < 0) {
      trajectory_panel_->show_message(error, true);
      return;
    }
    trajectory_panel_->set_current(index);
    trajectory_panel_->show_message(tr("Recorded %1 samples into '%2'.")
                                        .arg(recorder_->samples().size())
                                        .arg(document_.trajectories()[index].name));
  });
}

bool PlanningFeatures::move_robot_to(int index, double t) {
  const auto& list = document_.trajectories();
  if (index < 0 || index >= static_cast<int>(list.size()) || !document_.robot()) return false;
  const NamedTrajectory& source = list[static_cast<std::size_t>(index)];
  RobotAtTime at;
  try {
    at = robot_at_time(*document_.robot(), source.trajectory, source.scene_changes, t, document_.joints());
  } catch (const std::exception& error) {
    trajectory_panel_->show_message(tr("Cannot move the robot to '%1': %2").arg(source.name, QString::fromUtf8(error.what())),
                                    true);
    return false;
  }
  const double from_start = at.time - source.trajectory.start_time();
  const QString what = tr("Robot to '%1' at %2 s").arg(source.name).arg(from_start, 0, 'f', 3);
  QUndoStack& stack = document_.undo_stack();
  stack.beginMacro(what);
  if (at.scene) document_.edit_scene(*at.scene, what);
  document_.edit_joints(at.joints, what);
  stack.endMacro();
  trajectory_panel_->show_message(tr("The robot is where '%1' has it at %2 s%3 (Edit → Undo takes it back).")
                                      .arg(source.name)
                                      .arg(from_start, 0, 'f', 3)
                                      .arg(at.scene ? tr(", with the scene of that moment") : QString()));
  return true;
}

void PlanningFeatures::retime(int index) {
  const auto& list = document_.trajectories();
  const RobotModelPtr robot = document_.robot();
  if (!robot || index < 0 || index >= static_cast<int>(list.size())) return;
  const NamedTrajectory source = list[index];
  const TimingSettings timing = panel_timing();
  const bool replace = trajectory_panel_->replace_when_retiming();
  const PlanningScene scene = document_.scene();
  const JointVector base = document_.joints();
  const quint64 revision = scene_revision_;
  trajectory_panel_->show_message(tr("Re-timing '%1'…").arg(source.name));
  retiming_.submit(
             [source, robot, timing, scene, base] {
               CheckedTiming checked;
               checked.timed = make_trajectory([&] {
                 // Time-optimal corners leave the path: narrowed where they would collide, as a
                 // plan's are. A pick and place runs through several scenes, which one callback
                 // cannot follow: its corners are left to the validation below.
                 TrajectoryCollisionCheck check;
                 if (source.scene_changes.empty())
                   check = trajectory_collision_check(robot, scene, source.trajectory.joint_names(), base);
                 return time_path(trajectory_waypoints(source.trajectory),
                                  limits_for(*robot, source.trajectory.joint_names()), timing, check.in_collision,
                                  check.collision_names, &checked.corners_note);
               });
               if (checked.timed.error.isEmpty())
                 checked.scene_changes =
                     retime_scene_changes(source.scene_changes, source.trajectory, checked.timed.trajectory);
               validate_checked(checked, robot, scene, base);
               return checked;
             },
             [this, source, index, timing, replace, revision](CheckedTiming checked) {
               const TrajectoryOrError& result = checked.timed;
               if (!result.error.isEmpty()) {
                 trajectory_panel_->show_message(tr("Could not re-time '%1': %2").arg(source.name, result.error), true);
                 emit taskFinished(QStringLiteral("retime"), result.error);
                 return;
               }
               if (checked.validation_error.isEmpty())
                 validations_.record(result.trajectory, checked.scene_changes, checked.report, revision);
               auto updated = document_.trajectories();
               const QString label = source.name + QStringLiteral(" · ") + timing_key(timing.method);
               if (replace && index < static_cast<int>(updated.size()) && updated[index].name == source.name) {
                 // The grasp and the release move with the waypoints they happen at.
                 updated[index].scene_changes =
                     retime_scene_changes(updated[index].scene_changes, updated[index].trajectory, result.trajectory);
                 updated[index].trajectory = result.trajectory;
                 document_.edit_trajectories(updated, tr("Re-time trajectory"));
               } else {
                 trajectory_panel_->set_current(document_.add_trajectory(label, result.trajectory, checked.scene_changes));
               }
               show_validation();
               trajectory_panel_->show_message(tr("Re-timed '%1': %2 s (was %3 s).")
                                                       .arg(source.name)
                                                       .arg(result.trajectory.duration(), 0, 'f', 3)
                                                       .arg(source.trajectory.duration(), 0, 'f', 3) +
                                                   checked_suffix(checked),
                                               !checked.validation_error.isEmpty() || !checked.report.ok());
               emit taskFinished(QStringLiteral("retime"), {});
             });
}

void PlanningFeatures::blend(const QList<int>& indices) {
  const auto& list = document_.trajectories();
  const RobotModelPtr robot = document_.robot();
  if (!robot || indices.size() < 2) return;
  std::vector<Trajectory> parts;
  QStringList names;
  for (int i : indices) {
    if (i < 0 || i >= static_cast<int>(list.size())) return;
    parts.push_back(list[i].trajectory);
    names << list[i].name;
  }
  const TimingSettings timing = panel_timing();
  const PlanningScene scene = document_.scene();
  const JointVector base = document_.joints();
  const quint64 revision = scene_revision_;
  blending_.submit(
             [parts, robot, timing, scene, base] {
               CheckedTiming checked;
               checked.timed = make_trajectory([&] {
                 const TrajectoryLimits limits = limits_for(*robot, parts.front().joint_names());
                 // One time-optimal motion through every part's waypoints, its corners (the
                 // junctions too) narrowed where they would collide, as a plan's are.
                 const TrajectoryCollisionCheck check =
                     trajectory_collision_check(robot, scene, parts.front().joint_names(), base);
                 TimingSettings optimal = timing;
                 optimal.method = TimingMethod::TimeOptimal;
                 return time_path(join_trajectories(parts, limits, 1e-3), limits, optimal, check.in_collision,
                                  check.collision_names, &checked.corners_note);
               });
               validate_checked(checked, robot, scene, base);
               return checked;
             },
             [this, names, revision](CheckedTiming checked) {
               const TrajectoryOrError& result = checked.timed;
               if (!result.error.isEmpty()) {
                 trajectory_panel_->show_message(tr("Could not blend: %1").arg(result.error), true);
                 emit taskFinished(QStringLiteral("blend"), result.error);
                 return;
               }
               if (checked.validation_error.isEmpty())
                 validations_.record(result.trajectory, {}, checked.report, revision);
               const int index = document_.add_trajectory(tr("blend of %1").arg(names.join(QStringLiteral(" + "))),
                                                          result.trajectory);
               trajectory_panel_->set_current(index);
               show_validation();
               trajectory_panel_->show_message(tr("Blended %1 trajectories: %2 s.")
                                                       .arg(names.size())
                                                       .arg(result.trajectory.duration(), 0, 'f', 3) +
                                                   checked_suffix(checked),
                                               !checked.validation_error.isEmpty() || !checked.report.ok());
               emit taskFinished(QStringLiteral("blend"), {});
             });
}

void PlanningFeatures::validate(int index) {
  const auto& list = document_.trajectories();
  const RobotModelPtr robot = document_.robot();
  if (!robot || index < 0 || index >= static_cast<int>(list.size())) return;
  const NamedTrajectory source = list[index];
  const PlanningScene scene = document_.scene();
  const JointVector base = document_.joints();
  const quint64 revision = scene_revision_;
  struct Result {
    TrajectoryValidationReport report;
    QString error;
  };
  trajectory_panel_->show_message(tr("Validating '%1'…").arg(source.name));
  validating_.submit(
             [source, robot, scene, base] {
               Result result;
               try {
                 // A pick and place: each stretch in the scene in force then (the part held).
                 result.report = validate_in_scenes(robot, source.trajectory, scene, source.scene_changes, base);
               } catch (const std::exception& error) {
                 result.error = error_text(error);
               }
               return result;
             },
             [this, source, revision](Result result) {
               if (!result.error.isEmpty()) {
                 trajectory_panel_->show_message(tr("Could not validate: %1").arg(result.error), true);
               } else {
                 // Shown only if `source` is the trajectory on screen (record_validation decides).
                 record_validation(source.trajectory, source.scene_changes, result.report, revision);
                 trajectory_panel_->show_message(
                     result.report.ok() ? tr("'%1' is valid.").arg(source.name)
                                        : tr("'%1': %2 violation(s).").arg(source.name).arg(result.report.violations.size()),
                     !result.report.ok());
               }
               emit taskFinished(QStringLiteral("validate"), result.error);
             });
}

QString PlanningFeatures::export_trajectory(int index, const QString& path) {
  const auto& list = document_.trajectories();
  QString error;
  if (index < 0 || index >= static_cast<int>(list.size())) {
    error = tr("Nothing to export: select a trajectory first.");
  } else {
    try {
      save_trajectory(list[index].trajectory, std::filesystem::path(path.toStdString()));
    } catch (const std::exception& e) {
      error = error_text(e);
    }
  }
  trajectory_panel_->show_message(error.isEmpty() ? tr("Exported '%1' to %2.").arg(list[index].name, path)
                                                  : tr("Export failed: %1").arg(error),
                                  !error.isEmpty());
  return error;
}

QString PlanningFeatures::import_trajectory(const QString& path) {
  QString error;
  try {
    const Trajectory trajectory = load_trajectory(std::filesystem::path(path.toStdString()));
    const RobotModelPtr robot = document_.robot();
    if (!robot) throw Error(ErrorCode::InvalidValue, "no robot is loaded", "load the robot the trajectory is for");
    limits_for(*robot, trajectory.joint_names());  // throws naming a joint this robot lacks
    const int index = document_.add_trajectory(QFileInfo(path).completeBaseName(), trajectory);
    trajectory_panel_->set_current(index);
    trajectory_panel_->show_message(tr("Imported %1 (%2 s).").arg(path).arg(trajectory.duration(), 0, 'f', 3));
  } catch (const std::exception& e) {
    error = error_text(e);
    trajectory_panel_->show_message(tr("Import of %1 failed: %2").arg(path, error), true);
  }
  emit taskFinished(QStringLiteral("import"), error);
  return error;
}

}  // namespace kinetic::app
