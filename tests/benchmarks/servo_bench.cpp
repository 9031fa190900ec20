// One servo control period for a TCP twist, on the built-in UR5e and Panda (base_link -> tool0),
// side by side with Orocos KDL's velocity IK on the same chain (kdl_parser from the same URDF),
// the same configurations and the same twists.
//
// Ours/servo_step_*: Servo::step as a 500 Hz loop runs it (the state fed back, so the clearance
// of the current state comes from the previous step): twist capping, damped least squares, joint
// velocity and position limits, the condition number at the candidate state, self-collision pair
// by pair and the scene's minimum distance at the candidate state, the integration.
// *_scene10 adds ten obstacles around the arm (one 10 cm from the TCP: inside no slowdown zone).
// PeerKDL/servo_step_*: ChainIkSolverVel_wdls::CartToJnt (lambda 0.01, like our damping), and
// PeerKDLpinv: ChainIkSolverVel_pinv::CartToJnt. The peers compute joint velocities only: no
// limits, singularity or collision checks.
// Ours/velocity_solve_*: the same work as the peers and nothing more: the Jacobian at the state
// and the joint velocities for the twist, by damped least squares through the eigen
// decomposition (dls, what a step does near singularities) or by Cholesky (exact, what a step
// does where the arm is well conditioned).
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <kdl/chain.hpp>
#include <kdl/chainiksolvervel_pinv.hpp>
#include <kdl/chainiksolvervel_wdls.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/model/robot_loader.hpp"
#include "engine/servo/gram_algebra.hpp"
#include "engine/servo/servo.hpp"

