#pragma once
// Running a job's scene steps: attaching an obstacle to a robot link keeps its world pose at that
// moment (the link's pose by forward kinematics at the current state) and it then moves with the
// link; releasing an attached object leaves it as an obstacle where it is. The robot's state is
// then checked against the changed scene.
#include <string>
#include <vector>

#include "app/headless/job_file.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic::app::headless {

// What an attach step takes from the planning group when it does not say.
struct AttachDefaults {
  std::string tip_link;  // the link objects are attached to (the TCP's; "" when the group has none)
  std::vector<int> group_variables;  // the joints the planner moves
};

// Applies one scene step to `scene` with the robot at q. An unknown object or link, an object
// already attached or one not attached is a JobError naming the step's field and the known names.
// Touch links the step does not name are kinetic::default_touch_links (engine/task/pick_place.hpp).
// Returns what changed, for the summary: attached "part" to tool0 (touch links: link6).
std::string apply_scene_step(const StepSpec& step, const RobotModel& robot,
                             const AttachDefaults& defaults, const JointVector& q,
                             PlanningScene& scene);

// Applies every scene step of the job in order to a copy of `scene` before anything is planned, and
// checks every pick and place step's names (check_pick_place_step, which puts the object at its
// place), so that a name that is wrong at its step (an object an earlier step released or placed
// elsewhere) fails at once.
void check_scene_steps(const Job& job, const RobotModel& robot, const AttachDefaults& defaults,
                       const JointVector& start, PlanningScene scene);

// After a scene step, q must be free in the changed scene (`checker` holds it): JobFailure
// (kExitPlanningFailed) naming the colliding pairs and how to resolve them. what: the step as
// messages name it.
void check_state_after_scene_step(const StepSpec& step, CollisionChecker& checker,
                                  const JointVector& q, const std::string& what);

}  // namespace kinetic::app::headless
