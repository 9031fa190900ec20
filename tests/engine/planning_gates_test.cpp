// The output gates (every state checked: waypoints, segments against the scene by the continuous
// check, self collision by the continuous self check or, for comparison, every 0.01 rad) and the
// benchmark problem generator (fixed seed, only pairs some path joins).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/output_gates.hpp"
#include "engine/planning/planning_space.hpp"
#include "support/benchmark_scenes.hpp"
#include "ur5e_forearm_swing.hpp"

using namespace kinetic;

namespace {

JointVector ur5e_pose(double q1, double q2) {
  JointVector q = JointVector::Zero(6);
  q[0] = q1;
  q[1] = q2;
  q[2] = 1.0;  // elbow bent: the forearm clears the base whatever the shoulder does
  q[3] = -1.0;
  return q;
}

// A plate 1 cm thick across the path of the UR5e's elbow when joint 1 turns through zero.
PlanningScene plate_in_the_elbow_sweep(CollisionChecker& checker, const RobotModel& model) {
  checker.update(ur5e_pose(0.0, -0.5));
  const Vector3 elbow =
      checker.link_poses()[static_cast<std::size_t>(model.link_index("link3"))].translation();
  Pose pose = Pose::Identity();
  pose.translation() = elbow;
  const Vector3 tangent = Vector3::UnitZ().cross(Vector3(elbow.x(), elbow.y(), 0.0)).normalized();
  pose.linear() << tangent, Vector3::UnitZ(), Vector3(elbow.x(), elbow.y(), 0.0).normalized();
  PlanningScene scene;
  scene.add_obstacle("plate", Shape::box({0.01, 0.12, 0.12}), pose);
  return scene;
}

TEST(OutputGates, NameTheFirstWaypointOrSegmentInCollision) {
  const RobotModelPtr model = load_builtin_robot("ur5e");
  CollisionChecker checker(model);
  checker.set_scene(plate_in_the_elbow_sweep(checker, *model));
  const JointVector before = ur5e_pose(-0.9, -0.5), through = ur5e_pose(0.0, -0.5),
                    after = ur5e_pose(0.9, -0.5);
  ASSERT_FALSE(checker.in_collision(before));
  ASSERT_FALSE(checker.in_collision(after));
  ASSERT_TRUE(checker.in_collision(through));

  // Both ends free, the plate in between: only the segment check can see it.
  const auto swept = collision_gate(checker, {before, after});
  ASSERT_TRUE(swept.has_value());
  EXPECT_EQ(
      swept->rfind("segment 0 -> 1 fails the continuous collision check against the scene ('", 0),
      0u)
      << *swept;
  EXPECT_NE(swept->find("' with 'plate')"), std::string::npos)
      << *swept;  // the link that reaches it first

  const auto stop = collision_gate(checker, {before, before + (after - before) * 0.05, through});
  ASSERT_TRUE(stop.has_value());
  EXPECT_NE(stop->find("waypoint 2 is in collision"), std::string::npos) << *stop;
  EXPECT_NE(stop->find("plate"), std::string::npos) << *stop;

  const auto start = collision_gate(checker, {through, after});
  ASSERT_TRUE(start.has_value());
  EXPECT_NE(start->find("waypoint 0 is in collision"), std::string::npos) << *start;

  // Away from the plate the same kind of motion passes.
  EXPECT_FALSE(
      collision_gate(checker, {after, ur5e_pose(1.5, -0.5), ur5e_pose(2.5, -1.0)}).has_value());
  EXPECT_FALSE(collision_gate(checker, {after}).has_value());
  EXPECT_FALSE(collision_gate(checker, {}).has_value());
}

TEST(OutputGates, SelfCollisionBetweenFreeWaypointsIsCaught) {
  const RobotModelPtr model = load_builtin_robot("ur5e");
  CollisionChecker checker(model);
  const auto [up, over] = test::ur5e_forearm_swing();  // the folded forearm swings through the base
  ASSERT_FALSE(checker.in_collision(up));
  ASSERT_FALSE(checker.in_collision(over));
  for (const SelfGateMode mode : {SelfGateMode::Continuous, SelfGateMode::Discrete}) {
    const auto problem = collision_gate(checker, {up, over}, mode);
    ASSERT_TRUE(problem.has_value());
    EXPECT_EQ(problem->rfind("segment 0 -> 1 self-collides", 0), 0u) << *problem;
  }
}

TEST(OutputGates, ContinuousAndDiscreteSelfGatesAgreeOnPaths) {
  // Paths of short random steps (like a planner's output) for both robots: every path the
  // continuous self gate passes, the discrete one passes too, and a path through a self-colliding
  // state between its waypoints is refused by both.
  for (const std::string name : {"panda", "ur5e"}) {
    const RobotModelPtr model = load_builtin_robot(name);
    CollisionChecker checker(model);
    std::mt19937_64 rng(7);
    const JointVector lo = model->lower_limits().cwiseMax(-M_PI),
                      hi = model->upper_limits().cwiseMin(M_PI);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    int passed = 0, refused = 0;
    for (int k = 0; k < 40; ++k) {
      JointPath path;
      JointVector q(model->dof());
      for (int j = 0; j < model->dof(); ++j)
        q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
      for (int w = 0; w < 6; ++w) {
        path.push_back(q);
        for (int j = 0; j < model->dof(); ++j)
          q[j] = std::clamp(q[j] + 0.4 * unit(rng), lo[j], hi[j]);
      }
      const auto continuous = collision_gate(checker, path, SelfGateMode::Continuous);
      const auto discrete = collision_gate(checker, path, SelfGateMode::Discrete);
      if (!continuous) {
        EXPECT_FALSE(discrete.has_value()) << name << " path " << k << ": " << *discrete;
      }
      if (discrete && discrete->find("self-collides") != std::string::npos) {
        EXPECT_TRUE(continuous.has_value()) << name << " path " << k;
      }
      passed += !continuous;
      refused += continuous.has_value();
    }
    EXPECT_GT(passed, 0) << name;
    EXPECT_GT(refused, 0) << name;
  }
}

TEST(OutputGates, LimitsGateNamesTheJoint) {
  const RobotModelPtr model = load_builtin_robot("ur5e");
  JointVector q = ur5e_pose(0.0, -0.5);
  EXPECT_FALSE(limits_gate(*model, {q}).has_value());
  q[2] = 3.5;  // the elbow is limited to ±pi
  const auto problem = limits_gate(*model, {ur5e_pose(0.0, -0.5), q});
  ASSERT_TRUE(problem.has_value());
  EXPECT_NE(problem->find("waypoint 1: joint 'joint3'"), std::string::npos) << *problem;
}

TEST(BenchmarkProblems, KeepOnlyJoinedPairsFromAFixedSeed) {
  const RobotModelPtr model = load_builtin_robot("ur5e");
  const PlanningScene scene = benchmark_scene("table", model);
  // Stand-in for the benchmark's planner runs: a wall at shoulder 1.5 rad that no path crosses.
  auto side = [](const JointVector& q) { return q[1] > 1.5; };
  int asked = 0, refused = 0;
  const PathExistsCheck joined = [&](const JointVector& a, const JointVector& b) {
    ++asked;
    const bool ok = side(a) == side(b);
    refused += !ok;
    return ok;
  };
  const BenchmarkProblemSet set = benchmark_problems(model, scene, 60, 17, 0.02, joined);
  ASSERT_EQ(set.problems.size(), 60u);
  EXPECT_EQ(set.rejected, refused);
  EXPECT_EQ(asked, 60 + refused);
  EXPECT_GT(set.rejected, 0);  // the ±pi window straddles the wall
  CollisionChecker checker(model);
  checker.set_scene(scene);
  for (const auto& p : set.problems) {
    EXPECT_EQ(side(p.start), side(p.goal));
    EXPECT_TRUE(state_collision_free(checker, p.start, 0.02));
    EXPECT_TRUE(state_collision_free(checker, p.goal, 0.02));
    EXPECT_LE(p.start.cwiseAbs().maxCoeff(), M_PI);
  }

  // Same seed, same problems; no check keeps every draw.
  const BenchmarkProblemSet again = benchmark_problems(model, scene, 60, 17, 0.02, joined);
  for (std::size_t i = 0; i < set.problems.size(); ++i) {
    EXPECT_EQ(again.problems[i].start, set.problems[i].start);
    EXPECT_EQ(again.problems[i].goal, set.problems[i].goal);
  }
  const BenchmarkProblemSet plain = benchmark_problems(model, scene, 20, 17, 0.02, {});
  EXPECT_EQ(plain.rejected, 0);
  EXPECT_EQ(plain.problems.size(), 20u);
}

TEST(BenchmarkProblems, ASceneWithoutJoinedPairsIsReported) {
  const RobotModelPtr model = load_builtin_robot("panda");
  EXPECT_THROW(benchmark_problems(model, benchmark_scene("empty", model), 3, 1, 0.02,
                                  [](const JointVector&, const JointVector&) { return false; }),
               Error);
}

}  // namespace
