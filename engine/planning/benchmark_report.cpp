#include "engine/planning/benchmark_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>

namespace kinetic {

namespace {

std::string csv_text(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text)
    quoted += c == '"' ? std::string("\"\"") : std::string(1, c == '\n' ? ' ' : c);
  return quoted + "\"";
}

BenchmarkStats stats_of(const std::string& scene, const std::vector<const BenchmarkRow*>& rows) {
  BenchmarkStats stats;
  stats.scene = scene;
  std::vector<double> times, lengths;
  for (const BenchmarkRow* row : rows) {
    ++stats.runs;
    stats.valid += row->valid;
    if (!row->solved) continue;
    ++stats.solved;
    stats.recheck_failures += row->recheck.rfind("collides", 0) == 0;
    times.push_back(row->planning_ms());
    lengths.push_back(row->length);
  }
  stats.median_ms = percentile(times, 0.5);
  stats.p95_ms = percentile(times, 0.95);
  stats.mean_ms = times.empty() ? std::numeric_limits<double>::quiet_NaN()
                                : std::accumulate(times.begin(), times.end(), 0.0) /
                                      static_cast<double>(times.size());
  stats.median_length = percentile(lengths, 0.5);
  return stats;
}

}  // namespace

double percentile(std::vector<double> values, double q) {
  if (values.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(values.begin(), values.end());
  const double position = static_cast<double>(values.size() - 1) * q;
  const auto low = static_cast<std::size_t>(std::floor(position));
  const std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (values[high] - values[low]) * (position - static_cast<double>(low));
}

std::vector<BenchmarkStats> summarize_benchmark(const std::vector<BenchmarkRow>& rows) {
  std::vector<std::string> scenes;
  for (const BenchmarkRow& row : rows)
    if (std::find(scenes.begin(), scenes.end(), row.scene) == scenes.end())
      scenes.push_back(row.scene);
  std::vector<BenchmarkStats> out;
  std::vector<const BenchmarkRow*> all;
  for (const std::string& scene : scenes) {
    std::vector<const BenchmarkRow*> of_scene;
    for (const BenchmarkRow& row : rows)
      if (row.scene == scene) of_scene.push_back(&row);
    out.push_back(stats_of(scene, of_scene));
  }
  for (const BenchmarkRow& row : rows) all.push_back(&row);
  out.push_back(stats_of("all", all));
  return out;
}

std::string benchmark_csv(const std::vector<BenchmarkRow>& rows) {
  std::string out =
      "scene,problem,run,valid,solved,search_ms,simplify_ms,planning_ms,total_ms,length_rad,margin_"
      "m,tree_size,"
      "iterations,recheck,message\n";
  for (const BenchmarkRow& r : rows) {
    char numbers[256];
    std::snprintf(numbers, sizeof numbers, "%d,%d,%d,%d,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%d,%d",
                  r.index, r.run, r.valid, r.solved, r.search_ms, r.simplify_ms, r.planning_ms(),
                  r.total_ms, r.length, r.margin_used, r.tree_size, r.iterations);
    out += csv_text(r.scene) + "," + numbers + "," + csv_text(r.recheck) + "," +
           csv_text(r.message) + "\n";
  }
  return out;
}

std::string benchmark_summary_text(const std::vector<BenchmarkStats>& stats) {
  std::string out =
      "scene              solved/valid  median ms   mean ms    p95 ms  median length (rad)  "
      "re-check failures\n";
  for (const BenchmarkStats& s : stats) {
    char line[256];
    char solved[32];
    std::snprintf(solved, sizeof solved, "%d/%d", s.solved, s.valid);
    std::snprintf(line, sizeof line, "%-18s %12s %10.3f %9.3f %9.3f %20.3f %18d\n", s.scene.c_str(),
                  solved, s.median_ms, s.mean_ms, s.p95_ms, s.median_length, s.recheck_failures);
    out += line;
  }
  return out;
}

}  // namespace kinetic
