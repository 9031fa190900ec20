#include "app/headless/job_execution.hpp"

#include <algorithm>
#include <sstream>

#include "app/document/file_kind.hpp"
#include "app/headless/interruption.hpp"
#include "app/headless/pick_place_step_execution.hpp"
#include "app/headless/robot_files.hpp"
#include "app/headless/scene_step_execution.hpp"
#include "app/headless/step_planning.hpp"
#include "app/trajectories/trajectory_timing.hpp"
#include "engine/core/atomic_file.hpp"
#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/state_diagnostics.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/trajectory/validation.hpp"

namespace kinetic::app::headless {

namespace {

std::string joint_list(const RobotModel& robot, const std::vector<int>& variables) {
  std::vector<std::string> names;
  for (int v : variables) names.push_back(robot.variable_joint(v).name);
  std::string out;
  for (size_t i = 0; i < names.size(); ++i) out += (i ? ", " : "") + names[i];
  return out;
}

// The studio's timing (app/planning/trajectory_timing.hpp): time-optimal corners are narrowed
// where they would collide, and `note` says so.
Trajectory time_path(const JointPath& path, const TrajectoryLimits& limits, Timing timing,
                     CollisionChecker& checker, std::string& note) {
  TimingSettings settings;
  switch (timing) {
    case Timing::TimeOptimal:
      settings.method = TimingMethod::TimeOptimal;
      break;
    case Timing::Trapezoidal:
      settings.method = TimingMethod::Trapezoidal;
      break;
    case Timing::SCurve:
      settings.method = TimingMethod::SCurve;
      break;
    case Timing::CubicSpline:
      settings.method = TimingMethod::CubicSpline;
      break;
  }
  settings.velocity_scaling = limits.velocity_scaling;
  settings.acceleration_scaling = limits.acceleration_scaling;
  return app::time_path(
      path, limits, settings, [&checker](const JointVector& q) { return checker.in_collision(q); },
      [&checker](const JointVector& q) { return describe_contacts(checker.contacts(q)); }, &note);
}

void validate_state(const RobotModel& robot, const JointVector& q, const std::string& field) {
  try {
    robot.validate(q, true);
  } catch (const Error& error) {
    // A state out of limits is a bad value (exit 2), as one that is not a number is: no planner
    // can start or end there. (A start in collision or a goal out of reach is a planning failure.)
    if (error.code() == ErrorCode::OutOfLimits)
      throw JobError(field, error.message() + " (give values within the joint's limits)");
    throw JobError(field, describe(error));
  }
}

// A motion step's goal as the planner takes it; joint and named goals resolved and checked
// against the limits (JobFailure(kExitBadJob) naming the field).
PlanningGoal step_goal(const RobotModel& robot, const std::vector<int>& group, const StepSpec& step,
                       const JointVector& start) {
  try {
    switch (step.goal_kind) {
      case StepSpec::GoalKind::Joints: {
        const JointVector q =
            resolve_state(robot, group, step.goal_state, step.field_of(".goal.joints"), start);
        // Values for the group alone go to the planner as such: the other joints stay where the
        // step starts (the planner checks the goal that way), not where the run started.
        if (step.goal_state.joints.size() == group.size() &&
            static_cast<int>(group.size()) != robot.dof()) {
          JointVector values(static_cast<Eigen::Index>(group.size()));
          for (size_t i = 0; i < group.size(); ++i)
            values[static_cast<Eigen::Index>(i)] = q[group[i]];
          return JointGoal{values};
        }
        return JointGoal{q};
      }
      case StepSpec::GoalKind::Named:
        resolve_state(robot, group, step.goal_state, step.field_of(".goal.named"),
                      start);  // names the known poses
        return NamedGoal{step.goal_state.named};
      case StepSpec::GoalKind::Pose:
        return PoseGoal{step.goal_pose, step.goal_end_effector};
      case StepSpec::GoalKind::Relative:
        return RelativeGoal{step.goal_pose, step.relative_frame};
      case StepSpec::GoalKind::Arc:
        break;  // a Cartesian step's own segment (step.arc)
    }
  } catch (const JobError& error) {
    throw JobFailure(kExitBadJob, error.what());
  }
  return PlanningGoal{};
}

// A job, a session or a URDF given as the scene is said as what it is (the scene reader would
// name the first key a scene does not have). A file that cannot be read is left to the reader.
void check_scene_file_kind(const std::filesystem::path& file, const std::string& field) {
  std::string text;
  try {
    text = read_input_file(file, kSceneInput);
  } catch (const Error&) {
    return;
  }
  const std::string other_kind =
      wrong_kind_message(file_kind(text, file.string()), FileKind::Scene, file.string());
  if (!other_kind.empty())
    throw JobFailure(kExitBadJob, field + ": " + file.string() + ": " + other_kind);
}

}  // namespace

// (The engine checks jerk only on profiles without acceleration steps: S-curve and cubic spline.)
void validate_motion(const Trajectory& trajectory, const TrajectoryLimits& limits,
                     CollisionChecker& checker, const std::string& what) {
  TrajectoryValidationOptions options;
  options.in_collision = [&checker](const JointVector& q) { return checker.in_collision(q); };
  options.collision_names = [&checker](const JointVector& q) {
    std::string names;
    for (const Contact& contact : checker.contacts(q))
      names += (names.empty() ? "" : ", ") + contact.body_a + " - " + contact.body_b;
    return names;
  };
  const TrajectoryValidationReport report = validate_trajectory(trajectory, limits, options);
  if (!report.ok())
    throw JobFailure(kExitPlanningFailed,
                     what + ": the timed trajectory fails validation:\n" + report.summary());
}

std::string describe(const Error& error) {
  return error.message() + (error.hint().empty() ? "" : " (" + error.hint() + ")");
}

std::string start_setting(const Job& job) {
  return job.source.empty() ? "--start" : "\"start\"";
}

std::string default_start_text(const RestPose& rest, const Job& job) {
  return describe(rest) + ", as no " + start_setting(job) + " was given";
}

JointVector resolve_state(const RobotModel& robot, const std::vector<int>& group_variables,
                          const StateSpec& state, const std::string& field,
                          const JointVector& others) {
  const JointVector base = others.size() == robot.dof() ? others : robot.zero_configuration();
  if (!state.by_name.names.empty()) {
    JointVector q;
    try {
      // A start skips joints the robot has as no variable (a request names its virtual joint and
      // fixed fingers); a goal's must all be the robot's.
      q = with_joint_values(robot, base, state.by_name, "request", state.by_name_is_start);
    } catch (const Error& error) {
      throw JobError(field, describe(error));
    }
    validate_state(robot, q, field);
    return q;
  }
  if (!state.named.empty()) {
    try {
      return robot.named_pose(state.named, base);
    } catch (const Error& error) {
      throw JobError(field, describe(error));
    }
  }
  const auto n = static_cast<int>(state.joints.size());
  JointVector q = base;
  if (n == robot.dof()) {
    q = Eigen::Map<const JointVector>(state.joints.data(), n);
  } else if (n == static_cast<int>(group_variables.size())) {
    for (int i = 0; i < n; ++i)
      q[group_variables[static_cast<size_t>(i)]] = state.joints[static_cast<size_t>(i)];
  } else {
    throw JobError(field, "expected " + std::to_string(group_variables.size()) + " joint values (" +
                              joint_list(robot, group_variables) + "), got " + std::to_string(n));
  }
  validate_state(robot, q, field);
  return q;
}

void load_robot_and_scene(const Job& job, JobResult& result) {
  LoadOptions options;
  options.package_paths = job.robot.package_paths;
  options.xacro_args = job.robot.xacro_args;
  const RobotFiles files = robot_files(job);
  try {
    result.robot = job.robot.builtin.empty()
                       ? load_robot_file(job.robot.urdf.string(), files.srdf.string(),
                                         files.config.string(), options)
                       : load_builtin_robot(job.robot.builtin, options);
  } catch (const Error& error) {
    throw JobFailure(kExitBadJob, "robot: " + describe(error) + found_files_hint(files, job));
  }
  result.robot_files = files.summary;
  for (const std::string& note : result.robot->source_notes()) result.robot_files.push_back(note);
  const std::string scene_field = job.source.empty() ? "--scene" : "scene";
  try {
    if (!job.scene.file.empty()) {
      check_scene_file_kind(job.scene.file, scene_field);
      result.scene = load_scene(job.scene.file.string());
    } else if (!job.scene.inline_json.empty()) {
      result.scene = scene_from_json(job.scene.inline_json, job.source.string() + ": scene",
                                     job.source.empty() ? "" : job.source.parent_path().string());
    }
  } catch (const Error& error) {
    throw JobFailure(kExitBadJob, scene_field + ": " + describe(error));
  }
  // What every job needs of the robot, said as a robot problem (exit 2) rather than later as a
  // failed plan or timing: something to move, and usable velocity and acceleration limits.
  if (result.robot->dof() == 0)
    throw JobFailure(
        kExitBadJob,
        "robot: '" + result.robot->name() +
            "' has no movable joints (every joint is fixed): there is nothing to plan");
  try {
    result.limits = TrajectoryLimits::from_model(*result.robot);
    // A step that sets no scaling moves at the robot's default (a MoveIt config's joint_limits.yaml
    // default_*_scaling_factor, as MoveIt plans a request that sets none), else at full speed.
    result.limits.velocity_scaling =
        std::max(kMinScaling, result.robot->config().default_velocity_scaling);
    result.limits.acceleration_scaling =
        std::max(kMinScaling, result.robot->config().default_acceleration_scaling);
  } catch (const Error& error) {
    throw JobFailure(kExitBadJob, "robot: " + describe(error));
  }
}

namespace {

// The planner for the job's robot and group, on the job's scene.
std::unique_ptr<Planner> make_planner(const Job& job, const JobResult& result) {
  std::unique_ptr<Planner> planner;
  try {
    planner = std::make_unique<Planner>(result.robot, PlanningScene(), job.robot.group);
  } catch (const Error& error) {
    // Only an unknown group is the group setting's fault; anything else is the robot's.
    const std::vector<std::string> groups = result.robot->group_names();
    const bool unknown_group =
        !job.robot.group.empty() &&
        std::find(groups.begin(), groups.end(), job.robot.group) == groups.end();
    throw JobFailure(kExitBadJob,
                     std::string(unknown_group ? "robot.group" : "robot") + ": " + describe(error));
  }
  // The scene's collision geometry is made apart from the robot's, so that a scene mesh that
  // cannot be read is said as a scene problem.
  try {
    planner->set_scene(result.scene);
  } catch (const Error& error) {
    throw JobFailure(kExitBadJob, "scene: " + describe(error));
  }
  return planner;
}

// result.start (and result.rest when the job gives none), checked against the limits and by the
// planner.
void resolve_start(const Job& job, JobResult& result, Planner& planner) {
  const RobotModel& robot = *result.robot;
  // A start the user did not give is named, so a failure there says where it came from.
  if (job.start.robot_default) result.rest = rest_pose(result.robot);
  const std::string start_field =
      result.rest ? "start (" + default_start_text(*result.rest, job) + ")" : "start";
  try {
    if (result.rest) {
      validate_state(robot, result.rest->q, start_field);
      result.start = result.rest->q;
    } else {
      result.start = resolve_state(robot, planner.group_variables(), job.start, start_field);
    }
  } catch (const JobError& error) {
    throw JobFailure(kExitBadJob, error.what());
  }
  try {
    planner.check_start(result.start);
  } catch (const Error& error) {
    throw JobFailure(
        kExitPlanningFailed,
        start_field + ": " + describe(error) +
            (job.start.robot_default ? "; " + start_setting(job) + " sets another" : ""));
  }
}

// Every object and link name a scene or pick and place step uses, and every goal given as joint
// values or a pose name, is checked before the first plan, so a mistake in the last step does not
// wait for the planning of the steps before it. The goals, for the motion steps.
std::vector<PlanningGoal> check_steps(const Job& job, const JobResult& result,
                                      const AttachDefaults& attach_defaults) {
  const RobotModel& robot = *result.robot;
  try {
    check_scene_steps(job, robot, attach_defaults, result.start, result.scene);
  } catch (const JobError& error) {
    throw JobFailure(kExitBadJob, error.what());
  }
  std::vector<PlanningGoal> goals(job.steps.size());
  for (size_t i = 0; i < job.steps.size(); ++i)
    if (job.steps[i].moves() && !job.steps[i].pick_place)
      goals[i] = step_goal(robot, attach_defaults.group_variables, job.steps[i], result.start);
  return goals;
}

// A step that changes the scene (and the planner's with it); `current` stays.
StepResult run_scene_step(const StepSpec& step, const RobotModel& robot,
                          const AttachDefaults& attach_defaults, Planner& planner,
                          const JointVector& current, PlanningScene& scene,
                          const std::string& what) {
  StepResult out;
  out.name = step.name;
  try {
    out.scene_change = apply_scene_step(step, robot, attach_defaults, current, scene);
  } catch (const JobError& error) {
    throw JobFailure(kExitBadJob, error.what());
  }
  planner.set_scene(scene);
  check_state_after_scene_step(step, planner.checker(), current, what);
  out.end = current;
  out.scene = scene;
  return out;
}

// A motion step: planned from `current` to `goal`, timed at the step's scaling and validated.
StepResult run_motion_step(Planner& planner, const StepSpec& step, const JointVector& current,
                           const PlanningGoal& goal, const TrajectoryLimits& job_limits,
                           const std::string& what) {
  StepResult out;
  out.name = step.name;
  PlanControl control;
  control.cancel = &interrupt_requested();
  stop_if_interrupted();
  try {
    out.plan = plan_step(planner, step, current, goal, control, what);
  } catch (const Error& error) {
    if (error.code() == ErrorCode::Cancelled) stop_if_interrupted();
    if (error.code() == ErrorCode::MissingJoint && !step.constraints.joints.empty())
      throw JobFailure(kExitBadJob, step.field_of(".constraints.joints") + ": " + describe(error));
    throw JobFailure(kExitPlanningFailed, what + ": planning failed: " + describe(error));
  }
  TrajectoryLimits limits = job_limits;
  limits.velocity_scaling = step.velocity_scaling.value_or(limits.velocity_scaling);
  limits.acceleration_scaling = step.acceleration_scaling.value_or(limits.acceleration_scaling);
  try {
    std::string corners;
    out.trajectory = time_path(out.plan.path, limits, step.timing, planner.checker(), corners);
    if (!corners.empty()) out.plan.notes.push_back(corners);
  } catch (const Error& error) {
    throw JobFailure(kExitPlanningFailed,
                     what + ": " + to_string(step.timing) + " timing failed: " + describe(error));
  }
  validate_motion(out.trajectory, limits, planner.checker(), what);
  out.path_length = out.plan.length_after;
  out.end = out.plan.path.back();
  return out;
}

}  // namespace

void plan_steps(const Job& job, JobResult& result, const std::function<void()>& progress) {
  const auto report = [&progress] {
    if (progress) progress();
  };
  const RobotModel& robot = *result.robot;
  const std::unique_ptr<Planner> planner = make_planner(job, result);
  result.group = planner->group();
  resolve_start(job, result, *planner);
  // (A group that is not one chain, two arms say, has no TCP link: its attach steps name the link.)
  const AttachDefaults attach_defaults{
      planner->has_chain() ? planner->chain().tip_link() : std::string(),
      planner->group_variables()};
  const std::vector<PlanningGoal> goals = check_steps(job, result, attach_defaults);
  report();

  JointVector current = result.start;
  PlanningScene scene = result.scene;  // as the scene steps so far changed it
  for (size_t i = 0; i < job.steps.size(); ++i) {
    const StepSpec& step = job.steps[i];
    const std::string what = step.field + " (\"" + step.name + "\")";
    StepResult out;
    if (!step.moves()) {
      out = run_scene_step(step, robot, attach_defaults, *planner, current, scene, what);
    } else if (step.pick_place) {
      out = plan_pick_place_step(*planner, step, current, result.limits, what);
      scene = out.scene;
      planner->set_scene(scene);
    } else {
      out = run_motion_step(*planner, step, current, goals[i], result.limits, what);
      out.scene = scene;
    }
    current = out.end;
    result.steps.push_back(std::move(out));
    report();
  }
}

}  // namespace kinetic::app::headless
