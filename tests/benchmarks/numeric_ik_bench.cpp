// Numeric IK with TRAC-IK's protocol, ours and KDL's ChainIkSolverPos_NR_JL on the same poses in
// the same run: 10,000 poses per robot (FK of uniformly random configurations within limits),
// tolerance 1e-5, 5 ms timeout, seed at mid-limits. KDL runs as in TRAC-IK's ik_tests: one NR
// iteration per CartToJnt call, repeated from the last result until success or the timeout.
// KINETIC_BENCH_QUICK shrinks the protocol to 100 poses.
//
// Robots: the Panda from ../shared/robots; UR5e and iiwa14 from the built-in library (the UR5e
// falls back to the shared UR5 while robot_configs/ has no ur5e; iiwa14 is skipped, with a
// message, while it is missing).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>
#include <map>
#include <memory>
#include <random>

#include "engine/core/error.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/numeric_ik.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

using Clock = std::chrono::steady_clock;
constexpr double kTolerance = 1e-5;
constexpr double kTimeoutSeconds = 0.005;

// CPU time of this thread: on a shared machine the wall-clock times above also count time spent
// descheduled, so both solvers' CPU means are reported beside them.
double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

int pose_count() {
  return std::getenv("KINETIC_BENCH_QUICK") ? 100 : 10000;
}

struct IkProblem {
  std::string robot;    // what was actually loaded
  std::string missing;  // why the robot is unavailable ("" when loaded)
  std::unique_ptr<KinematicChain> chain;
  KDL::Chain kdl_chain;
  std::vector<Pose> targets;
};

KDL::Frame to_kdl(const Pose& pose) {
  const Eigen::Matrix3d& r = pose.linear();
  return KDL::Frame(
      KDL::Rotation(r(0, 0), r(0, 1), r(0, 2), r(1, 0), r(1, 1), r(1, 2), r(2, 0), r(2, 1),
                    r(2, 2)),
      KDL::Vector(pose.translation().x(), pose.translation().y(), pose.translation().z()));
}

void finish(IkProblem& p, const std::string& urdf_file) {
  KDL::Tree tree;
  if (!kdl_parser::treeFromFile(urdf_file, tree) ||
      !tree.getChain(p.chain->base_link(), p.chain->tip_link(), p.kdl_chain)) {
    p.missing = "kdl_parser could not build the chain from " + urdf_file;
    return;
  }
  if (!p.chain->tip_offset().isApprox(Pose::Identity()))  // the TCP, as a fixed KDL segment
    p.kdl_chain.addSegment(
        KDL::Segment(KDL::Joint(KDL::Joint::None), to_kdl(p.chain->tip_offset())));
  std::mt19937_64 random(2024);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const JointVector lower = p.chain->lower_limits(), upper = p.chain->upper_limits();
  for (int n = 0; n < pose_count(); ++n) {
    JointVector q(p.chain->dof());
    for (int i = 0; i < q.size(); ++i) q[i] = lower[i] + unit(random) * (upper[i] - lower[i]);
    p.targets.push_back(p.chain->fk(q));
  }
}

std::shared_ptr<IkProblem> load_shared(const std::string& relative, const std::string& base,
                                       const std::string& tip, const std::string& label) {
  auto p = std::make_shared<IkProblem>();
  if (!test::shared_robots_available()) {
    p->missing = "../shared/robots is absent";
    return p;
  }
  const std::string file = test::example_robot_data_dir() + "/robots/" + relative;
  p->robot = label;
  p->chain = std::make_unique<KinematicChain>(load_robot_file(file), base, tip);
  finish(*p, file);
  return p;
}

// A built-in robot when the library has it, else nullptr.
std::shared_ptr<IkProblem> load_builtin(const std::string& name) {
  for (const BuiltinRobotInfo& info : builtin_robots()) {
    if (info.name != name) continue;
    auto p = std::make_shared<IkProblem>();
    const RobotModelPtr model = load_builtin_robot(name);
    p->robot = "builtin " + name;
    p->chain = std::make_unique<KinematicChain>(KinematicChain::from_config(model));
    finish(*p, (std::filesystem::path(info.directory) / model->config().urdf).string());
    return p;
  }
  return nullptr;
}

std::shared_ptr<IkProblem> problem(const std::string& robot) {
  static std::map<std::string, std::shared_ptr<IkProblem>> cache;
  auto& entry = cache[robot];
  if (entry) return entry;
  try {
    if (robot == "panda") {
      entry = load_shared("panda_description/urdf/panda.urdf", "panda_link0", "panda_hand",
                          "shared panda");
    } else if (robot == "ur5e") {
      entry = load_builtin("ur5e");
      if (!entry)
        entry = load_shared("ur_description/urdf/ur5_robot.urdf", "base_link", "tool0",
                            "shared ur5 (robot_configs has no ur5e)");
    } else {
      entry = load_builtin(robot);
      if (!entry) {
        entry = std::make_shared<IkProblem>();
        entry->missing = robot + " is not in robot_configs/ yet";
      }
    }
  } catch (const Error& e) {
    entry = std::make_shared<IkProblem>();
    entry->missing = robot + " failed to load: " + e.message();
  }
  return entry;
}

