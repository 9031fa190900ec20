#pragma once
// Pick and place as a chain of stages, the way MoveIt Task Constructor composes it:
//   move to pre-grasp (free planning) → approach (straight line along the grasp's approach) →
//   grasp (attach the object to the gripper) → lift (straight up) → transfer (free planning with
//   the object held, to the pre-place pose) → place (straight down) → release (detach) →
//   retreat (straight back along the approach).
// Grasps come from generate_grasps() and are tried best first, and for each the place pose's
// allowed rotations about world Z, until one whole chain succeeds. Every motion stage's path
// passes the planner's output gates in the scene the stage runs in.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/planning/cartesian_planner.hpp"
#include "engine/planning/plan_control.hpp"
#include "engine/planning/planner.hpp"
#include "engine/scene/planning_scene.hpp"
#include "engine/task/grasp_generation.hpp"
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic {

struct PickPlaceRequest {
  std::string object;                  // an obstacle of the scene (box, cylinder or sphere)
  Pose place_pose = Pose::Identity();  // the object's world pose when placed
  // Rotations of place_pose about world Z (through the object's origin) that are just as good,
  // tried in order after the exact pose: 0 = only the exact pose. Symmetric parts can say 4 (90°
  // steps) or more.
  int place_yaw_steps = 4;
  GripperSpec gripper;
  double approach_distance = 0.10;  // m: pre-grasp stand-off along the approach
  double lift_distance = 0.10;      // m: straight up (world Z) after grasping
  double place_distance = 0.10;     // m: straight down (world Z) onto the place pose
  double retreat_distance = 0.10;   // m: back along the approach after releasing
  std::string attach_link;          // "" = the planning group's tip link
  // Links allowed to touch the held object besides attach_link: nullopt = task_touch_links() (what
  // moves with attach_link, and the housings that reach its origin); empty = none, only
  // attach_link may touch it.
  std::optional<std::vector<std::string>> touch_links;
  PlannerOptions options = default_preset();  // for the free-space stages (planner type included)
  // For the straight stages (approach, lift, place, retreat): step sizes, jump threshold,
  // closed-form IK, margin (0: the task's contacts are allowed in each stage's scene, so a plain
  // contact check). They always avoid collisions: avoid_collisions = false is refused.
  CartesianOptions straight;
  int max_grasps = 16;  // candidates tried at most
};

struct TaskStage {
  enum class Kind { Move, Approach, Grasp, Lift, Transfer, Place, Release, Retreat };
  Kind kind = Kind::Move;
  std::string name;     // "move to pre-grasp", "approach", "grasp", ...
  JointPath path;       // model order; empty for Grasp and Release (they do not move)
  PlanningScene scene;  // the scene the stage runs in; for Grasp / Release: the scene after it
  bool moves() const { return kind != Kind::Grasp && kind != Kind::Release; }
};

const char* to_string(TaskStage::Kind kind);  // "move", "approach", "grasp", ...

struct PickPlaceResult {
  std::vector<TaskStage> stages;  // the eight stages in order
  Grasp grasp;                    // the grasp used
  Pose place_pose;                // the place pose used (place_pose or one of its rotations)
  PlanningScene final_scene;      // the object released at place_pose, the request's overrides kept
  JointVector final_state;        // where the retreat ends
  int grasps_tried = 0;
  int grasp_candidates = 0;  // grasps there were to try (at most max_grasps)
  double planning_time_ms = 0.0;
  std::vector<std::string> notes;  // why earlier candidates failed, one line each
};

// Plans the whole chain from `start` (model order) for `planner`'s robot, group and scene. The
// planner's scene is restored before returning. Throws:
//   Error(InvalidValue): unknown object, an attached object, bad distances, gripper or straight
//     options (naming the field; straight.avoid_collisions = false too), no span of the object the
//     gripper fits; Error(MissingLink): an unknown attach or touch link;
//     Error(Unsupported): a mesh or half-space object (no grasps for it); Error(InCollision): the
//     place pose overlaps another obstacle at every allowed rotation; Error(Unreachable): no
//     candidate succeeded — the message gives the number tried and the most common reason per
//     stage ("approach stopped at 40%: IK failed ..."), so the user can move the object, the place
//     pose or the robot;
//   Error(Cancelled) when control cancels; what check_start throws for a bad start.
// Contacts that are part of the task are allowed while they happen: the gripper's touch links
// with the object from the approach to the release (and on the retreat, which starts there), and
// the object with what it rests on (any obstacle within 1 mm of it at the pick, and at the place
// pose) from the grasp to the end of the lift and from the place to the release.
PickPlaceResult plan_pick_and_place(Planner& planner, const JointVector& start,
                                    const PickPlaceRequest& request,
                                    const PlanControl& control = {});

// The whole task as one trajectory a controller can run: each motion stage timed time-optimally
// within `limits` (their scalings apply), starting and ending at rest, joined end to end
// (join_at_rest). stage_start[i] is the time stage i begins (Grasp / Release: the instant they
// happen, between the motions around them).
// Given `checker` (the robot's), each stage's corners are kept clear in the stage's own scene, as
// time_optimal_clear keeps a plan's (the blends pass up to 0.05 rad off the planned path); the
// checker is left holding the last moving stage's scene. Without it the corners are not checked.
struct TimedPickPlace {
  Trajectory trajectory;
  std::vector<double> stage_start;
  std::vector<std::string> notes;  // stages whose corners were narrowed, one line each
};
TimedPickPlace time_pick_and_place(const PickPlaceResult& result, const TrajectoryLimits& limits,
                                   CollisionChecker* checker = nullptr);

// The links a pick and place lets touch the held object when the request names none: those of
// default_touch_links(), and the links whose housing reaches `link`'s origin at q (on a bare
// flange such as the UR5e's tool0, the wrist body whose housing ends in the flange face: link5).
// `checker` is the robot's (its scene is left as it is).
std::vector<std::string> task_touch_links(const CollisionChecker& checker, const JointVector& q,
                                          const std::string& link,
                                          const std::vector<int>& group_variables);

// The links allowed to touch an object attached to `link` when none are named: the links that move
// with `link` without the group's joints moving them (links fixed to it, a gripper's hand and
// fingers below it), and the links of an SRDF end effector mounted on one of those. Only links with
// collision geometry; `link` itself left out (the checker always lets it touch the object).
std::vector<std::string> default_touch_links(const RobotModel& robot, const std::string& link,
                                             const std::vector<int>& group_variables);

}  // namespace kinetic
