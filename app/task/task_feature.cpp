#include "app/task/task_feature.hpp"

#include <QDockWidget>
#include <QMainWindow>
#include <cmath>
#include <random>

#include "app/document/studio_document.hpp"
#include "app/planning/planning_features.hpp"
#include "app/task/place_target.hpp"
#include "app/task/task_worker.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "panels/planner_panel.hpp"
#include "panels/task_panel.hpp"

namespace kinetic::app {

namespace {

bool graspable(const Shape& shape) {
  return shape.type == Shape::Type::Box || shape.type == Shape::Type::Cylinder ||
         shape.type == Shape::Type::Sphere;
}

QString describe(const Obstacle& obstacle) {
  const Shape& shape = obstacle.shape;
  QString what;
  switch (shape.type) {
    case Shape::Type::Box:
      what = QObject::tr("box %1 × %2 × %3 m")
                 .arg(shape.box_size.x(), 0, 'g', 3)
                 .arg(shape.box_size.y(), 0, 'g', 3)
                 .arg(shape.box_size.z(), 0, 'g', 3);
      break;
    case Shape::Type::Cylinder:
      what = QObject::tr("cylinder r %1, l %2 m")
                 .arg(shape.radius, 0, 'g', 3)
                 .arg(shape.length, 0, 'g', 3);
      break;
    default:
      what = QObject::tr("sphere r %1 m").arg(shape.radius, 0, 'g', 3);
      break;
  }
  const Vector3 p = obstacle.pose.translation();
  return QObject::tr("%1 at (%2, %3, %4) m")
      .arg(what)
      .arg(p.x(), 0, 'f', 3)
      .arg(p.y(), 0, 'f', 3)
      .arg(p.z(), 0, 'f', 3);
}

double heading(const Pose& pose) {
  return std::atan2(pose.linear()(1, 0), pose.linear()(0, 0));
}

std::vector<panels::TaskStageRow> stage_rows(const TaskOutcome& outcome) {
  const auto& stages = outcome.result.stages;
  const auto& starts = outcome.timed.stage_start;
  std::vector<panels::TaskStageRow> rows;
  for (std::size_t i = 0; i < stages.size() && i < starts.size(); ++i) {
    const double end = i + 1 < starts.size() ? starts[i + 1] : outcome.timed.trajectory.end_time();
    const QString name =
        QString::fromStdString(stages[i].name.empty() ? to_string(stages[i].kind) : stages[i].name);
    rows.push_back({name, starts[i], std::max(0.0, end - starts[i])});
  }
  return rows;
}

// Where the task leaves the robot: the trajectory's last sample (model order, by joint name).
JointVector final_joints(const TaskOutcome& outcome) {
  JointVector q = outcome.result.final_state;
  const Trajectory& trajectory = outcome.timed.trajectory;
  if (trajectory.empty()) return q;
  const JointVector last = trajectory.samples().back().position;
  for (std::size_t j = 0; j < trajectory.joint_names().size(); ++j) {
    const int variable = outcome.robot->variable_index(trajectory.joint_names()[j]);
    if (variable >= 0 && variable < q.size()) q[variable] = last[static_cast<Eigen::Index>(j)];
  }
  return q;
}

// The straight stages (approach, lift, place, retreat) take the Planner panel's Cartesian line:
// step sizes, jump threshold, closed-form IK (where the robot has it). Not its collision settings:
// the task always checks collisions, with no margin, as its contacts are allowed in each stage's
// scene while they happen.
CartesianOptions straight_stage_options(const panels::PlannerPanel& planner) {
  const CartesianOptions line = planner.cartesian_options();
  CartesianOptions straight;
  straight.max_translation_step = line.max_translation_step;
  straight.max_rotation_step = line.max_rotation_step;
  straight.jump_threshold = line.jump_threshold;
  straight.closed_form_ik = line.closed_form_ik;
  return straight;
}

}  // namespace

TaskFeature* install_task_feature(QMainWindow& window, StudioDocument& document,
                                  PlanningFeatures& planning, TrajectoryFeatures& trajectories) {
  return new TaskFeature(window, document, planning, trajectories);
}

TaskFeature::TaskFeature(QMainWindow& window, StudioDocument& document, PlanningFeatures& planning,
                         TrajectoryFeatures& trajectories)
    : QObject(&window), document_(document), planning_(planning), trajectories_(trajectories) {
  setObjectName(QStringLiteral("TaskFeature"));
  panel_ = new panels::TaskPanel;
  dock_ = new QDockWidget(tr("Task"), &window);
  dock_->setObjectName(QStringLiteral("TaskDock"));
  dock_->setWidget(panel_);
  window.addDockWidget(Qt::RightDockWidgetArea, dock_);
  worker_ = new TaskWorker(this);
  place_target_ = new PlaceTarget(this);

  connect(panel_, &panels::TaskPanel::planRequested, this, &TaskFeature::plan);
  connect(panel_, &panels::TaskPanel::cancelRequested, this, &TaskFeature::cancel);
  connect(panel_, &panels::TaskPanel::applyRequested, this, &TaskFeature::apply);
  connect(worker_, &TaskWorker::busyChanged, panel_, &panels::TaskPanel::set_running);
  connect(worker_, &TaskWorker::finished, this, &TaskFeature::on_finished);
  connect(panel_, &panels::TaskPanel::placeChanged, this, &TaskFeature::refresh_marker);
  connect(panel_, &panels::TaskPanel::moveInViewToggled, place_target_,
          &PlaceTarget::set_gizmo_wanted);
  connect(place_target_, &PlaceTarget::dragged, panel_, &panels::TaskPanel::move_place);
  // Clicks in the view work the button, so it stays the one switch (it sets the gizmo through
  // moveInViewToggled above).
  connect(place_target_, &PlaceTarget::gizmoRequested, panel_,
          &panels::TaskPanel::request_move_in_view);
  connect(dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    dock_shown_ = visible;
    if (!visible) panel_->set_move_in_view(false);  // no moving what is not shown
    refresh_marker();
  });
  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    ++scene_revision_;
    panel_->set_move_in_view(false);
    applicable_.reset();
    panel_->set_apply_available(false);
    refresh_robot();
  });
  connect(&document_, &StudioDocument::sceneChanged, this, [this] {
    ++scene_revision_;
    if (applicable_) {
      // The plan was made in the scene before this edit: applying it would undo the edit.
      applicable_.reset();
      panel_->set_apply_available(false);
      panel_->show_message(tr("The scene changed since the plan: plan again to apply it."));
    }
    refresh_objects();
  });
  // A failure describes the robot, joints, scene and setup it was planned from: once they change it
  // is stale and gives way to a note.
  const auto retire_failure = [this] {
    if (panel_->showing_failure())
      panel_->show_message(
          tr("The robot, the scene or the task's setup changed since planning "
             "failed: plan again to check."));
  };
  for (const auto signal : {&StudioDocument::robotChanged, &StudioDocument::jointsChanged,
                            &StudioDocument::sceneChanged})
    connect(&document_, signal, this, retire_failure);
  connect(panel_, &panels::TaskPanel::settingsChanged, this, retire_failure);
  connect(&document_, &StudioDocument::selectionChanged, this, [this] {
    // A selected obstacle takes the gizmo back (deselecting leaves it on the place).
    if (!document_.selected_object().isEmpty()) panel_->set_move_in_view(false);
    panel_->select_object(document_.selected_object());
  });

  refresh_robot();
  panel_->select_object(document_.selected_object());
  panel_->show_message(tr("Choose the object and where to put it, then plan."));
  connect_settings();
}