void report(benchmark::State& state, const IkProblem& p, std::vector<double> times_us,
            int successes, double cpu_seconds) {
  const double n = static_cast<double>(times_us.size());
  state.counters["cpu_mean_us"] = 1e6 * cpu_seconds / n;
  double total = 0;
  for (const double t : times_us) total += t;
  std::sort(times_us.begin(), times_us.end());
  double slow = 0;  // the share of the total spent in solves over 1 ms (restarts, timeouts)
  for (const double t : times_us) slow += t > 1000.0 ? t : 0.0;
  state.counters["success_pct"] = 100.0 * successes / n;
  state.counters["mean_us"] = total / n;
  state.counters["median_us"] = times_us[times_us.size() / 2];
  state.counters["p99_us"] = times_us[static_cast<std::size_t>(0.99 * (n - 1))];
  state.counters["over_1ms_pct_of_time"] = total > 0 ? 100.0 * slow / total : 0.0;
  state.counters["poses"] = n;
  state.SetLabel(p.robot);
}

void Ours_numeric_ik(benchmark::State& state, const std::string& robot) {
  const auto p = problem(robot);
  if (!p->missing.empty()) return state.SkipWithError(p->missing.c_str());
  const NumericIkSolver solver(*p->chain);
  IkOptions options;
  options.position_tolerance = kTolerance;
  options.orientation_tolerance = kTolerance;
  options.timeout_ms = kTimeoutSeconds * 1e3;
  const JointVector seed = p->chain->mid_configuration();
  for (auto _ : state) {
    std::vector<double> times_us;
    int successes = 0;
    double iterations = 0;
    const double cpu_start = thread_cpu_seconds();
    for (const Pose& target : p->targets) {
      const auto start = Clock::now();
      const IkResult result = solver.solve(target, seed, options);
      times_us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
      if (result.converged) ++successes;
      iterations += result.iterations;
    }
    const double cpu_seconds = thread_cpu_seconds() - cpu_start;
    state.counters["mean_iterations"] = iterations / static_cast<double>(p->targets.size());
    report(state, *p, std::move(times_us), successes, cpu_seconds);
  }
}

void PeerKDL_numeric_ik(benchmark::State& state, const std::string& robot) {
  const auto p = problem(robot);
  if (!p->missing.empty()) return state.SkipWithError(p->missing.c_str());
  const unsigned dof = p->kdl_chain.getNrOfJoints();
  KDL::JntArray lower(dof), upper(dof), nominal(dof);
  for (unsigned i = 0; i < dof; ++i) {
    lower(i) = p->chain->lower_limits()[i];
    upper(i) = p->chain->upper_limits()[i];
    nominal(i) = 0.5 * (lower(i) + upper(i));
  }
  KDL::ChainFkSolverPos_recursive fk(p->kdl_chain);
  KDL::ChainIkSolverVel_pinv velocity(p->kdl_chain);
  KDL::ChainIkSolverPos_NR_JL solver(p->kdl_chain, lower, upper, fk, velocity, 1, kTolerance);
  for (auto _ : state) {
    std::vector<double> times_us;
    int successes = 0;
    KDL::JntArray q(dof), result(dof);
    const double cpu_start = thread_cpu_seconds();
    for (const Pose& target : p->targets) {
      const KDL::Frame goal = to_kdl(target);
      result = nominal;
      int rc = -1;
      const auto start = Clock::now();
      double elapsed = 0;
      do {
        q = result;
        rc = solver.CartToJnt(q, goal, result);
        elapsed = std::chrono::duration<double>(Clock::now() - start).count();
      } while (rc < 0 && elapsed < kTimeoutSeconds);
      times_us.push_back(elapsed * 1e6);
      if (rc >= 0) ++successes;
    }
    report(state, *p, std::move(times_us), successes, thread_cpu_seconds() - cpu_start);
  }
}

void register_all() {
  for (const std::string robot : {"panda", "ur5e", "iiwa14"}) {
    benchmark::RegisterBenchmark(("Ours/numeric_ik_" + robot).c_str(), Ours_numeric_ik, robot)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("PeerKDL/numeric_ik_" + robot).c_str(), PeerKDL_numeric_ik, robot)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

}  // namespace
}  // namespace kinetic

int main(int argc, char** argv) {
  kinetic::register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
