#pragma once
// What a benchmark run reports: the rows as CSV (one per problem and run) and a summary per scene
// (solved / valid, median, mean and 95th percentile of the planning time over the solved runs,
// median path length, re-check failures), the figures MoveIt's Planner Arena and VAMP's
// evaluation print.
#include <string>
#include <vector>

#include "engine/planning/benchmark_run.hpp"

namespace kinetic {

struct BenchmarkStats {
  std::string scene;  // "all" for the whole run
  int runs = 0, valid = 0, solved = 0;
  int recheck_failures = 0;  // solved runs whose path failed the exact re-check
  // Planning time (search + simplification, ms) over the solved runs; NaN when none was solved.
  double median_ms = 0.0, mean_ms = 0.0, p95_ms = 0.0;
  double median_length = 0.0;  // rad
};

// Linear interpolation between the closest ranks (numpy's and pandas' default); NaN when empty.
double percentile(std::vector<double> values, double q);

// Per scene in the order they first appear, then "all".
std::vector<BenchmarkStats> summarize_benchmark(const std::vector<BenchmarkRow>& rows);

// Header line, then one line per row: scene,problem,run,valid,solved,search_ms,simplify_ms,
// planning_ms,total_ms,length_rad,margin_m,tree_size,iterations,recheck,message (texts quoted as
// CSV quotes them).
std::string benchmark_csv(const std::vector<BenchmarkRow>& rows);

// A plain-text table, one line per scene.
std::string benchmark_summary_text(const std::vector<BenchmarkStats>& stats);

}  // namespace kinetic
