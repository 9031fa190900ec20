#include "engine/task/stage_chain.hpp"

#include <algorithm>
#include <cstdio>

#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/planning/path_processing.hpp"
#include "engine/planning/state_diagnostics.hpp"
#include "engine/task/scene_switch.hpp"
#include "engine/task/task_contacts.hpp"

namespace kinetic::task_detail {

namespace {

std::string describe(const Error& error) {
  return error.message() + (error.hint().empty() ? "" : " (" + error.hint() + ")");
}

// Goals and Cartesian targets are in the group's base link; the scene is in the world.
Pose to_base(const TaskContext& context, const Pose& world) {
  return context.base_in_world.inverse() * world;
}
Pose tcp_in_world(const TaskContext& context, const JointVector& q) {
  return context.base_in_world * context.planner.tcp_pose(q);
}

Pose raised(Pose pose, double height) {
  pose.translation().z() += height;
  return pose;
}

// The planner's errors become the stage's failure; cancelling goes through.
template <typename Plan>
auto attempt(const char* stage, Plan&& plan) {
  try {
    return plan();
  } catch (const Error& error) {
    if (error.code() == ErrorCode::Cancelled) throw;
    throw StageFailure{stage, describe(error)};
  }
}

// To the target pose, by whichever IK solution the planner reaches. The planner returns the first
// solution it connects to, which may be another arm configuration (the elbow flipped over) even
// when one on the arm's own branch is a short detour away; so the nearest solution in joint space
// is planned to as well, and the shorter motion kept. That is the motion an operator expects.
JointPath free_motion(TaskContext& context, const char* stage, const PlanningScene& scene,
                      const JointVector& from, const Pose& target_world) {
  check_cancel(context.control);
  use_scene(context.planner, scene);
  // Candidates fail as a matter of course (the next grasp is tried): no failure is explained by
  // a search without obstacles, which would cost each at least 50 ms.
  PlannerOptions quiet = context.request.options;
  quiet.explain_failure = false;
  const PlanResult any = attempt(stage, [&] {
    return context.planner.plan(from, PoseGoal{to_base(context, target_world)}, quiet,
                                context.control);
  });
  const JointVector& nearest = any.goal_candidates.front();  // sorted nearest to `from` first
  if (any.goal_candidates.size() < 2 || (any.path.back() - nearest).norm() < 1e-9) return any.path;
  check_cancel(context.control);
  try {
    // A branch the arm cannot reach from here would cost the whole budget: it gets ten times the
    // iterations the first motion took (at least 200), within the request's budget. Counted in
    // iterations, not milliseconds, so that a seeded task plans the same on a busy machine.
    PlannerOptions options = quiet;
    options.max_iterations = std::min(options.max_iterations, std::max(200, 10 * any.iterations));
    JointPath own_branch =
        context.planner.plan(from, JointGoal{nearest}, options, context.control).path;
    if (path_length(own_branch) < path_length(any.path)) return own_branch;
  } catch (const Error& error) {
    if (error.code() == ErrorCode::Cancelled) throw;  // otherwise the first motion stands
  }
  return any.path;
}

// A straight TCP line, all of it, with the request's line settings: contacts the task allows are
// in `scene` (by default no extra margin).
JointPath straight_motion(TaskContext& context, const char* stage, const PlanningScene& scene,
                          const JointVector& from, const Pose& target_world) {
  check_cancel(context.control);
  use_scene(context.planner, scene);
  const CartesianResult line = attempt(stage, [&] {
    return context.planner.plan_cartesian(
        from, {CartesianSegment::line_to(to_base(context, target_world))}, context.request.straight,
        context.control);
  });
  if (!line.complete()) {
    char percent[48];
    std::snprintf(percent, sizeof percent, "stopped at %.0f%%: ", line.fraction * 100.0);
    std::string reason = percent + line.stop_reason;
    if (!line.joint_at_fault.empty() && reason.find(line.joint_at_fault) == std::string::npos)
      reason += " (joint '" + line.joint_at_fault + "')";
    throw StageFailure{stage, reason};
  }
  return line.path;
}

TaskStage stage(TaskStage::Kind kind, std::string name, JointPath path,
                const PlanningScene& scene) {
  TaskStage s;
  s.kind = kind;
  s.name = std::move(name);
  s.path = std::move(path);
  s.scene = scene;
  return s;
}

// When every IK solution collides: what is in the way where the arm alone would fit (the planner
// names the contacts of the nearest solution, which may be one no arm could take anyway). Usually a
// link that touches the object without being a touch link. "" when the arm alone does not fit.
std::string blocking_contacts(TaskContext& context, const PlanningScene& scene,
                              const Pose& tcp_base) {
  PlanningScene without = scene;
  without.remove_obstacle(context.object.name);
  use_scene(context.planner, without);
  std::vector<JointVector> arm_fits;
  try {
    arm_fits = context.planner.resolve_goal(context.start, PoseGoal{tcp_base},
                                            context.request.options, context.control);
  } catch (const Error& error) {
    if (error.code() == ErrorCode::Cancelled) throw;
    return "";
  }
  use_scene(context.planner, scene);
  CollisionChecker& checker = context.planner.checker();
  const std::vector<Contact> contacts = checker.contacts(arm_fits.front());
  if (!contacts.empty()) return describe_contacts(contacts);
  DistanceOptions options;
  options.self = false;  // the arm alone fits: the scene is in the way
  const DistanceResult closest = checker.min_distance(arm_fits.front(), options);
  if (!closest.found) return "";
  char text[256];
  std::snprintf(text, sizeof text,
                "'%s' with '%s' (%.1f mm apart: within the collision checker's margin)",
                closest.body_a.c_str(), closest.body_b.c_str(), closest.distance * 1000.0);
  return text;
}

void require_reachable(TaskContext& context, const char* stage, const PlanningScene& scene,
                       const Pose& tcp_world) {
  const Pose tcp_base = to_base(context, tcp_world);
  use_scene(context.planner, scene);
  try {
    context.planner.resolve_goal(context.start, PoseGoal{tcp_base}, context.request.options,
                                 context.control);
  } catch (const Error& error) {
    if (error.code() == ErrorCode::Cancelled)
      throw;  // Ctrl-C or a newer request: not this stage's fault
    if (error.code() != ErrorCode::InCollision) throw StageFailure{stage, describe(error)};
    const std::string blocking = blocking_contacts(context, scene, tcp_base);
    if (blocking.empty()) throw StageFailure{stage, describe(error)};
    const bool touches_object = blocking.find("'" + context.object.name + "'") != std::string::npos;
    throw StageFailure{stage, "every IK solution collides; where the arm alone fits: " + blocking +
                                  (touches_object ? " (a link that holds the object belongs in "
                                                    "PickPlaceRequest::touch_links)"
                                                  : "")};
  }
}

}  // namespace

void check_cancel(const PlanControl& control) {
  if (control.cancel && control.cancel->load())
    throw Error(ErrorCode::Cancelled, "pick and place planning was cancelled");
}

void require_grasp_reachable(TaskContext& context, const Grasp& grasp) {
  require_reachable(context, "grasp pose", context.approach_scene,
                    context.object.pose * grasp.object_to_tcp);
}

void require_place_reachable(TaskContext& context, const Grasp& grasp, const PlaceTarget& place) {
  require_reachable(context, "place pose", place.check_scene, place.pose * grasp.object_to_tcp);
}

PickStages plan_pick(TaskContext& context, const Grasp& grasp) {
  const PickPlaceRequest& request = context.request;
  const Pose grasp_tcp = context.object.pose * grasp.object_to_tcp;
  // Back along the approach (the TCP's +Z) by the stand-off.
  const Pose pre_grasp = grasp_tcp * Eigen::Translation3d(0.0, 0.0, -request.approach_distance);
  PickStages pick;
  JointPath move =
      free_motion(context, "move to pre-grasp", context.original, context.start, pre_grasp);
  pick.stages.push_back(stage(TaskStage::Kind::Move, "move to pre-grasp", move, context.original));
  JointPath approach =
      straight_motion(context, "approach", context.approach_scene, move.back(), grasp_tcp);
  pick.stages.push_back(
      stage(TaskStage::Kind::Approach, "approach", approach, context.approach_scene));

  // The object now moves with the link; the gripper may touch it as an attached object's touch
  // links, and it may touch what it stood on until it is lifted off.
  const JointVector& at_grasp = approach.back();
  PlanningScene lifting = context.approach_scene;
  lifting.attach_obstacle(context.object.name, context.attach_link,
                          compute_link_pose(context.planner.model(), at_grasp, context.attach_link),
                          context.touch_links);
  restore_with(lifting, context.object.name, context.gripper_links, context.original);
  allow_with(lifting, context.object.name, context.pick_supports);
  pick.stages.push_back(stage(TaskStage::Kind::Grasp, "grasp", {}, lifting));

  const Pose lifted = raised(tcp_in_world(context, at_grasp), request.lift_distance);
  JointPath lift = straight_motion(context, "lift", lifting, at_grasp, lifted);
  pick.stages.push_back(stage(TaskStage::Kind::Lift, "lift", lift, lifting));

  pick.held = lifting;
  restore_with(pick.held, context.object.name, context.pick_supports, context.original);
  return pick;
}

std::vector<TaskStage> plan_place(TaskContext& context, const Grasp& grasp, const PickStages& pick,
                                  const PlaceTarget& place) {
  const PickPlaceRequest& request = context.request;
  const std::string& name = context.object.name;
  const Pose place_tcp = place.pose * grasp.object_to_tcp;
  std::vector<TaskStage> stages;
  const JointVector& lifted = pick.stages.back().path.back();
  JointPath transfer = free_motion(context, "transfer", pick.held, lifted,
                                   raised(place_tcp, request.place_distance));
  stages.push_back(stage(TaskStage::Kind::Transfer, "transfer to pre-place", transfer, pick.held));

  PlanningScene placing = pick.held;
  allow_with(placing, name, place.supports);
  JointPath down = straight_motion(context, "place", placing, transfer.back(), place_tcp);
  stages.push_back(stage(TaskStage::Kind::Place, "place", down, placing));

  // Released where it was meant to go: the place pose itself, not the pose the held object
  // reached (IK tolerance); the gripper still touches it until it has backed away.
  const JointVector& at_place = down.back();
  PlanningScene released = placing;
  released.detach(name, compute_link_pose(context.planner.model(), at_place, context.attach_link));
  released.move_obstacle(name, place.pose);
  restore_with(released, name, place.supports, context.original);
  allow_with(released, name, context.gripper_links);
  stages.push_back(stage(TaskStage::Kind::Release, "release", {}, released));

  const Pose backed_off =
      tcp_in_world(context, at_place) * Eigen::Translation3d(0.0, 0.0, -request.retreat_distance);
  JointPath retreat = straight_motion(context, "retreat", released, at_place, backed_off);
  stages.push_back(stage(TaskStage::Kind::Retreat, "retreat", retreat, released));

  // Where the retreat ends the gripper must be clear of the object without the task's allowance.
  PlanningScene after = context.original;
  after.move_obstacle(name, place.pose);
  use_scene(context.planner, after);
  if (auto problem = collision_problem(context.planner.checker(), retreat.back(),
                                       "the state after the retreat")) {
    char distance[64];
    std::snprintf(distance, sizeof distance, "; retreat_distance %.3g m does not take",
                  request.retreat_distance);
    throw StageFailure{"retreat",
                       describe(*problem) + distance + " the gripper clear of the object"};
  }
  return stages;
}

}  // namespace kinetic::task_detail
