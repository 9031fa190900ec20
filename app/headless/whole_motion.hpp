#pragma once
// The job's whole motion (trajectory reference "all", kWholeMotion): the runs of consecutive motion
// steps between scene steps and pick and place steps, each blended into one time-optimal motion at
// the slowest scaling its steps ask for and validated against its own scene, and each pick and
// place step's own motion as it is, joined end to end in time. Every run starts and ends at rest,
// so the robot stops wherever an object is attached or released and around every pick and place.
// Documented in docs/headless-jobs.md, "Pick and place: attach and detach steps".
#include <vector>

#include "app/headless/job_execution.hpp"

namespace kinetic::app::headless {

// The trajectory an output refers to: a motion step's own, or kWholeMotion (computed once, with
// result.whole_scenes). JobFailure(kExitPlanningFailed) when blending or validating a run fails.
const Trajectory& trajectory_for(const Job& job, JobResult& result, int reference);

// The scene at time t of the trajectory `reference` refers to (t in that trajectory's time): a
// step's own scene (a pick and place step's as its grasp and release change it by t), or for the
// whole motion the scene as the steps up to t left it (at the instant of a change: the scene
// after it).
const PlanningScene& scene_at(const Job& job, JobResult& result, int reference, double t);

}  // namespace kinetic::app::headless
