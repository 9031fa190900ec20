#pragma once
// Runs planning problems (benchmark_problems.hpp) one after another on one Planner, in one
// process, and reports each as a row: valid (start and goal collision-free and within limits),
// solved, the planning time split as VAMP and OMPL's benchmarks split it (the search, then the
// simplification: shortcutting and smoothing), the whole plan() call, the path's joint-space
// length, and an exact re-check of the returned path (every state at a fine joint step checked
// against the robot's own collision geometry, meshes included).
#include <functional>
#include <string>
#include <vector>

#include "engine/planning/benchmark_problems.hpp"
#include "engine/planning/planner.hpp"

namespace kinetic {

struct BenchmarkSettings {
  PlannerOptions options;  // planner, timeout, seed (the run's seed is options.seed + run)
  int repeat = 1;          // runs of each problem
  double recheck_resolution = 0.01;  // rad between re-checked states; 0: no re-check
};

struct BenchmarkRow {
  std::string scene;
  int index = 0;
  int run = 0;
  bool valid = false, solved = false;
  double search_ms = 0.0, simplify_ms = 0.0;  // planning time = their sum
  double total_ms = 0.0;     // the whole plan() call: checks, search, simplification, gates
  double length = 0.0;       // rad, of the returned path
  double margin_used = 0.0;  // m
  int tree_size = 0;
  int iterations = 0;  // the search's, over every margin and restart tried
  // "ok", "collides: <where>", or "" when nothing was re-checked (unsolved, or resolution 0).
  std::string recheck;
  std::string
      message;  // why it is invalid or unsolved; a solved one's planner notes (margin reduced, ...)
  double planning_ms() const { return search_ms + simplify_ms; }
};

// One run of one problem; the planner's scene is replaced by the problem's. A problem that cannot
// be read is an Error (the file at fault named); planning failures are rows.
BenchmarkRow run_benchmark_problem(Planner& planner, const BenchmarkProblem& problem,
                                   const BenchmarkSettings& settings, int run = 0);

// Every problem `repeat` times; `progress` (may be empty) is told each row as it is made.
std::vector<BenchmarkRow> run_benchmark(
    Planner& planner, const std::vector<BenchmarkProblem>& problems,
    const BenchmarkSettings& settings,
    const std::function<void(const BenchmarkRow&)>& progress = {});

// The first state of `path` (model order) that collides at `resolution` rad steps, in words; ""
// when none does. Collides: the exact check finds contact (a near miss is no failure).
std::string recheck_path(CollisionChecker& checker, const JointPath& path, double resolution);

}  // namespace kinetic
