#include "app/headless/whole_motion.hpp"

#include <algorithm>

#include "engine/core/error.hpp"
#include "engine/trajectory/blending.hpp"
#include "engine/trajectory/join_at_rest.hpp"

namespace kinetic::app::headless {

namespace {

// Consecutive motion steps between scene steps (indices into the job's steps, inclusive); a pick
// and place step is a run of its own (its motion comes to rest where it starts and ends).
struct Run {
  size_t first = 0, last = 0;
};

std::vector<Run> motion_runs(const JobResult& result) {
  std::vector<Run> runs;
  bool open = false;
  for (size_t i = 0; i < result.steps.size(); ++i) {
    const StepResult& step = result.steps[i];
    if (!step.moves()) {
      open = false;
    } else if (open && !step.is_task()) {
      runs.back().last = i;
    } else {
      runs.push_back({i, i});
      open = !step.is_task();
    }
  }
  return runs;
}

// The last span that has begun at t (at the very instant of a change: the scene after it).
const PlanningScene& scene_in(const std::vector<SceneSpan>& spans, double t) {
  constexpr double kSameInstant = 1e-9;  // s
  const SceneSpan* span = &spans.front();
  for (const SceneSpan& s : spans)
    if (s.from <= t + kSameInstant) span = &s;
  return span->scene;
}

// A run's steps in words, for messages: "steps[4] to steps[6] (\"carry\" to \"place\")".
std::string run_text(const Job& job, const Run& run) {
  const StepSpec &first = job.steps[run.first], &last = job.steps[run.last];
  return first.field + " to " + last.field + " (\"" + first.name + "\" to \"" + last.name + "\")";
}

// One run as one motion. A single step is its own trajectory, already timed and validated against
// the same scene; more are blended at the slowest scaling any of them asked for, so no step moves
// faster than it allowed, and validated against the run's scene.
Trajectory run_motion(const Job& job, const JobResult& result, const Run& run, bool whole_job) {
  if (run.first == run.last) return result.steps[run.first].trajectory;
  TrajectoryLimits limits = result.limits;
  std::vector<Trajectory> parts;
  for (size_t i = run.first; i <= run.last; ++i) {
    limits.velocity_scaling =
        std::min(limits.velocity_scaling, job.steps[i].velocity_scaling.value_or(1.0));
    limits.acceleration_scaling =
        std::min(limits.acceleration_scaling, job.steps[i].acceleration_scaling.value_or(1.0));
    parts.push_back(result.steps[i].trajectory);
  }
  const std::string what = whole_job ? "the steps" : run_text(job, run);
  Trajectory blended;
  try {
    blended = blend_trajectories(parts, limits);
  } catch (const Error& error) {
    throw JobFailure(kExitPlanningFailed,
                     "blending " + what + " into one motion failed: " + describe(error));
  }
  CollisionChecker checker(result.robot);
  checker.set_scene(result.steps[run.first].scene);
  validate_motion(blended, limits, checker,
                  whole_job ? "the blended whole motion" : "the blended motion of " + what);
  return blended;
}

void make_whole_motion(const Job& job, JobResult& result) {
  const std::vector<Run> runs = motion_runs(result);
  std::vector<Trajectory> motions;
  for (const Run& run : runs) motions.push_back(run_motion(job, result, run, runs.size() == 1));
  Trajectory whole = join_at_rest(motions);

  // Where each run starts in the joined motion: the scene steps before it take effect there, a
  // pick and place step's own changes that far into its motion.
  std::vector<SceneSpan> scenes{{whole.start_time(), result.scene}};
  double run_start = whole.start_time();
  size_t next_run = 0;
  for (size_t i = 0; i < result.steps.size(); ++i) {
    const StepResult& step = result.steps[i];
    if (next_run < runs.size() && i == runs[next_run].first) {
      for (const SceneSpan& span : step.scenes)
        scenes.push_back({run_start + span.from - step.trajectory.start_time(), span.scene});
      run_start += motions[next_run].duration();  // the next scene step happens where this run ends
      ++next_run;
    }
    if (!step.moves() || step.is_task())
      scenes.push_back({run_start, step.scene});  // what it leaves
  }
  result.whole = std::move(whole);
  result.whole_scenes = std::move(scenes);
}

}  // namespace

const Trajectory& trajectory_for(const Job& job, JobResult& result, int reference) {
  if (reference != kWholeMotion) {
    const StepResult& step = result.steps.at(static_cast<size_t>(reference));
    if (!step.moves())
      throw JobError(job.steps[static_cast<size_t>(reference)].field, "a scene step has no motion");
    return step.trajectory;
  }
  if (!result.whole) make_whole_motion(job, result);
  return *result.whole;
}

const PlanningScene& scene_at(const Job& job, JobResult& result, int reference, double t) {
  if (reference != kWholeMotion) {
    const StepResult& step = result.steps.at(static_cast<size_t>(reference));
    return step.scenes.empty() ? step.scene : scene_in(step.scenes, t);
  }
  trajectory_for(job, result, kWholeMotion);
  return scene_in(result.whole_scenes, t);
}

}  // namespace kinetic::app::headless
