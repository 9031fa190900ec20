#include "app/headless/pick_place_step_execution.hpp"

#include <cmath>
#include <cstdio>
#include <numbers>

#include "app/headless/interruption.hpp"
#include "app/headless/job_scene_names.hpp"
#include "app/task/task_request.hpp"
#include "engine/core/duration_text.hpp"
#include "engine/planning/path_processing.hpp"
#include "engine/task/pick_place.hpp"

namespace kinetic::app::headless {

namespace {

std::vector<Grasp> grasps_for(const PickPlaceSpec& pick, const Obstacle& object) {
  try {
    return generate_grasps(object.shape, object.pose, pick.request.gripper);
  } catch (const Error& error) {
    throw JobError(pick.field + ".gripper",
                   "cannot hold " + in_quotes(object.name) + ": " + describe(error));
  }
}

// The samples of `trajectory` from `from` to `to` (s). The stages of a pick and place are joined at
// rest, so a stage's span holds its own motion (and, at a join, the resting sample of the next).
Trajectory span_of(const Trajectory& trajectory, double from, double to) {
  constexpr double kSameInstant = 1e-12;
  std::vector<TrajectorySample> samples;
  for (const auto& sample : trajectory.samples())
    if (sample.t >= from - kSameInstant && sample.t <= to + kSameInstant) samples.push_back(sample);
  return Trajectory(trajectory.robot(), trajectory.joint_names(), trajectory.units(), samples);
}

// Each moving stage's part of the timed task, checked against the stage's own scene (the contacts
// the task allows while they happen, the object held from the grasp to the release).
void validate_stages(const PickPlaceResult& task, const TimedPickPlace& timed,
                     const TrajectoryLimits& limits, CollisionChecker& checker,
                     const std::string& what) {
  for (size_t i = 0; i < task.stages.size(); ++i) {
    const TaskStage& stage = task.stages[i];
    const double end =
        i + 1 < timed.stage_start.size() ? timed.stage_start[i + 1] : timed.trajectory.end_time();
    if (!stage.moves() || end <= timed.stage_start[i]) continue;
    checker.set_scene(stage.scene);
    validate_motion(span_of(timed.trajectory, timed.stage_start[i], end), limits, checker,
                    what + ", stage \"" + stage.name + "\"");
  }
}

// Degrees the place pose used is turned from the one asked for, about world Z: [0, 360).
int turned_degrees(const Pose& asked, const Pose& used) {
  const Eigen::Matrix3d turn = used.linear() * asked.linear().transpose();
  const double degrees = std::atan2(turn(1, 0), turn(0, 0)) * 180.0 / std::numbers::pi;
  return static_cast<int>(std::lround(degrees < -0.5 ? degrees + 360.0 : degrees)) % 360;
}

// picked "part" (grasp 1/16: from above, +z end), placed at (0.450, 0.350, 0.035) m turned 90°,
// 8 stages (free space: rrt_connect), 412 waypoints, 18.6 ms planning, 6.42 s
std::string summary(const PickPlaceSpec& pick, const PlannerOptions& options,
                    const PickPlaceResult& task, double duration) {
  const Vector3 at = task.place_pose.translation();
  const int turned = turned_degrees(pick.request.place_pose, task.place_pose);
  const std::string turn_text = turned ? " turned " + std::to_string(turned) + "°" : "";
  size_t waypoints = 0;
  for (const TaskStage& stage : task.stages) waypoints += stage.path.size();
  char text[224];
  std::snprintf(text, sizeof text,
                "placed at (%.3f, %.3f, %.3f) m%s, %zu stages (free space: %s), %zu waypoints, ",
                at.x(), at.y(), at.z(), turn_text.c_str(), task.stages.size(),
                to_string(options.planner), waypoints);
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f s", duration);
  return "picked " + in_quotes(pick.request.object) + " (grasp " +
         std::to_string(task.grasps_tried) + "/" + std::to_string(task.grasp_candidates) + ": " +
         task.grasp.description + "), " + text + duration_text(task.planning_time_ms) +
         " planning, " + seconds;
}

}  // namespace

void check_pick_place_step(const StepSpec& step, const RobotModel& robot, PlanningScene& scene) {
  const PickPlaceSpec& pick = *step.pick_place;
  const PickPlaceRequest& request = pick.request;
  const Obstacle& object = require_obstacle(scene, request.object, pick.field + ".object",
                                            "a pick and place starts with it standing in the "
                                            "scene: release it with a \"detach\" step first");
  const Shape::Type type = object.shape.type;
  if (type != Shape::Type::Box && type != Shape::Type::Cylinder && type != Shape::Type::Sphere)
    throw JobError(pick.field + ".object",
                   in_quotes(request.object) + " is a " +
                       (type == Shape::Type::Mesh ? "mesh" : "half-space") +
                       ": pick and place grasps boxes, cylinders and spheres");
  if (!request.attach_link.empty())
    require_link(robot, request.attach_link, pick.field + ".attach_link");
  if (request.touch_links)
    for (size_t i = 0; i < request.touch_links->size(); ++i)
      require_link(robot, (*request.touch_links)[i],
                   pick.field + ".touch_links[" + std::to_string(i) + "]");
  grasps_for(pick, object);
  scene.move_obstacle(request.object, request.place_pose);
}

StepResult plan_pick_place_step(Planner& planner, const StepSpec& step, const JointVector& q,
                                const TrajectoryLimits& limits, const std::string& what) {
  const PickPlaceSpec& pick = *step.pick_place;
  PickPlaceRequest request = pick.request;
  request.options = step.options;
  request.straight = step.cartesian_options;
  const PlanningScene before = planner.scene();
  PlanControl control;
  control.cancel = &interrupt_requested();
  stop_if_interrupted();
  PickPlaceResult task;
  try {
    task = plan_pick_and_place(planner, q, request, control);
  } catch (const Error& error) {
    if (error.code() == ErrorCode::Cancelled) stop_if_interrupted();
    throw JobFailure(kExitPlanningFailed, what + ": pick and place failed: " + describe(error));
  }
  TrajectoryLimits scaled = limits;
  scaled.velocity_scaling = step.velocity_scaling.value_or(limits.velocity_scaling);
  scaled.acceleration_scaling = step.acceleration_scaling.value_or(limits.acceleration_scaling);
  TimedPickPlace timed;
  try {
    timed = time_pick_and_place(task, scaled, &planner.checker());
  } catch (const Error& error) {
    throw JobFailure(kExitPlanningFailed,
                     what + ": time_optimal timing failed: " + describe(error));
  }
  validate_stages(task, timed, scaled, planner.checker(), what);
  planner.set_scene(before);

  StepResult out;
  out.name = step.name;
  out.trajectory = timed.trajectory;
  for (const TaskStage& stage : task.stages)
    if (stage.moves()) out.path_length += path_length(stage.path);
  out.end = task.final_state;
  out.scene = task.final_scene;
  for (const SceneChange& change : task_scene_changes(task, timed, before))
    out.scenes.push_back({change.time, change.scene});
  out.task = summary(pick, request.options, task, out.trajectory.duration());
  out.plan.notes = timed.notes;  // narrowed corners, printed as warnings like a motion's
  return out;
}

}  // namespace kinetic::app::headless
