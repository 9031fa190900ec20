// Time parameterization on a 100-waypoint path (issue 5: TOTP ≤ 1 ms, trapezoidal ≤ 50 µs).
// The path: 100 waypoints of a 6-joint arm, a seeded random walk with steps of up to ±0.3 rad per
// joint (what a shortcut planner hands over), UR5e-like limits (v = π rad/s, a = 2π rad/s²,
// j = 20π rad/s³). No peer for TOTG is packaged in Debian (MoveIt is not), so the peer is our own
// brute-force fine-grid phase-plane solver (1e-4 rad grid) on the same blended path: the ratio
// shows what the reachability grid saves, the absolute figure is the one to compare with TOTG.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <numbers>
#include <random>

#include "engine/trajectory/blended_path.hpp"
#include "engine/trajectory/cubic_spline.hpp"
#include "engine/trajectory/phase_plane_reference.hpp"
#include "engine/trajectory/scurve.hpp"
#include "engine/trajectory/time_optimal.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "engine/trajectory/trapezoidal.hpp"

namespace {

using namespace kinetic;

JointPath benchmark_path(int waypoints = 100) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> step(-0.3, 0.3);
  JointPath path{JointVector::Zero(6)};
  for (int i = 1; i < waypoints; ++i) {
    JointVector q = path.back();
    for (Eigen::Index j = 0; j < 6; ++j) q[j] += step(rng);
    path.push_back(q);
  }
  return path;
}

TrajectoryLimits benchmark_limits() {
  const double pi = std::numbers::pi;
  return TrajectoryLimits::uniform(6, pi, 2 * pi, 20 * pi);
}

void Ours_totp_100_waypoints(benchmark::State& state) {
  const JointPath path = benchmark_path();
  const TrajectoryLimits limits = benchmark_limits();
  for (auto _ : state) benchmark::DoNotOptimize(time_optimal(path, limits));
  const Trajectory t = time_optimal(path, limits);
  state.counters["duration_s"] = t.duration();
  state.counters["samples"] = static_cast<double>(t.samples().size());
}
BENCHMARK(Ours_totp_100_waypoints)->Name("Ours/totp_100_waypoints")->Unit(benchmark::kMicrosecond);

void PeerDiscretised_totp_100_waypoints(benchmark::State& state) {
  const JointPath path = benchmark_path();
  const TrajectoryLimits limits = benchmark_limits();
  // Quick mode (test suite): a coarser grid so the executable finishes in seconds.
  const double step = std::getenv("KINETIC_BENCH_QUICK") ? 1e-3 : 1e-4;
  for (auto _ : state) {
    const BlendedPath blended(path, TimeOptimalOptions{}.max_deviation);
    benchmark::DoNotOptimize(phase_plane_reference(blended, limits, step));
  }
  const BlendedPath blended(path, TimeOptimalOptions{}.max_deviation);
  state.counters["duration_s"] = phase_plane_reference(blended, limits, step).duration;
}
BENCHMARK(PeerDiscretised_totp_100_waypoints)
    ->Name("PeerDiscretised/totp_100_waypoints")
    ->Unit(benchmark::kMicrosecond);

void Ours_trapezoidal_100_waypoints(benchmark::State& state) {
  const JointPath path = benchmark_path();
  const TrajectoryLimits limits = benchmark_limits();
  for (auto _ : state) benchmark::DoNotOptimize(trapezoidal(path, limits));
  state.counters["duration_s"] = trapezoidal(path, limits).duration();
}
BENCHMARK(Ours_trapezoidal_100_waypoints)
    ->Name("Ours/trapezoidal_100_waypoints")
    ->Unit(benchmark::kMicrosecond);

void Ours_scurve_100_waypoints(benchmark::State& state) {
  const JointPath path = benchmark_path();
  const TrajectoryLimits limits = benchmark_limits();
  for (auto _ : state) benchmark::DoNotOptimize(scurve(path, limits));
  state.counters["duration_s"] = scurve(path, limits).duration();
}
BENCHMARK(Ours_scurve_100_waypoints)
    ->Name("Ours/scurve_100_waypoints")
    ->Unit(benchmark::kMicrosecond);

void Ours_cubic_spline_100_waypoints(benchmark::State& state) {
  const JointPath path = benchmark_path();
  const TrajectoryLimits limits = benchmark_limits();
  for (auto _ : state) benchmark::DoNotOptimize(cubic_spline(path, limits));
  state.counters["duration_s"] = cubic_spline(path, limits).duration();
}
BENCHMARK(Ours_cubic_spline_100_waypoints)
    ->Name("Ours/cubic_spline_100_waypoints")
    ->Unit(benchmark::kMicrosecond);

// Importing an exported trajectory (the TOTP one above, some 6,800 samples): our reader (a
// duplicate-key pass, nlohmann's parse, and the schema and finiteness checks) against the bare
// nlohmann parse of the same text, which checks nothing.
std::string exported_trajectory() {
  return trajectory_to_json(time_optimal(benchmark_path(), benchmark_limits()));
}

void Ours_trajectory_json_import(benchmark::State& state) {
  const std::string text = exported_trajectory();
  for (auto _ : state) benchmark::DoNotOptimize(trajectory_from_json(text, "bench.json"));
  state.counters["megabytes"] = static_cast<double>(text.size()) / 1e6;
}
BENCHMARK(Ours_trajectory_json_import)
    ->Name("Ours/trajectory_json_import")
    ->Unit(benchmark::kMillisecond);

void PeerParseOnly_trajectory_json_import(benchmark::State& state) {
  const std::string text = exported_trajectory();
  for (auto _ : state) benchmark::DoNotOptimize(nlohmann::json::parse(text));
}
BENCHMARK(PeerParseOnly_trajectory_json_import)
    ->Name("PeerParseOnly/trajectory_json_import")
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