namespace kinetic {
namespace {

constexpr int kStates = 1000;  // one lap of the twist's circle; the loop restarts from the first

struct ServoFixture {
  RobotModelPtr model;
  std::unique_ptr<Servo> servo;
  KDL::Chain kdl_chain;
  std::vector<JointVector> states;        // model order, along the servoed circle
  std::vector<KDL::JntArray> kdl_states;  // chain order, the same
  std::vector<Twist> twists;
  std::string error;
};

// The twist of state n: 0.1 m/s turning once per lap in the horizontal plane (a 3 cm circle) plus
// a slow turn about the vertical, so the arm stays near its start.
Twist twist_at(int n) {
  const double angle = 2.0 * M_PI * n / kStates;
  Twist t;
  t << 0.1 * std::cos(angle), 0.1 * std::sin(angle), 0.0, 0.0, 0.0, 0.2 * std::sin(angle);
  return t;
}

ServoCommand command_for(const Twist& t) {
  ServoCommand c;
  c.kind = ServoCommand::Kind::Twist;
  c.twist = t;
  return c;
}

PlanningScene ten_obstacles(const Pose& tcp) {
  PlanningScene scene;
  // A plate 10 cm below the TCP, a wall behind the robot, and boxes and cylinders around it.
  Pose plate = Pose::Identity();
  plate.translation() = tcp.translation() - Vector3(0, 0, 0.12);
  scene.add_obstacle("plate", Shape::box(Vector3(0.2, 0.2, 0.04)), plate);
  scene.add_obstacle("wall", Shape::box(Vector3(0.05, 2.0, 1.5)),
                     Pose(Eigen::Translation3d(0.9, 0, 0.75)));
  for (int i = 0; i < 8; ++i) {
    const double angle = 2.0 * M_PI * i / 8.0 + 0.3;
    Pose p = Pose::Identity();
    p.translation() = Vector3(1.1 * std::cos(angle), 1.1 * std::sin(angle), 0.2 + 0.1 * i);
    const Shape shape = i % 2 ? Shape::cylinder(0.05, 0.3) : Shape::box(Vector3(0.15, 0.1, 0.2));
    scene.add_obstacle("obstacle_" + std::to_string(i), shape, p);
  }
  return scene;
}

std::unique_ptr<ServoFixture> make_fixture(const std::string& name, bool with_scene) {
  auto f = std::make_unique<ServoFixture>();
  try {
    f->model = load_builtin_robot(name);
    f->servo = std::make_unique<Servo>(f->model);
    JointVector q = f->model->named_pose("ready");
    const KinematicChain& chain = f->servo->chain();
    if (with_scene) f->servo->set_scene(ten_obstacles(chain.fk(chain.to_chain(q))));
    std::string urdf;
    for (const BuiltinRobotInfo& info : builtin_robots())
      if (info.name == name)
        urdf = (std::filesystem::path(info.directory) / f->model->config().urdf).string();
    KDL::Tree tree;
    if (urdf.empty() || !kdl_parser::treeFromFile(urdf, tree) ||
        !tree.getChain(chain.base_link(), chain.tip_link(), f->kdl_chain)) {
      f->error =
          "KDL could not build " + chain.base_link() + " -> " + chain.tip_link() + " from " + urdf;
      return f;
    }
    Servo recorder(f->model);  // the states along one lap, without the scene
    for (int n = 0; n < kStates; ++n) {
      f->states.push_back(q);
      const JointVector qc = chain.to_chain(q);
      KDL::JntArray kq(static_cast<unsigned>(qc.size()));
      for (int i = 0; i < qc.size(); ++i) kq(static_cast<unsigned>(i)) = qc[i];
      f->kdl_states.push_back(kq);
      f->twists.push_back(twist_at(n));
      q = recorder.step(q, command_for(twist_at(n))).q;
    }
  } catch (const std::exception& e) {
    f->error = e.what();
  }
  return f;
}

const ServoFixture& fixture(const std::string& name, bool with_scene) {
  static std::map<std::string, std::unique_ptr<ServoFixture>> fixtures;
  auto& f = fixtures[name + (with_scene ? "+scene" : "")];
  if (!f) f = make_fixture(name, with_scene);
  return *f;
}

void Ours_servo_step(benchmark::State& state, const std::string& robot, bool with_scene) {
  const ServoFixture& f = fixture(robot, with_scene);
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  std::vector<ServoCommand> commands;
  for (const Twist& t : f.twists) commands.push_back(command_for(t));
  JointVector q = f.states[0];
  int n = 0;
  for (auto _ : state) {
    ServoStep s = f.servo->step(q, commands[static_cast<std::size_t>(n)]);
    benchmark::DoNotOptimize(s.q.data());
    if (++n == kStates) {
      n = 0;
      q = f.states[0];
    } else {
      q = std::move(s.q);
    }
  }
}

// The velocity solve alone (see the file comment); damped: eigen decomposition, else Cholesky.
void Ours_velocity_solve(benchmark::State& state, const std::string& robot, bool damped) {
  const ServoFixture& f = fixture(robot, false);
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  const KinematicChain& chain = f.servo->chain();
  const ServoOptions options = f.servo->options();
  std::vector<JointVector> chain_states;
  for (const JointVector& q : f.states) chain_states.push_back(chain.to_chain(q));
  GramAlgebra algebra;
  Pose tip = Pose::Identity();
  Jacobian jacobian(6, chain_states[0].size());
  JointVector dq(chain_states[0].size());
  std::size_t n = 0;
  for (auto _ : state) {
    chain.fk_and_jacobian(chain_states[n], tip, jacobian);
    if (damped)
      algebra.damped(jacobian, f.twists[n], options.damping, options.singularity_slowdown, dq);
    else if (!algebra.exact(jacobian, f.twists[n], dq))
      state.SkipWithError("the Jacobian lost rank on the benchmark's circle");
    benchmark::DoNotOptimize(dq.data());
    benchmark::ClobberMemory();
    if (++n == static_cast<std::size_t>(kStates)) n = 0;
  }
}

template <typename Solver>
void PeerKDL_velocity(benchmark::State& state, const std::string& robot) {
  const ServoFixture& f = fixture(robot, false);
  if (!f.error.empty()) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  Solver solver(f.kdl_chain);
  if constexpr (std::is_same_v<Solver, KDL::ChainIkSolverVel_wdls>) solver.setLambda(0.01);
  std::vector<KDL::Twist> twists;
  for (const Twist& t : f.twists)
    twists.emplace_back(KDL::Vector(t[0], t[1], t[2]), KDL::Vector(t[3], t[4], t[5]));
  KDL::JntArray qdot(f.kdl_chain.getNrOfJoints());
  std::size_t n = 0;
  for (auto _ : state) {
    solver.CartToJnt(f.kdl_states[n], twists[n], qdot);
    benchmark::DoNotOptimize(qdot.data.data());
    benchmark::ClobberMemory();
    if (++n == static_cast<std::size_t>(kStates)) n = 0;
  }
}

void PeerKDL_wdls(benchmark::State& state, const std::string& robot) {
  PeerKDL_velocity<KDL::ChainIkSolverVel_wdls>(state, robot);
}
void PeerKDL_pinv(benchmark::State& state, const std::string& robot) {
  PeerKDL_velocity<KDL::ChainIkSolverVel_pinv>(state, robot);
}

BENCHMARK_CAPTURE(Ours_servo_step, ur5e, std::string("ur5e"), false)->Name("Ours/servo_step_ur5e");
BENCHMARK_CAPTURE(PeerKDL_wdls, ur5e, std::string("ur5e"))->Name("PeerKDL/servo_step_ur5e");
BENCHMARK_CAPTURE(PeerKDL_pinv, ur5e, std::string("ur5e"))->Name("PeerKDLpinv/servo_step_ur5e");
BENCHMARK_CAPTURE(Ours_velocity_solve, ur5e_dls, std::string("ur5e"), true)
    ->Name("Ours/velocity_solve_dls_ur5e");
BENCHMARK_CAPTURE(Ours_velocity_solve, ur5e_exact, std::string("ur5e"), false)
    ->Name("Ours/velocity_solve_exact_ur5e");
BENCHMARK_CAPTURE(Ours_servo_step, ur5e_scene10, std::string("ur5e"), true)
    ->Name("Ours/servo_step_ur5e_scene10");
BENCHMARK_CAPTURE(Ours_servo_step, panda, std::string("panda"), false)
    ->Name("Ours/servo_step_panda");
BENCHMARK_CAPTURE(PeerKDL_wdls, panda, std::string("panda"))->Name("PeerKDL/servo_step_panda");
BENCHMARK_CAPTURE(PeerKDL_pinv, panda, std::string("panda"))->Name("PeerKDLpinv/servo_step_panda");
BENCHMARK_CAPTURE(Ours_velocity_solve, panda_dls, std::string("panda"), true)
    ->Name("Ours/velocity_solve_dls_panda");
BENCHMARK_CAPTURE(Ours_velocity_solve, panda_exact, std::string("panda"), false)
    ->Name("Ours/velocity_solve_exact_panda");
BENCHMARK_CAPTURE(Ours_servo_step, panda_scene10, std::string("panda"), true)
    ->Name("Ours/servo_step_panda_scene10");

}  // namespace
}  // namespace kinetic

BENCHMARK_MAIN();
