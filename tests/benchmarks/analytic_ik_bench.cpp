// Analytic IK: all solutions of one pose. Ours/opw_all_solutions (KUKA KR6 R700 sixx parameters)
// and Ours/ur_all_solutions (UR5: the real URDF's chain when ../shared/robots is present, its
// fixed base/tool frames included) against KDL's ChainIkSolverPos_NR_JL on the same UR5 chain
// and poses, which finds one solution per call. Ours/*_solve adds what IkSolver::solve does on
// top (normalising, limits, the chain-FK check of every solution, sorting, condition number).
#include <benchmark/benchmark.h>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainiksolverpos_nr_jl.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include <cstdlib>
#include <memory>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/opw_ik.hpp"
#include "engine/kinematics/ur_ik.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

constexpr double kPi = std::numbers::pi;

int pose_count() {
  return std::getenv("KINETIC_BENCH_QUICK") ? 100 : 1000;
}

OpwParameters kr6_parameters() {
  OpwParameters p;
  p.a1 = 0.025;
  p.a2 = -0.035;
  p.c1 = 0.400;
  p.c2 = 0.315;
  p.c3 = 0.365;
  p.c4 = 0.080;
  p.offsets = {0.0, -kPi / 2, 0.0, 0.0, 0.0, 0.0};
  p.sign_corrections = {-1, 1, 1, -1, 1, -1};
  return p;
}

JointVector random_configuration(std::mt19937_64& rng, const JointVector& lower,
                                 const JointVector& upper) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  JointVector q(lower.size());
  for (int j = 0; j < q.size(); ++j) q[j] = lower[j] + unit(rng) * (upper[j] - lower[j]);
  return q;
}

// ---- OPW ----

struct OpwFixture {
  OpwParameters params = kr6_parameters();
  std::vector<Pose> poses;
  std::vector<JointVector> seeds;
  OpwFixture() {
    std::mt19937_64 rng(3);
    const JointVector lower = JointVector::Constant(6, -kPi), upper = JointVector::Constant(6, kPi);
    for (int i = 0; i < pose_count(); ++i) {
      const JointVector q = random_configuration(rng, lower, upper);
      poses.push_back(opw_forward(params, q));
      seeds.push_back(random_configuration(rng, lower, upper));
    }
  }
};

const OpwFixture& opw_fixture() {
  static const OpwFixture fixture;
  return fixture;
}

void opw_all_solutions(benchmark::State& state) {
  const OpwFixture& f = opw_fixture();
  std::size_t i = 0;
  long long solutions = 0;
  for (auto _ : state) {
    const AnalyticSolutions result = opw_inverse(f.params, f.poses[i]);
    benchmark::DoNotOptimize(result);
    solutions += result.count;
    if (++i == f.poses.size()) i = 0;
  }
  state.counters["solutions_per_pose"] =
      static_cast<double>(solutions) / static_cast<double>(state.iterations());
}
BENCHMARK(opw_all_solutions)->Name("Ours/opw_all_solutions");

void opw_solve(benchmark::State& state) {
  const OpwFixture& f = opw_fixture();
  const OpwIkSolver solver(f.params);
  std::size_t i = 0;
  for (auto _ : state) {
    IkResult result = solver.solve(f.poses[i], f.seeds[i]);
    benchmark::DoNotOptimize(result);
    if (++i == f.poses.size()) i = 0;
  }
  state.SetLabel("bare OPW model: FK check by the OPW FK");
}
BENCHMARK(opw_solve)->Name("Ours/opw_solve");

// ---- UR5 ----

struct UrFixture {
  bool have_chain = false;
  std::string error;
  UrParameters params{0.089159, -0.425, -0.39225, 0.10915, 0.09465, 0.0823};
  std::unique_ptr<UrIkSolver> solver;  // on the URDF chain
  std::vector<Pose> poses;             // chain base_link -> tool0
  std::vector<Pose> flange_poses;      // the same poses in the DH frames
  std::vector<JointVector> seeds;
  KDL::Chain kdl_chain;
  JointVector lower = JointVector::Constant(6, -kPi), upper = JointVector::Constant(6, kPi);

