#pragma once
// Planner: the facade the studio and the headless runner use. It holds a robot, a planning scene
// and a planning group; plan() checks start and goal (throwing kinetic::Error that names the
// joints out of limits or the colliding links), resolves the goal (collision-aware IK over all
// analytic solutions or several numeric restarts), runs the chosen planner, shortcuts and
// smooths, and passes the result through the two output gates (limits, continuous collision).
//
// One Planner per thread (it owns a CollisionChecker). The PRM roadmap is kept between queries
// and dropped when the scene changes.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/ik_solver.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/planning/cartesian_planner.hpp"
#include "engine/planning/path_constraints.hpp"
#include "engine/planning/plan_control.hpp"
#include "engine/planning/planner_options.hpp"
#include "engine/planning/planning_goal.hpp"
#include "engine/scene/planning_scene.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

class Roadmap;
class PlanningSpace;
struct SearchOutcome;

struct PlanResult {
  JointPath path;                    // model order, full configurations; passed both gates
  std::string planner;               // e.g. "rrt_connect"
  double planning_time_ms = 0.0;     // whole call: checks, IK, search, post-processing, gates
  double search_time_ms = 0.0;       // the planner's search alone
  double postprocess_time_ms = 0.0;  // shortcutting and smoothing
  double validation_time_ms = 0.0;   // the two output gates
  int iterations = 0;
  int tree_size = 0;           // nodes in the trees / roadmap
  double length_before = 0.0;  // joint-space length of the raw path
  double length_after = 0.0;   // ... after shortcutting and smoothing
  double margin_used = 0.0;    // m; lower than asked when start or goal sat inside the margin
  std::vector<JointVector> goal_candidates;  // the goal configurations searched for
  std::vector<std::string> notes;            // non-fatal remarks (margin reduced, fallback used)
};

class Planner {
 public:
  // group "" = the robot's first planning group, of any shape. Throws Error(InvalidValue) for an
  // unknown group.
  explicit Planner(RobotModelPtr model, const PlanningScene& scene = {},
                   const std::string& group = "");
  ~Planner();
  Planner(const Planner&) = delete;
  Planner& operator=(const Planner&) = delete;

  const RobotModel& model() const { return *model_; }
  const std::string& group() const { return group_; }
  const std::vector<int>& group_variables() const { return variables_; }
  // Whether the group is one chain (an arm): pose, relative, Cartesian and constrained goals need
  // one. Any other group (two arms, an arm and its fingers, a base and an arm) plans joint-space
  // goals, and pose goals of its end effectors (end_effectors()).
  bool has_chain() const { return chain_.has_value(); }
  // The group's chain; Error(Unsupported) naming the group's end effectors when it has none.
  const KinematicChain& chain() const;
  // SRDF end effectors whose arm (parent group) is a chain inside this group: what a PoseGoal's
  // end_effector may name.
  std::vector<std::string> end_effectors() const;

  void set_scene(const PlanningScene& scene);  // drops the PRM roadmap
  const PlanningScene& scene() const { return scene_; }
  CollisionChecker& checker() { return checker_; }

  // A search that finds no path throws Error(Timeout), saying whether the obstacles block the
  // way or the robot's own links wall the start or the goal in (a search with the obstacles
  // ignored, on a budget of its own: a quarter of timeout_ms, 50 ms to 1 s).
  PlanResult plan(const JointVector& start, const PlanningGoal& goal,
                  const PlannerOptions& options = default_preset(),
                  const PlanControl& control = {});

  // As plan(), keeping the path constraints at every waypoint (RRT-Connect with projection). The
  // path is dense; shortcuts are walks on the constraint set (shortcut_constrained), and it is not
  // smoothed. Start and goal must satisfy the constraints (Error(InvalidValue) says which is
  // violated and by how much).
  PlanResult plan_constrained(const JointVector& start, const PlanningGoal& goal,
                              const PathConstraints& constraints,
                              const PlannerOptions& options = default_preset(),
                              const PlanControl& control = {});

  // Straight lines and arcs of the TCP (see cartesian_planner.hpp) with this planner's scene.
  CartesianResult plan_cartesian(const JointVector& start,
                                 const std::vector<CartesianSegment>& segments,
                                 const CartesianOptions& options = {},
                                 const PlanControl& control = {});

  // Throws what plan() would throw for this start (OutOfLimits / InCollision naming the cause).
  void check_start(const JointVector& start);
  // Valid goal configurations (model order) for a goal from a start, best first; throws
  // Unreachable / OutOfLimits / InCollision with the reason when there are none; Cancelled once
  // control.cancel is raised while the IK runs.
  std::vector<JointVector> resolve_goal(const JointVector& start, const PlanningGoal& goal,
                                        const PlannerOptions& options = default_preset(),
                                        const PlanControl& control = {});
  // TCP pose at a configuration (model order), in the group's base link.
  Pose tcp_pose(const JointVector& q) const;

  int roadmap_size() const;  // PRM nodes kept (0 when none)

 private:
  // A chain that reaches pose goals, with its IK solver (made when first used).
  struct Reach {
    std::string group;  // the group the chain and its solver are made from
    KinematicChain chain;
    IkSolverPtr ik;
  };
  std::vector<JointVector> ik_candidates(Reach& reach, const JointVector& start, const Pose& target,
                                         const PlannerOptions& options, const PlanControl& control,
                                         std::string& failure);
  IkSolverPtr ik_solver();
  Reach& reach(const std::string& end_effector);  // "" = the group's own chain
  // Throws when the start leaves the bounds (naming the link); drops goals that do, throwing
  // when none is left.
  std::vector<JointVector> keep_inside_workspace(const JointVector& start,
                                                 std::vector<JointVector> goals,
                                                 const WorkspaceBounds& workspace);
  PlanResult plan_impl(const JointVector& start, const PlanningGoal& goal,
                       const PathConstraints* constraints, const PlannerOptions& options,
                       const PlanControl& control);
  // One search of options.planner (or of the constrained planner, given a projector) in `space`.
  SearchOutcome search_at(PlanningSpace& space, const ConstraintProjector* projector,
                          const JointVector& start, const JointVector& start_g,
                          const std::vector<JointVector>& goals, const PlannerOptions& options,
                          SearchClock& clock);

  RobotModelPtr model_;
  std::string group_;
  std::vector<int> variables_;
  std::optional<KinematicChain> chain_;
  std::map<std::string, Reach> reaches_;  // by end effector ("" = the group's chain)
  PlanningScene scene_;
  CollisionChecker checker_;
  IkSolverPtr ik_;
  std::unique_ptr<Roadmap> roadmap_;
  double roadmap_margin_ = -1.0, roadmap_resolution_ = -1.0;
  JointVector roadmap_template_;
};

}  // namespace kinetic
