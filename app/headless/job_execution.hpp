#pragma once
// Running a job's planning part: load the robot and scene, then for every step plan from the
// previous step's end (engine Planner, seeded), time-parameterize, and validate the timed motion
// (limits and collisions) against the scene as the steps before it changed it (objects attached,
// released, picked and placed); pick and place steps run the engine's task planner
// (pick_place_step_execution.hpp). Failures throw JobFailure with the exit code they map to.
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/headless/job_file.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/planning/planner.hpp"
#include "engine/planning/rest_pose.hpp"
#include "engine/scene/planning_scene.hpp"
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic::app::headless {

// Exit codes of `kinetic-studio --headless` (documented in docs/headless-jobs.md, "Exit codes").
enum ExitCode : int {
  kExitOk = 0,
  kExitBadJob = 2,          // bad command line, job file, robot, scene or start/goal values
  kExitPlanningFailed = 3,  // start in collision, unreachable goal, no path, validation violations
  kExitWriteFailed = 4,     // an output could not be written (no output of the job is left)
  kExitRenderFailed = 5,    // no Vulkan device or a rendering error
  kExitInterrupted = 130,   // Ctrl-C (128 + SIGINT); nothing was written
  kExitTerminated = 143,    // SIGTERM (128 + SIGTERM); nothing was written
};

class JobFailure : public std::runtime_error {
 public:
  JobFailure(ExitCode code, const std::string& message)
      : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

// The scene of a motion from instant `from` (s, on that motion's clock) on.
struct SceneSpan {
  double from = 0.0;
  PlanningScene scene;
};

struct StepResult {
  std::string name;
  PlanResult plan;           // motion steps; a pick and place fills only its notes
  Trajectory trajectory;     // all model variables, model order; empty for a scene step
  double path_length = 0.0;  // joint-space length of the planned path (rad / m)
  JointVector end;           // where the next step starts
  // Motion steps: the scene planned and validated against; scene steps: the scene after the change;
  // pick and place steps: the scene they leave (the object at its place).
  PlanningScene scene;
  // Scene steps: what changed, for the summary ("attached \"part\" to tool0 ..."); empty otherwise.
  std::string scene_change;
  // Pick and place steps: what was done, for the summary ("picked \"part\" ..."), and the scenes
  // along the step's own motion (as it starts, from the grasp, from the release). Empty otherwise.
  std::string task;
  std::vector<SceneSpan> scenes;
  bool moves() const { return scene_change.empty(); }
  // The scene changes while the robot moves: the step starts and ends at rest and is never blended.
  bool is_task() const { return !task.empty(); }
};

struct JobResult {
  RobotModelPtr robot;
  // Summary lines saying which SRDF / kinetic.toml were found for a URDF the job named none for
  // (robot_files.hpp); empty otherwise.
  std::vector<std::string> robot_files;
  // Where a run given no start starts, and why; unset when the job gives the start.
  std::optional<RestPose> rest;
  PlanningScene scene;  // as loaded, before any scene step
  std::string group;
  JointVector start;
  std::vector<StepResult> steps;  // one per job step, scene steps included
  TrajectoryLimits limits;        // the robot's, unscaled
  // The whole motion (whole_motion.hpp; computed on demand) and its scenes, in time order.
  std::optional<Trajectory> whole;
  std::vector<SceneSpan> whole_scenes;
};

// Loads robot and scene (JobFailure(kExitBadJob) naming the job field).
void load_robot_and_scene(const Job& job, JobResult& result);
// Plans, times and validates every motion and pick and place step and applies every scene step,
// in order; JobFailure(kExitPlanningFailed / kExitBadJob). `progress`, when given, is called once
// the start is known and again after every step (the run's summary prints as it goes).
void plan_steps(const Job& job, JobResult& result, const std::function<void()>& progress = {});
// Limits and collisions along a timed motion (the checker holds its scene); JobFailure
// (kExitPlanningFailed) listing every violation, introduced by `what`.
void validate_motion(const Trajectory& trajectory, const TrajectoryLimits& limits,
                     CollisionChecker& checker, const std::string& what);

// An engine error as the runner prints it: "message (hint)".
std::string describe(const Error& error);

// Where a run given no start starts, in words: "pose 'home', as no --start was given" (a job
// file: no "start"); and that setting's name.
std::string default_start_text(const RestPose& rest, const Job& job);
std::string start_setting(const Job& job);
// A state (size dof()) from a named pose or joint values; JobError naming `field`. Joints the
// state does not set (values for the group alone, a pose of some joints) keep their values in
// `others` (the state the motion starts from), zeros within the limits when it is empty. (A start
// the job does not give is the robot's rest pose: plan_steps takes it.)
JointVector resolve_state(const RobotModel& robot, const std::vector<int>& group_variables,
                          const StateSpec& state, const std::string& field,
                          const JointVector& others = {});

}  // namespace kinetic::app::headless