void TaskFeature::connect_settings() {
  // The panel's setup is kept in the document, which saves it with the session; a loaded
  // session's comes back to the panel (as its fields take it: clamped to their ranges).
  document_.set_task_settings(panel_->settings());
  connect(panel_, &panels::TaskPanel::settingsChanged, this,
          [this] { document_.set_task_settings(panel_->settings()); });
  connect(&document_, &StudioDocument::taskSettingsLoaded, this, [this] {
    panel_->set_settings(document_.task_settings().value_or(panels::TaskSettings{}));
    document_.set_task_settings(panel_->settings());
  });
}

TaskFeature::~TaskFeature() {
  worker_->cancel();
}

void TaskFeature::refresh_robot() {
  const RobotModelPtr robot = document_.robot();
  panel_->set_robot_available(robot != nullptr);
  QStringList touch;
  if (robot) {
    try {
      // What the engine allows when none are named: the object is held by the group's tip link.
      CollisionChecker checker(robot);
      const JointVector q = document_.joints().size() == robot->dof() ? document_.joints()
                                                                      : robot->zero_configuration();
      for (const std::string& link :
           task_touch_links(checker, q, group_chain(*robot).tip_link, robot->group_variables()))
        touch << QString::fromStdString(link);
    } catch (const Error&) {
      // A robot without a planning group: planning says why.
    }
  }
  panel_->set_default_touch_links(touch);
  refresh_objects();
}

void TaskFeature::refresh_objects() {
  std::vector<panels::TaskObject> objects;
  for (const Obstacle& obstacle : document_.scene().obstacles())
    if (graspable(obstacle.shape))
      objects.push_back({QString::fromStdString(obstacle.name), describe(obstacle), obstacle.pose});
  panel_->set_objects(objects);
  refresh_marker();
}

void TaskFeature::refresh_marker() {
  const std::string name = panel_->object().toStdString();
  std::optional<PlaceMarker> marker;
  if (dock_shown_ && document_.robot() && !name.empty() && document_.scene().has_obstacle(name))
    marker = PlaceMarker{document_.scene().obstacle(name).shape, panel_->request().place_pose};
  place_target_->set_marker(std::move(marker));
}

