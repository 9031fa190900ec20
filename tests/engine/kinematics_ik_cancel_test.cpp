// IkOptions::cancel stops an IK solve whatever its budget: a numeric or sweep solve of a target out
// of reach, given an hour, throws Error(Cancelled) soon after the flag is raised; so does a pose
// goal's IK inside Planner::plan (kinetic.toml's [ik] timeout_ms is not the plan's), which is how
// Ctrl-C stops a headless run there.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "engine/core/error.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/numeric_ik.hpp"
#include "engine/kinematics/sweep_ik.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/planner.hpp"
#include "support/stall_watch.hpp"
#include "support/time_budget.hpp"

namespace kinetic {
namespace {

using Clock = std::chrono::steady_clock;

constexpr auto kRaisedAfter = std::chrono::milliseconds(30);

// An hour of budget, and iterations to match: only the flag can end these solves early.
IkOptions hour_long_options(const std::atomic<bool>& cancel) {
  IkOptions options;
  options.timeout_ms = 3600000.0;
  options.max_iterations = 1000000;
  options.cancel = &cancel;
  return options;
}

Pose out_of_reach() {
  Pose far = Pose::Identity();
  far.translation() = Vector3(2.5, 0.0, 0.5);
  return far;
}

// Runs `solve` with `cancel` raised kRaisedAfter in; expects Error(Cancelled) soon after that.
template <typename Solve>
void expect_cancelled_promptly(std::atomic<bool>& cancel, Solve solve) {
  const test::StallWatch stalls;
  const auto begin = Clock::now();
  std::thread raiser([&cancel] {
    std::this_thread::sleep_for(kRaisedAfter);
    cancel = true;
  });
  try {
    solve();
    ADD_FAILURE() << "a target out of reach with an hour's budget must end only by the cancel flag";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Cancelled) << e.message();
  }
  raiser.join();
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - begin).count();
  SKIP_IF_STALLED(stalls, ms < test::generous_ms(500.0));
  EXPECT_LT(ms, test::generous_ms(500.0)) << "the solve went on after the flag was raised";
}

KinematicChain chain_of(const std::string& robot) {
  return KinematicChain::from_config(load_builtin_robot(robot));
}

TEST(IkCancel, ARaisedFlagStopsALongNumericSolve) {
  const NumericIkSolver solver(chain_of("ur5e"));
  std::atomic<bool> cancel{false};
  const IkOptions options = hour_long_options(cancel);
  expect_cancelled_promptly(
      cancel, [&] { solver.solve(out_of_reach(), solver.chain().mid_configuration(), options); });
}

TEST(IkCancel, ARaisedFlagStopsALongSweep) {
  const RedundantSweepIkSolver solver(chain_of("panda"));
  std::atomic<bool> cancel{false};
  const IkOptions options = hour_long_options(cancel);
  expect_cancelled_promptly(
      cancel, [&] { solver.solve(out_of_reach(), solver.chain().mid_configuration(), options); });
}

TEST(IkCancel, AFlagRaisedBeforehandStopsAtOnceAndALoweredOneChangesNothing) {
  const NumericIkSolver solver(chain_of("ur5e"));
  const JointVector seed = solver.chain().mid_configuration();
  std::atomic<bool> cancel{true};
  IkOptions options = hour_long_options(cancel);
  EXPECT_THROW(solver.solve(out_of_reach(), seed, options), Error);

  // Not raised: a reachable target converges as it does without a flag.
  cancel = false;
  options.timeout_ms = test::generous_ms(50.0);
  options.max_iterations = 200;
  JointVector nearby = seed;
  nearby[1] += 0.3;
  const Pose target = solver.chain().fk(nearby);
  const IkResult with_flag = solver.solve(target, seed, options);
  options.cancel = nullptr;
  const IkResult without = solver.solve(target, seed, options);
  EXPECT_TRUE(with_flag.converged);
  EXPECT_EQ(with_flag.q, without.q);
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The Panda (sweep IK) with an hour of IK budget in its kinetic.toml.
RobotModelPtr panda_with_an_hour_of_ik() {
  const std::string dir = builtin_robot_directory() + "/panda";
  std::string toml = read_text(dir + "/kinetic.toml");
  const auto at = toml.find("[ik]\n");
  EXPECT_NE(at, std::string::npos);
  toml.insert(at + 5, "timeout_ms = 3600000\nmax_iterations = 1000000\n");
  return load_robot_string(read_text(dir + "/robot.urdf"), "", toml, dir);
}

TEST(IkCancel, APlansPoseGoalIkStopsWithThePlansCancelFlag) {
  const RobotModelPtr model = panda_with_an_hour_of_ik();
  Planner planner(model);
  std::atomic<bool> cancel{false};
  PlanControl control;
  control.cancel = &cancel;
  expect_cancelled_promptly(cancel, [&] {
    planner.plan(model->named_pose("home"), PoseGoal{out_of_reach()}, default_preset(), control);
  });
  // resolve_goal, which the task planner calls directly, takes the same flag.
  cancel = false;
  expect_cancelled_promptly(cancel, [&] {
    planner.resolve_goal(model->named_pose("home"), PoseGoal{out_of_reach()}, default_preset(),
                         control);
  });
}

}  // namespace
}  // namespace kinetic
