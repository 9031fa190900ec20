// FK and Jacobian of the Panda (panda_link0 -> panda_hand) side by side with Orocos KDL
// (ChainFkSolverPos_recursive, ChainJntToJacSolver) on the same file and configurations:
// the tip pose (fk), FK + Jacobian at once (jacobian; KDL's solver also computes the frames), and
// every link (all_links: ours is the whole 13-link tree incl. fingers, KDL's the chain's frames).
#include <benchmark/benchmark.h>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/chainjnttojacsolver.hpp>
#include <kdl/jacobian.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>
#include <memory>
#include <random>

#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

constexpr int kConfigurations = 1024;  // cycled through so nothing is constant-folded

struct PandaFixture {
  std::string file;
  RobotModelPtr model;
  std::unique_ptr<KinematicChain> chain;
  KDL::Chain kdl_chain;
  std::vector<JointVector> configurations;
  std::vector<KDL::JntArray> kdl_configurations;
};

const PandaFixture* panda() {
  static const std::unique_ptr<PandaFixture> fixture = []() -> std::unique_ptr<PandaFixture> {
    if (!test::shared_robots_available()) return nullptr;
    auto f = std::make_unique<PandaFixture>();
    f->file = test::example_robot_data_dir() + "/robots/panda_description/urdf/panda.urdf";
    f->model = load_robot_file(f->file);
    f->chain = std::make_unique<KinematicChain>(f->model, "panda_link0", "panda_hand");
    KDL::Tree tree;
    if (!kdl_parser::treeFromFile(f->file, tree) ||
        !tree.getChain("panda_link0", "panda_hand", f->kdl_chain))
      return nullptr;
    std::mt19937_64 random(1);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const JointVector lower = f->chain->lower_limits(), upper = f->chain->upper_limits();
    for (int n = 0; n < kConfigurations; ++n) {
      JointVector q(f->chain->dof());
      KDL::JntArray kdl_q(f->chain->dof());
      for (int i = 0; i < q.size(); ++i)
        kdl_q(i) = q[i] = lower[i] + unit(random) * (upper[i] - lower[i]);
      f->configurations.push_back(q);
      f->kdl_configurations.push_back(kdl_q);
    }
    return f;
  }();
  return fixture.get();
}

#define REQUIRE_PANDA(state)                                                         \
  const PandaFixture* f = panda();                                                   \
  if (!f) {                                                                          \
    (state).SkipWithError("../shared/robots is absent: the Panda is not available"); \
    return;                                                                          \
  }

void Ours_fk_panda(benchmark::State& state) {
  REQUIRE_PANDA(state);
  std::size_t n = 0;
  for (auto _ : state) {
    Pose pose = f->chain->fk(f->configurations[n++ & (kConfigurations - 1)]);
    benchmark::DoNotOptimize(pose);
  }
}

void PeerKDL_fk_panda(benchmark::State& state) {
  REQUIRE_PANDA(state);
  KDL::ChainFkSolverPos_recursive solver(f->kdl_chain);
  KDL::Frame frame;
  std::size_t n = 0;
  for (auto _ : state) {
    solver.JntToCart(f->kdl_configurations[n++ & (kConfigurations - 1)], frame);
    benchmark::DoNotOptimize(frame);
  }
}

void Ours_jacobian_panda(benchmark::State& state) {
  REQUIRE_PANDA(state);
  Jacobian jacobian(6, f->chain->dof());
  Pose tip;
  std::size_t n = 0;
  for (auto _ : state) {
    f->chain->fk_and_jacobian(f->configurations[n++ & (kConfigurations - 1)], tip, jacobian);
    benchmark::DoNotOptimize(jacobian.data());
    benchmark::ClobberMemory();
  }
}

void PeerKDL_jacobian_panda(benchmark::State& state) {
  REQUIRE_PANDA(state);
  KDL::ChainJntToJacSolver solver(f->kdl_chain);
  KDL::Jacobian jacobian(f->kdl_chain.getNrOfJoints());
  std::size_t n = 0;
  for (auto _ : state) {
    solver.JntToJac(f->kdl_configurations[n++ & (kConfigurations - 1)], jacobian);
    benchmark::DoNotOptimize(jacobian.data.data());
    benchmark::ClobberMemory();
  }
}

void Ours_all_links_panda(benchmark::State& state) {
  REQUIRE_PANDA(state);
  const ForwardKinematics fk(*f->model);
  std::vector<JointVector> model_configurations;
  for (const JointVector& q : f->configurations) {
    JointVector q_model = JointVector::Zero(f->model->dof());
    f->chain->to_model(q, q_model);
    model_configurations.push_back(q_model);
  }
  std::vector<Pose> poses;
  std::size_t n = 0;
  for (auto _ : state) {
    fk.compute(model_configurations[n++ & (kConfigurations - 1)], poses);
    benchmark::DoNotOptimize(poses.data());
    benchmark::ClobberMemory();
  }
  state.counters["links"] = static_cast<double>(f->model->links().size());
}

void PeerKDL_all_links_panda(benchmark::State& state) {
  REQUIRE_PANDA(state);
  KDL::ChainFkSolverPos_recursive solver(f->kdl_chain);
  std::vector<KDL::Frame> frames(f->kdl_chain.getNrOfSegments());
  std::size_t n = 0;
  for (auto _ : state) {
    solver.JntToCart(f->kdl_configurations[n++ & (kConfigurations - 1)], frames);
    benchmark::DoNotOptimize(frames.data());
    benchmark::ClobberMemory();
  }
  state.counters["links"] = static_cast<double>(frames.size());
}

void Ours_manipulability_panda(benchmark::State& state) {
  REQUIRE_PANDA(state);
  std::size_t n = 0;
  for (auto _ : state)
    benchmark::DoNotOptimize(
        f->chain->manipulability(f->configurations[n++ & (kConfigurations - 1)]));
}

BENCHMARK(Ours_fk_panda)->Name("Ours/fk_panda");
BENCHMARK(PeerKDL_fk_panda)->Name("PeerKDL/fk_panda");
BENCHMARK(Ours_jacobian_panda)->Name("Ours/jacobian_panda");
BENCHMARK(PeerKDL_jacobian_panda)->Name("PeerKDL/jacobian_panda");
BENCHMARK(Ours_all_links_panda)->Name("Ours/all_links_panda");
BENCHMARK(PeerKDL_all_links_panda)->Name("PeerKDL/all_links_panda");
BENCHMARK(Ours_manipulability_panda)->Name("Ours/manipulability_panda");

}  // namespace
}  // namespace kinetic

BENCHMARK_MAIN();
