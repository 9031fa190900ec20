#include "app/planning/planning_features.hpp"

#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QRegularExpression>
#include <algorithm>

#include "app/document/studio_document.hpp"
#include "app/planning/plan_execution.hpp"
#include "app/planning/plan_worker.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "engine/kinematics/group_end_effectors.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/opw_ik.hpp"
#include "engine/kinematics/ur_ik.hpp"
#include "engine/planning/state_diagnostics.hpp"
#include "panels/planner_panel.hpp"
#include "panels/trajectory_panel.hpp"

namespace kinetic::app {

namespace {

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

// Whether "closed-form IK steps" can apply: the group's IK solver is a UR or OPW one, the solvers
// whose closed form the Cartesian steps use (cartesian_step_ik.cpp). group "": the default.
bool has_closed_form_ik(const RobotModelPtr& robot, const std::string& group) {
  if (!robot) return false;
  try {
    const IkSolverPtr solver = make_ik_solver(robot, group);
    return std::dynamic_pointer_cast<const UrIkSolver>(solver) ||
           std::dynamic_pointer_cast<const OpwIkSolver>(solver);
  } catch (const std::exception&) {  // no usable solver: the steps are numeric
    return false;
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
        choice.unusable =
            QCoreApplication::translate("PlanningFeatures", "it has no movable joint");
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
  auto* trajectories = new TrajectoryFeatures(window, document);
  auto* planning = new PlanningFeatures(window, document, *trajectories);
  // After the Planner's: the View menu lists the docks in the order they were made.
  trajectories->add_dock(window);
  return planning;
}

PlanningFeatures::PlanningFeatures(QMainWindow& window, StudioDocument& document,
                                   TrajectoryFeatures& trajectories)
    : QObject(&window), document_(document), trajectories_(trajectories) {
  setObjectName(QStringLiteral("PlanningFeatures"));
  planner_panel_ = new panels::PlannerPanel;
  planner_dock_ = new QDockWidget(tr("Planner"), &window);
  planner_dock_->setObjectName(QStringLiteral("PlannerDock"));
  planner_dock_->setWidget(planner_panel_);
  window.addDockWidget(Qt::RightDockWidgetArea, planner_dock_);
  planner_panel_->setMinimumWidth(320);

  plan_worker_ = new PlanWorker(this);
  execution_ = new PlanExecution(
      document_, trajectories_.playback(),
      [this](int index, double t) { return trajectories_.move_robot_to(index, t); }, this);
  // The speed plot follows the group's TCP, before anyone else hears of the group.
  connect(this, &PlanningFeatures::planningGroupChanged, &trajectories_,
          &TrajectoryFeatures::set_group);
  // Seeking does not stop the playback, but the end it then reaches is not the motion played.
  connect(&trajectories_, &TrajectoryFeatures::playheadMoved, this,
          [this] { execution_->cancel(tr("the playhead was moved")); });

  connect_document();
  connect_planner_panel();
  refresh_robot();
  planner_panel_->set_goal_available(document_.goal().joints.has_value(),
                                     document_.goal().tcp_pose.has_value());
}

PlanningFeatures::~PlanningFeatures() {
  plan_worker_->cancel();
}

void PlanningFeatures::connect_document() {
  // Other work opened: a plan asked for by the old one is stopped (and dropped if it finishes).
  connect(&document_, &StudioDocument::workReplaced, this, [this] {
    plan_worker_->cancel();
    plan_count_ = 0;  // the new work's plans are counted from its own
    previous_goal_.reset();
  });
  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    previous_goal_.reset();
    refresh_robot();
  });
  connect(&document_, &StudioDocument::goalChanged, this, [this] {
    planner_panel_->set_goal_available(document_.goal().joints.has_value(),
                                       document_.goal().tcp_pose.has_value());
  });
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
  planner_panel_->show_message(
      tr("Velocity scaling %1 and acceleration scaling %2, the defaults of this robot's "
         "MoveIt config (joint_limits.yaml).")
          .arg(planner_panel_->velocity_scaling())
          .arg(planner_panel_->acceleration_scaling()));
}

QString PlanningFeatures::planning_group() const {
  return planner_panel_->group();
}

std::string PlanningFeatures::engine_group() const {
  const RobotModelPtr robot = document_.robot();
  const std::string chosen = planning_group().toStdString();
  // The first group is asked for as "", as before there was a choice: the engine's defaults
  // (kinetic.toml's [ik] group for IK) stay what they were.
  return robot && !robot->group_names().empty() && robot->group_names().front() == chosen
             ? std::string()
             : chosen;
}

void PlanningFeatures::apply_group() {
  const RobotModelPtr robot = document_.robot();
  const std::string group = engine_group();
  // Kept for the session also when a robot without the group chose another (not a user edit).
  document_.set_planner_settings(planner_panel_->settings());
  planner_panel_->set_closed_form_ik_available(has_closed_form_ik(robot, group));
  emit planningGroupChanged(QString::fromStdString(group));
}

void PlanningFeatures::report_group_fallback(const QString& asked) {
  const RobotModelPtr robot = document_.robot();
  const QString chosen = planning_group();
  if (!robot || asked == chosen) return;
  const QString robot_name = QString::fromStdString(robot->name());
  if (!asked.isEmpty())
    planner_panel_->show_message(
        tr("The session plans for the group '%1', which '%2' does not have or cannot plan "
           "for: planning for '%3'.")
            .arg(asked, robot_name, chosen));
  else if (robot->group_names().size() > 1)
    planner_panel_->show_message(tr("The session names no planning group (it was saved before "
                                    "there was a choice): planning for '%1', "
                                    "the first of '%2'.")
                                     .arg(chosen, robot_name));
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
  connect(planner_panel_, &panels::PlannerPanel::groupChanged, this,
          &PlanningFeatures::apply_group);
  connect(planner_panel_, &panels::PlannerPanel::planRequested, this, &PlanningFeatures::plan);
  connect(planner_panel_, &panels::PlannerPanel::planAndExecuteRequested, this,
          &PlanningFeatures::plan_and_execute);
  connect(execution_, &PlanExecution::finished, this,
          [this](bool moved, const QString&, const QString& message) {
            if (!moved && !message.isEmpty())
              trajectories_.trajectory_panel()->show_message(message, true);
          });
  connect(planner_panel_, &panels::PlannerPanel::cancelRequested, this,
          &PlanningFeatures::cancel_plan);
  connect(plan_worker_, &PlanWorker::busyChanged, planner_panel_,
          &panels::PlannerPanel::set_running);
  connect(plan_worker_, &PlanWorker::progress, this,
          [this](quint64, const QString& phase, double elapsed_ms, int iterations, int tree_size) {
            planner_panel_->set_progress(phase, elapsed_ms, iterations, tree_size);
          });
  connect(plan_worker_, &PlanWorker::finished, this, &PlanningFeatures::on_plan_finished);
}

void PlanningFeatures::plan() {
  submit_plan(false);
}

void PlanningFeatures::plan_and_execute() {
  submit_plan(true);
}

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
  request.scene_revision = trajectories_.scene_revision();
  plan_revision_ = trajectories_.scene_revision();
  try {
    // Execution runs from where the robot stands, whatever start the panel names.
    switch (execute ? panels::PlanStartType::Current : planner_panel_->start_type()) {
      case panels::PlanStartType::Current:
        request.start = document_.joints();
        break;
      case panels::PlanStartType::Named:
        request.start = robot->named_pose(planner_panel_->start_name().toStdString());
        break;
      case panels::PlanStartType::RandomValid:
        request.random_start = true;
        break;
      case panels::PlanStartType::PreviousGoal:
        if (!previous_goal_)
          throw Error(ErrorCode::InvalidValue, "there is no previous goal yet",
                      "plan once, or start from the current state");
        request.start = *previous_goal_;
        break;
    }
    const GoalState& goal = document_.goal();
    switch (planner_panel_->goal_type()) {
      case panels::PlanGoalType::Joints:
        if (!goal.joints)
          throw Error(ErrorCode::InvalidValue, "no goal joints are set",
                      "set a goal in the goal panel or with the gizmo");
        request.goal = JointGoal{*goal.joints};
        // Another group: its own joints only, so the goal the planner checks is the state it ends
        // in (the other joints stay as they start), not the goal's values of joints that do not
        // move.
        if (!request.group.empty())
          request.goal = JointGoal{group_values(*robot, request.group, *goal.joints)};
        break;
      case panels::PlanGoalType::TcpPose:
        if (!goal.tcp_pose)
          throw Error(ErrorCode::InvalidValue, "no TCP pose goal is set",
                      "drag the goal gizmo to set one");
        request.goal = PoseGoal{*goal.tcp_pose, goal.end_effector};
        break;
      case panels::PlanGoalType::Named:
        request.goal = NamedGoal{planner_panel_->goal_name().toStdString()};
        break;
    }
    request.options = planner_panel_->options();
    request.options.validate();
  } catch (const Error& error) {
    planner_panel_->show_failure(QString::fromStdString(error.message()),
                                 QString::fromStdString(error.hint()));
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

void PlanningFeatures::cancel_plan() {
  plan_worker_->cancel();
}

void PlanningFeatures::on_plan_finished(const PlanOutcome& outcome) {
  const bool execute = execute_request_ == outcome.id;
  execute_request_.reset();
  if (outcome.ok && plan_work_ != document_.work_generation()) {
    planner_panel_->show_message(
        tr("The plan finished after another session was opened or a new one started; "
           "it was not added. Plan again."));
    emit planFinished(outcome);
    return;
  }
  if (!outcome.ok) {
    if (outcome.error_code == ErrorCode::Cancelled)
      planner_panel_->show_message(tr("Planning cancelled."));
    else
      planner_panel_->show_failure(outcome.error, likely_fix(outcome));
    emit planFinished(outcome);
    return;
  }
  panels::PlanSummary summary;
  summary.planner = outcome.name;
  summary.time_ms = outcome.stats.planning_time_ms;
  summary.iterations = outcome.stats.iterations;
  summary.tree_size = outcome.stats.tree_size;
  summary.waypoints = static_cast<int>(outcome.cartesian ? outcome.cartesian->path.size()
                                                         : outcome.stats.path.size());
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
    summary.notes
        << (refusal.isEmpty()
                ? tr("Plan & Execute: the robot goes to the goal when the playback reaches "
                     "the end (a pause or an edit before then calls it off).")
                : tr("Not executed: %1. The robot stays where it is.").arg(refusal));
  summary.validation = QString::fromStdString(outcome.validation.summary());
  planner_panel_->show_result(summary);
  if (!outcome.trajectory.empty() && !outcome.trajectory.samples().empty())
    previous_goal_ = outcome.trajectory.samples().back().position;

  // Only when the document still has the robot it was planned for.
  if (outcome.trajectory.robot() ==
      (document_.robot() ? document_.robot()->name() : std::string())) {
    const int index =
        trajectories_.add_plan(outcome.name, outcome.trajectory, outcome.validation, plan_revision_,
                               planner_panel_->settings().replace_last_plan);
    if (execute && refusal.isEmpty())
      execution_->start(document_.trajectories()[index].name, outcome.trajectory);
    last_latency_ms_ = plan_clock_.isValid() ? plan_clock_.nsecsElapsed() / 1e6 : -1.0;
    emit planPlaying(last_latency_ms_);
  }
  emit planFinished(outcome);
}

QString PlanningFeatures::execution_refusal(const PlanOutcome& outcome) const {
  if (!outcome.validation.ok())
    return tr("its validation found %1 violation(s)").arg(outcome.validation.violations.size());
  // As a pick and place is applied: only in the world and from the state it was planned in.
  if (plan_revision_ != trajectories_.scene_revision())
    return tr("the scene or the robot changed while planning");
  if (outcome.start.size() != document_.joints().size() ||
      (outcome.start - document_.joints()).norm() > 1e-9)
    return tr("the robot was moved while planning");
  return {};
}

}  // namespace kinetic::app