void TaskFeature::plan() {
  const RobotModelPtr robot = document_.robot();
  if (!robot) {
    panel_->show_failure(tr("No robot is loaded."), tr("Load a robot from the File menu."));
    return;
  }
  TaskRequest request;
  request.robot = robot;
  request.scene = document_.scene();
  request.start = document_.joints();
  request.pick_place = panel_->request();
  if (request.pick_place.object.empty()) {
    if (!panel_->missing_object().isEmpty())
      panel_->show_failure(tr("'%1' is not in the scene.").arg(panel_->missing_object()),
                           tr("Add it back to the scene, or choose another object."));
    else
      panel_->show_failure(tr("No object is chosen."),
                           tr("Add a box, cylinder or sphere to the scene."));
    return;
  }
  // The free-space moves plan as the Planner panel would (planner, budget, margin, seed), the
  // straight ones with its Cartesian step sizes.
  const panels::PlannerPanel& planner = *planning_.planner_panel();
  PlannerOptions options = planner.options();
  if (planner.random_seed())
    options.seed = std::random_device{}() ^ (std::uint64_t(std::random_device{}()) << 32);
  try {
    options.validate();
  } catch (const Error& error) {
    panel_->show_failure(QString::fromStdString(error.message()),
                         QString::fromStdString(error.hint()));
    return;
  }
  request.pick_place.options = options;
  request.pick_place.straight = straight_stage_options(planner);
  request.velocity_scaling = planner.velocity_scaling();
  request.acceleration_scaling = planner.acceleration_scaling();
  applicable_.reset();
  panel_->set_apply_available(false);
  planned_revision_ = scene_revision_;
  planned_work_ = document_.work_generation();
  panel_->show_message(tr("Planning the pick and place of '%1'…")
                           .arg(QString::fromStdString(request.pick_place.object)));
  worker_->submit(std::move(request));
}

void TaskFeature::cancel() {
  worker_->cancel();
}

void TaskFeature::on_finished(const TaskOutcome& outcome) {
  if (!outcome.ok) {
    if (outcome.error_code == ErrorCode::Cancelled)
      panel_->show_message(tr("Planning cancelled; nothing changed."));
    else
      panel_->show_failure(outcome.error, outcome.hint);
  } else if (planned_work_ != document_.work_generation()) {
    panel_->show_message(
        tr("Another session was opened or a new one started while planning; nothing was added."));
  } else if (outcome.robot != document_.robot()) {
    panel_->show_message(tr("The robot changed while planning; plan again."));
  } else {
    show_success(outcome);
  }
  emit taskFinished(outcome);
}

void TaskFeature::show_success(const TaskOutcome& outcome) {
  const PickPlaceResult& result = outcome.result;
  panels::TaskSummary summary;
  summary.object = outcome.object;
  summary.grasp = QString::fromStdString(result.grasp.description);
  summary.place_yaw = heading(result.place_pose);
  summary.grasps_tried = result.grasps_tried;
  summary.planning_ms = result.planning_time_ms;
  summary.duration = outcome.timed.trajectory.duration();
  summary.seed = outcome.seed;
  for (const std::string& note : result.notes) summary.notes << QString::fromStdString(note);
  for (const std::string& note : outcome.timed.notes) summary.notes << QString::fromStdString(note);
  panel_->show_result(summary, stage_rows(outcome));

  const int index = document_.add_trajectory(tr("Pick %1").arg(outcome.object),
                                             outcome.timed.trajectory, outcome.scene_changes);
  trajectories_.show_and_play(index);
  // Checked as a plan's trajectory is, each stretch in the scene in force then (in the background:
  // the Trajectories panel says "Validating…" and then the verdict).
  trajectories_.validate(index);
  // Apply only in the scene it was planned in (an edit while planning makes the plan stale).
  if (planned_revision_ == scene_revision_) {
    applicable_ = Applicable{outcome.object, result.final_scene, final_joints(outcome)};
    panel_->set_apply_available(true);
  }
}

void TaskFeature::apply() {
  if (!applicable_) return;
  const Applicable task = *applicable_;
  applicable_.reset();  // once: its scene edit would otherwise read as a stale plan
  panel_->set_apply_available(false);
  const QString what = tr("Pick and place %1").arg(task.object);
  QUndoStack& stack = document_.undo_stack();
  stack.beginMacro(what);
  document_.edit_scene(task.final_scene, what);
  document_.edit_joints(task.final_joints, what);
  stack.endMacro();
  panel_->show_message(
      tr("Applied: '%1' is at its place and the robot where the task ends (Edit → Undo takes it "
         "back).")
          .arg(task.object));
}

}  // namespace kinetic::app
