#pragma once
// Running a job's pick and place steps with the engine's task planner (engine/task/pick_place.hpp):
// names checked before anything is planned, then the whole task planned from where the step
// before ended, timed time-optimally stage by stage (joined at rest) and each stage's motion
// validated against the scene it runs in (the object standing, held, put down).
#include <string>

#include "app/headless/job_execution.hpp"
#include "engine/planning/planner.hpp"

namespace kinetic::app::headless {

// The names the step uses, in `scene` as the steps before it leave it: the object must be a box,
// cylinder or sphere obstacle there (not held, not unknown), the links must exist and the gripper
// must fit the object. JobError naming the field. Then moves the object to its place in `scene`,
// as the step will.
void check_pick_place_step(const StepSpec& step, const RobotModel& robot, PlanningScene& scene);

// Plans the step from q in the planner's scene, times it within `limits` (the robot's, unscaled;
// the step's scalings apply) and validates it. The result's scene is the one the step leaves, its
// `scenes` those along its motion, its `task` the summary. JobFailure(kExitPlanningFailed) with the
// engine's message and hint; what: the step as messages name it.
StepResult plan_pick_place_step(Planner& planner, const StepSpec& step, const JointVector& q,
                                const TrajectoryLimits& limits, const std::string& what);

}  // namespace kinetic::app::headless
