#pragma once
// GoalController: the goal TCP pose as the user moves it (gizmo drag, typed pose, solution
// cycling) and the IK that turns it into goal joints. The pose it shows follows the user at once,
// before IK answers and after IK fails (never snapping back); each answer becomes an undoable
// goal edit (a drag's answers merge into one step), a failure keeps the last goal joints and
// reports the engine's reason. The pose is the TCP of one planning group (the Planner panel's);
// for a group that is not one chain (two arms), of one of its end effectors, each of which has a
// gizmo of its own (the active one moves the goal and fills the Goal panel).
#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/goal/collision_aware_ik_setting.hpp"
#include "app/goal/ik_worker.hpp"
#include "engine/core/types.hpp"

namespace kinetic::app {

class StudioDocument;
class TcpKinematics;

class GoalController : public QObject {
  Q_OBJECT
 public:
  explicit GoalController(StudioDocument& document, QObject* parent = nullptr);
  ~GoalController() override;

  // The TCP pose to show: the pose last asked for, else the goal's, else the current TCP.
  // Base = the planning group's base link (GoalState::tcp_pose's frame); world = root link.
  // nullopt when the robot has no planning group.
  std::optional<Pose> shown_pose() const;
  std::optional<Pose> shown_pose_world() const;
  Pose base_to_world() const;
  // The goal itself, without shown_pose()'s fallback to the current TCP: the pose last asked for,
  // else the goal's TCP pose, else where the goal joints put the TCP; nullopt when there is none
  // (what the Teleop panel's Goal input follows).
  std::optional<Pose> goal_pose() const;
  std::optional<Pose> goal_pose_world() const;

  // Asks IK for a new TCP pose and every solution it has (a typed pose: the Goal panel counts
  // them); returns at once.
  void move_goal(const Pose& pose_in_base);
  void move_goal_world(const Pose& pose_in_world);
  // A step of a gizmo drag: IK answers only the solution nearest the goal's joints (the previous
  // step's), so the arm's configuration stays continuous and a 7-DOF arm's step costs one numeric
  // solve instead of a sweep over its solutions; solution_count() is 0 until end_drag().
  void drag_goal_world(const Pose& pose_in_world);
  // The drag is over: a drag that moved the goal has its last pose solved in full, nearest the
  // goal's joints first (the arm stays put), so "solution n of m" and cycling are right.
  void end_drag();

  // The planning group whose chain the gizmo, the pose and IK use ("" = the robot's first). The
  // goal keeps its joints; its TCP pose is where they put the new group's TCP. A group without a
  // chain has no gizmo, and the IK status says why.
  void set_group(const std::string& group);
  const std::string& group() const { return group_; }

  // A group that is not one chain: the SRDF end effectors its pose goals can name (their arms are
  // chains in it), one gizmo each; empty for a chain group. The active one is what the pose, the
  // IK and the Goal panel refer to (the first at first, or the one the goal's pose is for).
  std::vector<std::string> end_effectors() const;
  const std::string& end_effector() const { return end_effector_; }
  // Makes another end effector active: the goal keeps its joints, its TCP pose becomes where they
  // put this one (not an undo step). Unknown names are ignored. Emits groupChanged.
  void set_end_effector(const std::string& name);
  // Where the goal (else the current joints) puts each of the other end effectors, world frame.
  std::vector<std::pair<std::string, Pose>> other_end_effector_poses_world() const;

  void set_collision_aware(bool on);
  bool collision_aware() const { return collision_aware_; }
  void next_solution() { cycle(+1); }
  void previous_solution() { cycle(-1); }
  void goal_from_current();
  void current_from_goal();
  // The goal at these joints, with the TCP pose they put it at (where the robot has a planning
  // group): one undo step named `what`. Ignored when q does not fit the robot.
  void goal_from_joints(const JointVector& q, const QString& what);

  bool ik_failed() const { return ik_failed_; }
  const QString& ik_status() const { return ik_status_; }
  int solution_index() const { return solution_index_; }
  int solution_count() const { return solution_count_; }
  bool ik_busy() const { return awaiting_ != 0; }
  const TcpKinematics* kinematics() const { return kinematics_.get(); }
  IkWorker& worker() { return worker_; }

 signals:
  void shownPoseChanged();
  void ikStatusChanged();
  // The chain the pose is of changed: another group, or another of its end effectors.
  void groupChanged();

 private:
  void on_robot_changed();
  // The group's chain for the robot (or its end effectors' arms), or the status saying why there
  // is none.
  void make_kinematics();
  // Switches the pose, IK and gizmo to this end effector (an index into effectors_).
  void activate_end_effector(std::size_t index);
  // The goal's pose re-expressed for the active chain (not an undo step).
  void restate_goal_pose();
  void on_goal_changed();
  // A new pose from the user: seeded by the goal's joints. nearest_only: IkRequest's.
  void aim(const Pose& pose_in_base, bool nearest_only);
  void request(const Pose& target, const JointVector& seed, int solution_index,
               bool nearest_only = false);
  void cycle(int step);
  void on_solved(quint64 sequence, const IkAnswer& answer);
  void on_failed(quint64 sequence, const QString& reason);
  void set_status(bool failed, const QString& text);

  StudioDocument& document_;
  IkWorker worker_;
  std::unique_ptr<TcpKinematics> kinematics_;
  std::string group_;
  struct Effector {
    std::string name, arm;
    std::shared_ptr<const TcpKinematics> kinematics;
  };
  std::vector<Effector> effectors_;     // the group's end effectors when it is not one chain
  std::string end_effector_;            // the active one ("" for a chain group)
  std::optional<Pose> requested_pose_;  // in base; cleared when the goal changes from elsewhere
  JointVector cycle_seed_;              // the seed the solution order refers to
  bool collision_aware_ = kCollisionAwareIkByDefault;
  bool applying_ = false;           // our own goal edit is being applied
  bool drag_moved_ = false;         // a drag step was asked for since the last end_drag()
  // The document gesture a drag opened, held until the answers to its steps are in (the last
  // one comes after the release): the drag and its answers are one undo step.
  bool holding_gesture_ = false;
  void end_gesture_when_answered();
  quint64 awaiting_ = 0;            // sequence of the newest request in flight (0: none)
  quint64 accept_from_ = 0;         // answers to earlier requests are ignored
  void forget_answers_in_flight();  // the robot, group or goal changed under them
  bool ik_failed_ = false;
  QString ik_status_;
  int solution_index_ = 0, solution_count_ = 0;
};

}  // namespace kinetic::app
