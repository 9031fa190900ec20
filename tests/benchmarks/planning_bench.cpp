// Motion planning side by side: our Planner (RRT-Connect, default preset incl. shortcutting,
// smoothing and both output gates) and OMPL 1.5's RRTConnect (search alone, and search + OMPL's
// simplifier as in MoveIt's pipeline) on the same problems through the same
// collision checker: OMPL's StateValidityChecker calls our CollisionChecker at the same margin, and
// its MotionValidator checks edges with our edge check at the same resolution — so the ratio
// measures the planners. Per scene: success within 1 s, median and 95th percentile time.
// Manual time = the median; counters carry success %, median and p95 in ms.
#include <benchmark/benchmark.h>

#include <ompl/base/MotionValidator.h>
#include <ompl/base/spaces/RealVectorStateSpace.h>
#include <ompl/geometric/SimpleSetup.h>
#include <ompl/geometric/planners/rrt/RRTConnect.h>
#include <ompl/util/Console.h>
#include <ompl/util/RandomNumbers.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/benchmark_scenes.hpp"
#include "engine/planning/planner.hpp"
#include "engine/planning/planning_space.hpp"

using namespace kinetic;
namespace ob = ompl::base;
namespace og = ompl::geometric;

namespace {

constexpr double kBudgetS = 1.0;
constexpr double kMargin = 0.02;      // default preset margin, both sides
constexpr double kResolution = 0.05;  // default preset edge resolution, both sides

bool quick() { return std::getenv("KINETIC_BENCH_QUICK") != nullptr; }
int pair_count() { return quick() ? 5 : 100; }

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

RobotModelPtr robot(const std::string& name) {
  static std::map<std::string, RobotModelPtr> cache;
  auto& model = cache[name];
  if (!model) model = load_builtin_robot(name);
  return model;
}

struct Problem {
  JointVector start, goal;
};

// Valid start/goal pairs (clear of obstacles by the planning margin), fixed seed per scene.
const std::vector<Problem>& problems(const std::string& robot_name, const std::string& scene_name) {
  static std::map<std::string, std::vector<Problem>> cache;
  auto& list = cache[robot_name + "/" + scene_name];
  if (!list.empty()) return list;
  const RobotModelPtr model = robot(robot_name);
  CollisionChecker checker(model);
  checker.set_scene(benchmark_scene(scene_name, model));
  std::mt19937_64 rng(std::hash<std::string>{}(robot_name + scene_name) % 100000);
  // Joints within ±pi: with UR-style ±2pi ranges, two representations of one pose can lie in
  // joint-space regions that no collision-free motion connects.
  const JointVector lo = model->lower_limits().cwiseMax(-M_PI), hi = model->upper_limits().cwiseMin(M_PI);
  auto sample = [&] {
    for (;;) {
      JointVector q(model->dof());
      for (int j = 0; j < model->dof(); ++j) q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
      if (state_collision_free(checker, q, kMargin)) return q;
    }
  };
  for (int i = 0; i < pair_count(); ++i) {
    Problem p;
    p.start = sample();
    p.goal = sample();
    list.push_back(p);
  }
  return list;
}

void report(benchmark::State& state, std::vector<double> times_ms, int successes, int total) {
  std::sort(times_ms.begin(), times_ms.end());
  // Failures count as the full budget, so they weigh on the percentiles.
  auto percentile = [&](double p) {
    if (times_ms.empty()) return 0.0;
    const std::size_t i = std::min(times_ms.size() - 1, static_cast<std::size_t>(p * (times_ms.size() - 1) + 0.5));
    return times_ms[i];
  };
  for (auto _ : state) state.SetIterationTime(percentile(0.5) / 1000.0);
  state.counters["success_pct"] = 100.0 * successes / std::max(1, total);
  state.counters["median_ms"] = percentile(0.5);
  state.counters["p95_ms"] = percentile(0.95);
  state.counters["problems"] = total;
}

void ours(benchmark::State& state, const std::string& robot_name, const std::string& scene_name) {
  const RobotModelPtr model = robot(robot_name);
  Planner planner(model, benchmark_scene(scene_name, model));
  PlannerOptions options = default_preset();
  options.timeout_ms = kBudgetS * 1000.0;
  options.max_iterations = 1000000;
  options.margin = kMargin;
  options.resolution = kResolution;
  std::vector<double> times, search_times, post_times, gate_times;
  int successes = 0, index = 0;
  for (const Problem& p : problems(robot_name, scene_name)) {
    options.seed = static_cast<std::uint64_t>(index++);
    const auto t0 = Clock::now();
    bool ok = false;
    try {
      const PlanResult result = planner.plan(p.start, JointGoal{p.goal}, options);
      ok = !result.path.empty();
      search_times.push_back(result.search_time_ms);
      post_times.push_back(result.postprocess_time_ms);
      gate_times.push_back(result.validation_time_ms);
    } catch (const Error&) {
    }
    const double t = ms_since(t0);
    ok = ok && t <= kBudgetS * 1000.0;
    successes += ok;
    times.push_back(ok ? t : kBudgetS * 1000.0);
  }
  report(state, times, successes, static_cast<int>(problems(robot_name, scene_name).size()));
  // The search alone (what OMPL's solve() does; ours adds shortcutting, smoothing and the gates).
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };
  state.counters["search_median_ms"] = median(search_times);
  state.counters["postprocess_median_ms"] = median(post_times);
  state.counters["gates_median_ms"] = median(gate_times);
}

