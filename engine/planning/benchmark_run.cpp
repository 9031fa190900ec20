#include "engine/planning/benchmark_run.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "engine/core/error.hpp"
#include "engine/planning/motion_plan_request.hpp"
#include "engine/planning/path_processing.hpp"
#include "engine/scene/scene_file.hpp"

namespace kinetic {

namespace {

std::string said(const Error& error) {
  return error.message();
}

}  // namespace

std::string recheck_path(CollisionChecker& checker, const JointPath& path, double resolution) {
  for (std::size_t i = 0; i < path.size(); ++i) {
    const JointVector& a = path[i];
    const JointVector& b = i + 1 < path.size() ? path[i + 1] : path[i];
    const int steps =
        i + 1 < path.size()
            ? std::max(1, static_cast<int>(std::ceil((b - a).cwiseAbs().maxCoeff() / resolution)))
            : 1;
    // Segment i: its start and the states inside it (its end is the next segment's start).
    for (int s = 0; s < steps; ++s) {
      const double t = static_cast<double>(s) / steps;
      const JointVector q = a + t * (b - a);
      if (!checker.in_collision(q)) continue;
      // The contacts name the pairs; a state that in_collision's exact tiers and FCL's contacts
      // judge differently at touching distance counts as free.
      const std::vector<Contact> contacts = checker.contacts(q);
      if (contacts.empty()) continue;
      std::string pairs;
      for (const Contact& contact : contacts)
        pairs += (pairs.empty() ? "" : ", ") + contact.body_a + " - " + contact.body_b;
      char where[96];
      std::snprintf(where, sizeof where, "segment %zu at %.2f: ", i, t);
      return where + pairs;
    }
  }
  return {};
}

BenchmarkRow run_benchmark_problem(Planner& planner, const BenchmarkProblem& problem,
                                   const BenchmarkSettings& settings, int run) {
  BenchmarkRow row;
  row.scene = problem.scene;
  row.index = problem.index;
  row.run = run;
  const MotionPlanRequest request = load_motion_plan_request(problem.request_file);
  const PlanningScene scene = load_scene(problem.scene_file);
  const RobotModel& model = planner.model();
  if (!request.group.empty() && request.group != planner.group()) {
    row.message =
        "the request plans group '" + request.group + "', the runner '" + planner.group() + "'";
    return row;
  }
  // The start's joints outside the robot's variables (a virtual joint, fixed fingers) are not the
  // robot's to take; the goal's must all be.
  const JointVector start = with_joint_values(model, model.zero_configuration(), request.start,
                                              problem.request_file + ": start_state", true);
  const JointVector goal = with_joint_values(model, start, request.goal,
                                             problem.request_file + ": goal_constraints", false);
  planner.set_scene(scene);
  try {
    planner.check_start(start);
  } catch (const Error& error) {
    row.message = "start: " + said(error);
    return row;
  }
  CollisionChecker& checker = planner.checker();
  if (!model.within_limits(goal)) {
    row.message = "goal: outside the joint limits";
    return row;
  }
  if (checker.in_collision(goal)) {
    row.message = "goal: in collision";
    return row;
  }
  row.valid = true;
  PlannerOptions options = settings.options;
  options.seed = settings.options.seed + static_cast<std::uint64_t>(run);
  const auto begin = std::chrono::steady_clock::now();
  try {
    const PlanResult result = planner.plan(start, JointGoal{goal}, options);
    row.total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    row.solved = true;
    row.search_ms = result.search_time_ms;
    row.simplify_ms = result.postprocess_time_ms;
    row.length = path_length(result.path);
    row.margin_used = result.margin_used;
    row.tree_size = result.tree_size;
    row.iterations = result.iterations;
    for (const std::string& note : result.notes)
      row.message += (row.message.empty() ? "" : "; ") + note;
    if (settings.recheck_resolution > 0) {
      const std::string collision = recheck_path(checker, result.path, settings.recheck_resolution);
      row.recheck = collision.empty() ? "ok" : "collides: " + collision;
    }
  } catch (const Error& error) {
    row.total_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    row.message = said(error);
  }
  return row;
}

std::vector<BenchmarkRow> run_benchmark(Planner& planner,
                                        const std::vector<BenchmarkProblem>& problems,
                                        const BenchmarkSettings& settings,
                                        const std::function<void(const BenchmarkRow&)>& progress) {
  std::vector<BenchmarkRow> rows;
  for (const BenchmarkProblem& problem : problems)
    for (int run = 0; run < std::max(1, settings.repeat); ++run) {
      rows.push_back(run_benchmark_problem(planner, problem, settings, run));
      if (progress) progress(rows.back());
    }
  return rows;
}

}  // namespace kinetic
