#pragma once
// One pick-and-place candidate (a grasp and a place pose) planned stage by stage (internal to
// plan_pick_and_place). A stage that fails throws StageFailure saying which and why; the caller
// records it and tries the next candidate.
#include <string>
#include <vector>

#include "engine/task/pick_place.hpp"
#include "engine/task/task_contacts.hpp"

namespace kinetic::task_detail {

// What every candidate of one request shares.
struct TaskContext {
  Planner& planner;
  const PickPlaceRequest& request;
  const PlanControl& control;
  JointVector start;
  PlanningScene original;  // the request's scene
  Obstacle object;         // as the request's scene has it
  std::string attach_link;
  std::vector<std::string> touch_links;    // resolved (task_touch_links when the request has none)
  std::vector<std::string> gripper_links;  // attach_link and touch_links: they touch the object
  Pose base_in_world = Pose::Identity();   // the planning group's base link (goals are in it)
  std::vector<std::string> pick_supports;  // obstacles the object rests on where it is
  PlanningScene approach_scene;            // original, the gripper allowed to touch the object
  ObstacleBodies bodies;                   // original's obstacles, for contact queries
};

// One allowed rotation of the place pose, with what the object rests on there.
struct PlaceTarget {
  Pose pose = Pose::Identity();
  std::string label;  // "place pose as given", "place pose turned 90°"
  std::vector<std::string> supports;
  PlanningScene check_scene;  // the object at the pose, the gripper allowed to touch it
};

struct StageFailure {
  std::string stage;   // "approach", "place pose", ...
  std::string reason;  // from the planner's error or the Cartesian stop reason
};

// Throws Error(Cancelled) once the caller asked to stop.
void check_cancel(const PlanControl& control);

// Cheap rejections before anything is planned: a collision-free IK solution at the grasp TCP and
// at the place TCP. Throw StageFailure ("grasp pose" / "place pose").
void require_grasp_reachable(TaskContext& context, const Grasp& grasp);
void require_place_reachable(TaskContext& context, const Grasp& grasp, const PlaceTarget& place);

// Move to pre-grasp, approach, grasp, lift.
struct PickStages {
  std::vector<TaskStage> stages;
  PlanningScene held;  // the object attached, the request's overrides for its supports back
};
PickStages plan_pick(TaskContext& context, const Grasp& grasp);
// Transfer, place, release, retreat, from where the pick ends.
std::vector<TaskStage> plan_place(TaskContext& context, const Grasp& grasp, const PickStages& pick,
                                  const PlaceTarget& place);

}  // namespace kinetic::task_detail
