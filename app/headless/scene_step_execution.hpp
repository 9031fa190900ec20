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
  std::string tip_link;              // the link objects are attached to (the TCP's)
  std::vector<int> group_variables;  // the joints the planner moves
};

// The links allowed to touch an object attached to `link` when the step names none: the links that
// move with `link` without the planning group moving them (links fixed to it, a gripper's hand and
// fingers below it), and the links of an SRDF end effector mounted on one of those. Only links
// with collision geometry, `link` itself left out (the checker always lets it touch the object).
std::vector<std::string> default_touch_links(const RobotModel& robot, const std::string& link,
                                             const std::vector<int>& group_variables);

// Applies one scene step to `scene` with the robot at q. An unknown object or link, an object
// already attached or one not attached is a JobError naming the step's field and the known names.
// Returns what changed, for the summary: attached "part" to tool0 (touch links: link6).
std::string apply_scene_step(const StepSpec& step, const RobotModel& robot,
                             const AttachDefaults& defaults, const JointVector& q,
                             PlanningScene& scene);

// Applies every scene step of the job in order to a copy of `scene` before anything is planned, so
// that a name that is wrong at its step (an object an earlier step released) fails at once.
void check_scene_steps(const Job& job, const RobotModel& robot, const AttachDefaults& defaults,
                       const JointVector& start, PlanningScene scene);

// After a scene step, q must be free in the changed scene (`checker` holds it): JobFailure
// (kExitPlanningFailed) naming the colliding pairs and how to resolve them. what: the step as
// messages name it.
void check_state_after_scene_step(const StepSpec& step, CollisionChecker& checker,
                                  const JointVector& q, const std::string& what);

}  // namespace kinetic::app::headless