  UrFixture() {
    std::mt19937_64 rng(5);
    const std::string urdf =
        test::example_robot_data_dir() + "/robots/ur_description/urdf/ur5_robot.urdf";
    std::optional<KinematicChain> chain;
    if (test::shared_robots_available()) {
      KDL::Tree tree;
      if (kdl_parser::treeFromFile(urdf, tree) && tree.getChain("base_link", "tool0", kdl_chain)) {
        chain.emplace(load_robot_file(urdf), "base_link", "tool0");
        params = *derive_ur_parameters(*chain);
        solver = std::make_unique<UrIkSolver>(params, *chain);
        lower = chain->lower_limits();
        upper = chain->upper_limits();
        have_chain = true;
      } else {
        error = "kdl_parser could not read " + urdf;
      }
    } else {
      error = "../shared/robots is absent: no UR5 URDF for the KDL peer";
    }
    for (int i = 0; i < pose_count(); ++i) {
      const JointVector q = random_configuration(rng, lower, upper);
      const Pose pose = chain ? chain->fk(q) : ur_forward(params, q);
      poses.push_back(pose);
      flange_poses.push_back(solver ? solver->frames().to_analytic(pose) : pose);
      seeds.push_back(JointVector::Zero(6));
    }
  }
};

const UrFixture& ur_fixture() {
  static const UrFixture fixture;
  return fixture;
}

void ur_all_solutions(benchmark::State& state) {
  const UrFixture& f = ur_fixture();
  std::size_t i = 0;
  long long solutions = 0;
  for (auto _ : state) {
    // The base/tool adapter is part of solving a URDF pose, so it is timed too.
    const Pose flange = f.solver ? f.solver->frames().to_analytic(f.poses[i]) : f.poses[i];
    const AnalyticSolutions result = ur_inverse(f.params, flange);
    benchmark::DoNotOptimize(result);
    solutions += result.count;
    if (++i == f.poses.size()) i = 0;
  }
  state.counters["solutions_per_pose"] =
      static_cast<double>(solutions) / static_cast<double>(state.iterations());
  state.SetLabel(f.have_chain ? "all solutions, UR5 URDF chain" : "all solutions, UR5 DH model");
}
BENCHMARK(ur_all_solutions)->Name("Ours/ur_all_solutions");

void ur_solve(benchmark::State& state) {
  const UrFixture& f = ur_fixture();
  if (!f.solver) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  std::size_t i = 0;
  for (auto _ : state) {
    IkResult result = f.solver->solve(f.poses[i], f.seeds[i]);
    benchmark::DoNotOptimize(result);
    if (++i == f.poses.size()) i = 0;
  }
  state.SetLabel("UR5 URDF chain: every solution checked by chain FK");
}
BENCHMARK(ur_solve)->Name("Ours/ur_solve");

void kdl_ur(benchmark::State& state) {
  const UrFixture& f = ur_fixture();
  if (!f.have_chain) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  const unsigned n = f.kdl_chain.getNrOfJoints();
  KDL::JntArray lower(n), upper(n), seed(n), out(n);
  for (unsigned j = 0; j < n; ++j) {
    lower(j) = f.lower[static_cast<int>(j)];
    upper(j) = f.upper[static_cast<int>(j)];
  }
  KDL::ChainFkSolverPos_recursive fk(f.kdl_chain);
  KDL::ChainIkSolverVel_pinv ik_velocity(f.kdl_chain);
  KDL::ChainIkSolverPos_NR_JL ik(f.kdl_chain, lower, upper, fk, ik_velocity, 100, 1e-6);
  std::vector<KDL::Frame> targets;
  for (const Pose& pose : f.poses) {
    KDL::Frame frame;
    for (int r = 0; r < 3; ++r) {
      frame.p[r] = pose.translation()[r];
      for (int c = 0; c < 3; ++c) frame.M(r, c) = pose.linear()(r, c);
    }
    targets.push_back(frame);
  }
  std::size_t i = 0;
  long long successes = 0;
  for (auto _ : state) {
    successes += ik.CartToJnt(seed, targets[i], out) >= 0 ? 1 : 0;
    benchmark::DoNotOptimize(out);
    if (++i == targets.size()) i = 0;
  }
  state.counters["success_rate"] =
      static_cast<double>(successes) / static_cast<double>(state.iterations());
  state.SetLabel("KDL NR_JL finds ONE solution per call (seed zero, 100 iterations, eps 1e-6)");
}
BENCHMARK(kdl_ur)->Name("PeerKDL/ur_all_solutions");

}  // namespace
}  // namespace kinetic

BENCHMARK_MAIN();