// OMPL's motion validator, answering with our edge check (same states, same order, same margin).
class OurEdgeCheck : public ob::MotionValidator {
 public:
  OurEdgeCheck(const ob::SpaceInformationPtr& si, CollisionChecker& checker, int dof)
      : ob::MotionValidator(si), checker_(checker), dof_(dof) {}
  bool checkMotion(const ob::State* s1, const ob::State* s2) const override {
    if (!si_->isValid(s2)) {
      ++invalid_;
      return false;
    }
    const bool ok = edge_collision_free(checker_, vec(s1), vec(s2), kResolution, kMargin);
    ok ? ++valid_ : ++invalid_;
    return ok;
  }
  bool checkMotion(const ob::State* s1, const ob::State* s2, std::pair<ob::State*, double>& last) const override {
    // Walk from s1 in resolution steps; report the last valid state (RRT variants that use it).
    const JointVector a = vec(s1), b = vec(s2);
    const int n = std::max(1, static_cast<int>(std::ceil((b - a).cwiseAbs().maxCoeff() / kResolution)));
    for (int i = 1; i <= n; ++i) {
      const JointVector q = a + (b - a) * (static_cast<double>(i) / n);
      if (!state_collision_free(checker_, q, kMargin)) {
        last.second = static_cast<double>(i - 1) / n;
        if (last.first) si_->getStateSpace()->interpolate(s1, s2, last.second, last.first);
        ++invalid_;
        return false;
      }
    }
    ++valid_;
    return true;
  }

 private:
  JointVector vec(const ob::State* s) const {
    const auto* r = s->as<ob::RealVectorStateSpace::StateType>();
    return Eigen::Map<const Eigen::VectorXd>(r->values, dof_);
  }
  CollisionChecker& checker_;
  int dof_;
};

// simplify: also run OMPL's path simplifier after a solution, as MoveIt's OMPL pipeline does by
// default (simplify_solutions: shortcutting, vertex reduction and B-spline smoothing) — the
// pipeline our end-to-end figure (search + shortcutting + smoothing + gates) replaces.
void peer_ompl(benchmark::State& state, const std::string& robot_name, const std::string& scene_name,
               bool simplify) {
  ompl::msg::setLogLevel(ompl::msg::LOG_NONE);
  ompl::RNG::setSeed(42);
  const RobotModelPtr model = robot(robot_name);
  CollisionChecker checker(model);
  checker.set_scene(benchmark_scene(scene_name, model));
  const int dof = model->dof();
  auto space = std::make_shared<ob::RealVectorStateSpace>(dof);
  ob::RealVectorBounds bounds(dof);
  for (int j = 0; j < dof; ++j) {
    bounds.setLow(j, model->lower_limits()[j]);
    bounds.setHigh(j, model->upper_limits()[j]);
  }
  space->setBounds(bounds);
  og::SimpleSetup setup(space);
  JointVector q(dof);
  setup.setStateValidityChecker([&](const ob::State* s) {
    const auto* r = s->as<ob::RealVectorStateSpace::StateType>();
    for (int j = 0; j < dof; ++j) q[j] = r->values[j];
    return state_collision_free(checker, q, kMargin);
  });
  const ob::SpaceInformationPtr si = setup.getSpaceInformation();
  si->setMotionValidator(std::make_shared<OurEdgeCheck>(si, checker, dof));
  setup.setPlanner(std::make_shared<og::RRTConnect>(si));
  setup.setup();

  std::vector<double> times;
  int successes = 0;
  for (const Problem& p : problems(robot_name, scene_name)) {
    ob::ScopedState<ob::RealVectorStateSpace> start(space), goal(space);
    for (int j = 0; j < dof; ++j) {
      start[j] = p.start[j];
      goal[j] = p.goal[j];
    }
    setup.clear();
    setup.setStartAndGoalStates(start, goal);
    const auto t0 = Clock::now();
    const ob::PlannerStatus status = setup.solve(kBudgetS);
    const bool solved = status == ob::PlannerStatus::EXACT_SOLUTION;
    if (solved && simplify) setup.simplifySolution();
    const double t = ms_since(t0);
    const bool ok = solved && t <= kBudgetS * 1000.0;
    successes += ok;
    times.push_back(ok ? t : kBudgetS * 1000.0);
  }
  report(state, times, successes, static_cast<int>(problems(robot_name, scene_name).size()));
}

const bool registered = [] {
  for (const std::string robot_name : {"ur5e", "panda"})
    for (const auto& scene_name : benchmark_scene_names()) {
      const std::string name = robot_name + "_" + scene_name;
      benchmark::RegisterBenchmark(("Ours/" + name).c_str(), [=](benchmark::State& s) { ours(s, robot_name, scene_name); })
          ->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("PeerOMPL/" + name).c_str(), [=](benchmark::State& s) { peer_ompl(s, robot_name, scene_name, false); })
          ->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("PeerOMPLMoveItPipeline/" + name).c_str(), [=](benchmark::State& s) { peer_ompl(s, robot_name, scene_name, true); })
          ->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
