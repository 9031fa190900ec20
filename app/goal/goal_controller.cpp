#include "app/goal/goal_controller.hpp"

#include <algorithm>
#include <utility>

#include "app/document/studio_document.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "engine/kinematics/group_end_effectors.hpp"

namespace kinetic::app {

GoalController::GoalController(StudioDocument& document, QObject* parent)
    : QObject(parent), document_(document) {
  connect(&worker_, &IkWorker::solved, this, &GoalController::on_solved);
  connect(&worker_, &IkWorker::failed, this, &GoalController::on_failed);
  connect(&document_, &StudioDocument::robotChanged, this, &GoalController::on_robot_changed);
  connect(&document_, &StudioDocument::sceneChanged, this,
          [this] { worker_.set_scene(document_.scene()); });
  connect(&document_, &StudioDocument::goalChanged, this, &GoalController::on_goal_changed);
  // The world pose of the base (and the current TCP when there is no goal) follows the joints.
  connect(&document_, &StudioDocument::jointsChanged, this, &GoalController::shownPoseChanged);
  worker_.set_scene(document_.scene());
  on_robot_changed();
}

GoalController::~GoalController() = default;

void GoalController::on_robot_changed() {
  // A group the new robot lacks: its default until the Planner panel chooses one of its own.
  const RobotModelPtr robot = document_.robot();
  bool group_dropped = false;
  if (robot && !group_.empty()) {
    const std::vector<std::string> names = robot->group_names();
    group_dropped = std::find(names.begin(), names.end(), group_) == names.end();
    if (group_dropped) group_.clear();
  }
  worker_.set_robot(robot);
  make_kinematics();
  if (group_dropped) emit groupChanged();
  emit shownPoseChanged();
}

void GoalController::make_kinematics() {
  kinematics_.reset();
  effectors_.clear();
  requested_pose_.reset();
  forget_answers_in_flight();
  solution_index_ = solution_count_ = 0;
  const RobotModelPtr robot = document_.robot();
  worker_.set_group(group_);
  if (!robot) {
    end_effector_.clear();
    return;
  }
  QString reason;
  try {
    kinematics_ = std::make_unique<TcpKinematics>(robot, group_);
    end_effector_.clear();
    set_status(false, QString());
    return;
  } catch (const std::exception& error) {
    reason = QString::fromUtf8(error.what());
  }
  // Not one chain: a pose for each end effector whose arm is a chain in the group (the hands of
  // two arms), as RViz shows a marker for each.
  try {
    for (const GroupEndEffector& ee : group_end_effectors(robot, robot->group_variables(group_)))
      effectors_.push_back({ee.name, ee.arm, std::make_shared<const TcpKinematics>(robot, ee.arm)});
  } catch (const std::exception&) {
    effectors_.clear();  // the group's own reason below says enough
  }
  if (effectors_.empty()) {
    end_effector_.clear();
    set_status(true, group_.empty() ? tr("No goal gizmo for this robot: %1").arg(reason)
                                    : tr("No goal gizmo for the planning group '%1': %2")
                                          .arg(QString::fromStdString(group_), reason));
    return;
  }
  // The one the goal's pose is for (a session, a group chosen again), else the one active before.
  const GoalState& goal = document_.goal();
  std::size_t active = effectors_.size();
  for (std::size_t i = 0; i < effectors_.size(); ++i)
    if (goal.tcp_pose && effectors_[i].name == goal.end_effector) active = i;
  for (std::size_t i = 0; i < effectors_.size() && active == effectors_.size(); ++i)
    if (effectors_[i].name == end_effector_) active = i;
  if (active == effectors_.size()) active = 0;
  activate_end_effector(active);
  set_status(false, QString());
}

void GoalController::activate_end_effector(std::size_t index) {
  const Effector& effector = effectors_[index];
  end_effector_ = effector.name;
  kinematics_ = std::make_unique<TcpKinematics>(*effector.kinematics);
  worker_.set_group(effector.arm);
  requested_pose_.reset();
  forget_answers_in_flight();
  solution_index_ = solution_count_ = 0;
}

std::vector<std::string> GoalController::end_effectors() const {
  std::vector<std::string> names;
  for (const Effector& effector : effectors_) names.push_back(effector.name);
  return names;
}

void GoalController::set_end_effector(const std::string& name) {
  if (name == end_effector_) return;
  for (std::size_t i = 0; i < effectors_.size(); ++i) {
    if (effectors_[i].name != name) continue;
    activate_end_effector(i);
    if (ik_failed_) set_status(false, QString());
    restate_goal_pose();
    emit groupChanged();
    emit shownPoseChanged();
    return;
  }
}

std::vector<std::pair<std::string, Pose>> GoalController::other_end_effector_poses_world() const {
  std::vector<std::pair<std::string, Pose>> poses;
  const RobotModelPtr robot = document_.robot();
  if (!robot) return poses;
  const GoalState& goal = document_.goal();
  const JointVector& q =
      goal.joints && goal.joints->size() == robot->dof() ? *goal.joints : document_.joints();
  for (const Effector& effector : effectors_) {
    if (effector.name == end_effector_) continue;
    // The base where the robot stands now, as the active gizmo's (a mobile base's goal is drawn
    // from where the base is).
    const TcpKinematics& kinematics = *effector.kinematics;
    poses.emplace_back(effector.name,
                       kinematics.base_in_world(document_.joints()) * kinematics.tcp_in_base(q));
  }
  return poses;
}

void GoalController::set_group(const std::string& group) {
  if (group == group_) return;
  group_ = group;
  make_kinematics();
  restate_goal_pose();
  emit groupChanged();
  emit shownPoseChanged();
}

// The goal's pose is the old chain's TCP in the old chain's base: say where its joints put this
// chain's TCP instead (not an edit of the goal, so not an undo step).
void GoalController::restate_goal_pose() {
  const GoalState& goal = document_.goal();
  const RobotModelPtr robot = document_.robot();
  if (!kinematics_ || !goal.joints || !goal.tcp_pose || goal.joints->size() != robot->dof()) return;
  const Pose pose = kinematics_->tcp_in_base(*goal.joints);
  if ((pose.matrix() - goal.tcp_pose->matrix()).norm() <= 1e-9 &&
      goal.end_effector == end_effector_)
    return;
  GoalState moved = goal;
  moved.tcp_pose = pose;
  moved.end_effector = end_effector_;
  applying_ = true;
  document_.set_goal(moved);
  applying_ = false;
}

void GoalController::on_goal_changed() {
  if (!applying_) {
    // Undo, a loaded session or a panel set the goal: show it rather than our last request.
    requested_pose_.reset();
    forget_answers_in_flight();
    if (ik_failed_) set_status(false, QString());
    // A goal whose pose is for another of the group's end effectors (undo, a session): that one's
    // gizmo becomes the active one.
    const GoalState& goal = document_.goal();
    if (goal.tcp_pose && !goal.end_effector.empty() && goal.end_effector != end_effector_)
      for (std::size_t i = 0; i < effectors_.size(); ++i)
        if (effectors_[i].name == goal.end_effector) {
          activate_end_effector(i);
          emit groupChanged();
        }
  }
  emit shownPoseChanged();
}

std::optional<Pose> GoalController::goal_pose() const {
  if (!kinematics_) return std::nullopt;
  if (requested_pose_) return requested_pose_;
  const GoalState& goal = document_.goal();
  if (goal.tcp_pose && goal.end_effector == end_effector_) return goal.tcp_pose;
  const RobotModelPtr robot = document_.robot();
  if (goal.joints && goal.joints->size() == robot->dof())
    return kinematics_->tcp_in_base(*goal.joints);
  return std::nullopt;
}

std::optional<Pose> GoalController::goal_pose_world() const {
  const auto pose = goal_pose();
  if (!pose) return std::nullopt;
  return base_to_world() * *pose;
}

std::optional<Pose> GoalController::shown_pose() const {
  if (!kinematics_) return std::nullopt;
  if (const auto goal = goal_pose()) return goal;
  return kinematics_->tcp_in_base(document_.joints());
}

Pose GoalController::base_to_world() const {
  return kinematics_ ? kinematics_->base_in_world(document_.joints()) : Pose::Identity();
}

std::optional<Pose> GoalController::shown_pose_world() const {
  const auto pose = shown_pose();
  if (!pose) return std::nullopt;
  return base_to_world() * *pose;
}

void GoalController::move_goal_world(const Pose& pose_in_world) {
  move_goal(base_to_world().inverse() * pose_in_world);
}

void GoalController::move_goal(const Pose& pose_in_base) {
  aim(pose_in_base, false);
}

void GoalController::drag_goal_world(const Pose& pose_in_world) {
  if (!kinematics_) return;
  drag_moved_ = true;
  if (!std::exchange(holding_gesture_, true)) document_.begin_gesture();
  aim(base_to_world().inverse() * pose_in_world, true);
}

void GoalController::end_drag() {
  if (!std::exchange(drag_moved_, false)) return;
  // No pose of ours to count: the goal changed from elsewhere during the drag (undo, a session).
  // The last step's answer counted its solutions already (an analytic solver, or a step the
  // nearest solve could not reach) or there are none (the full solve failed): nothing to add.
  if (requested_pose_ && !(awaiting_ == 0 && (solution_count_ > 0 || ik_failed_)))
    aim(*requested_pose_, false);
  end_gesture_when_answered();
}

void GoalController::end_gesture_when_answered() {
  if (holding_gesture_ && !drag_moved_ && awaiting_ == 0) {
    holding_gesture_ = false;
    document_.end_gesture();
  }
}

void GoalController::aim(const Pose& pose_in_base, bool nearest_only) {
  if (!kinematics_) return;
  // Seed from the goal's joints so a drag stays on the same arm configuration.
  const GoalState& goal = document_.goal();
  const bool goal_usable = goal.joints && goal.joints->size() == document_.robot()->dof();
  cycle_seed_ = goal_usable ? *goal.joints : document_.joints();
  requested_pose_ = pose_in_base;
  request(pose_in_base, cycle_seed_, 0, nearest_only);
  emit shownPoseChanged();
}

void GoalController::cycle(int step) {
  const auto pose = shown_pose();
  if (!pose) return;
  if (cycle_seed_.size() != document_.robot()->dof()) cycle_seed_ = document_.joints();
  requested_pose_ = pose;
  request(*pose, cycle_seed_, solution_index_ + step);
}

void GoalController::request(const Pose& target, const JointVector& seed, int solution_index,
                             bool nearest_only) {
  IkRequest request;
  request.target = target;
  request.seed = seed;
  request.collision_aware = collision_aware_;
  request.solution_index = solution_index;
  request.nearest_only = nearest_only;
  awaiting_ = worker_.request(request);
}

void GoalController::set_collision_aware(bool on) {
  if (collision_aware_ == on) return;
  collision_aware_ = on;
  // Re-solve the shown pose with the new rule so the ghost reflects it.
  if (const auto pose = shown_pose(); pose && document_.goal().joints) {
    requested_pose_ = pose;
    request(*pose,
            cycle_seed_.size() == document_.robot()->dof() ? cycle_seed_ : document_.joints(), 0);
  }
}

void GoalController::goal_from_current() {
  if (!kinematics_) return;
  goal_from_joints(document_.joints(), tr("Goal from current state"));
}

void GoalController::goal_from_joints(const JointVector& q, const QString& what) {
  if (!document_.robot() || q.size() != document_.robot()->dof()) return;
  GoalState goal;
  goal.joints = q;
  if (kinematics_) {
    goal.tcp_pose = kinematics_->tcp_in_base(q);
    goal.end_effector = end_effector_;
  }
  document_.edit_goal(goal, what);
}

void GoalController::current_from_goal() {
  const GoalState& goal = document_.goal();
  if (goal.joints && goal.joints->size() == document_.robot()->dof())
    document_.edit_joints(*goal.joints, tr("Current state from goal"));
}

void GoalController::on_solved(quint64 sequence, const IkAnswer& answer) {
  // An answer to an earlier step of the same drag is shown too (the worker lets a running solve
  // finish): the ghost keeps up on a busy machine, and its joints seed the next solve.
  if (awaiting_ == 0 || sequence < accept_from_ || sequence > awaiting_) return;
  if (sequence == awaiting_) awaiting_ = 0;
  solution_index_ = answer.solution_index;
  solution_count_ = answer.solution_count;
  GoalState goal;
  goal.joints = answer.joints;
  goal.tcp_pose = answer.target;
  goal.end_effector = end_effector_;
  applying_ = true;
  document_.edit_goal(goal);
  applying_ = false;
  end_gesture_when_answered();
  set_status(false, answer.solution_count > 0
                        ? tr("IK ok · solution %1 of %2")
                              .arg(answer.solution_index + 1)
                              .arg(answer.solution_count)
                        : tr("IK ok · nearest solution (all are counted when the drag ends)"));
}

void GoalController::on_failed(quint64 sequence, const QString& reason) {
  if (sequence != awaiting_) return;
  awaiting_ = 0;
  end_gesture_when_answered();
  set_status(true, reason);
}

void GoalController::forget_answers_in_flight() {
  awaiting_ = 0;
  accept_from_ = worker_.latest_request() + 1;
  end_gesture_when_answered();
}

void GoalController::set_status(bool failed, const QString& text) {
  ik_failed_ = failed;
  ik_status_ = text;
  emit ikStatusChanged();
}

}  // namespace kinetic::app
