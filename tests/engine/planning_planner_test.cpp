// Planner facade and the sampling-based planners on the benchmark scenes (UR5e and Panda):
// every output passes both gates; start/goal problems are reported with their causes; presets,
// seeds, cancellation, progress and PRM roadmap reuse behave as documented.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/output_gates.hpp"
#include "engine/planning/planner.hpp"
#include "engine/planning/planning_goal.hpp"
#include "engine/planning/planning_space.hpp"
#include "engine/planning/sampling/geometric_planners.hpp"
#include "support/benchmark_scenes.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

constexpr int kProblemsPerScene = test::cases(3, 1);

// The default preset with a deadline no search here comes near (the preset's 50 ms is the
// product's setting; these tests check answers, see support/time_budget.hpp).
PlannerOptions unhurried(PlannerOptions options = default_preset()) {
  options.timeout_ms = test::generous_ms(2000.0);
  return options;
}

RobotModelPtr robot(const std::string& name) {
  static std::map<std::string, RobotModelPtr> cache;
  auto& model = cache[name];
  if (!model) model = load_builtin_robot(name);
  return model;
}

// Collision-free configurations (with clearance) drawn from a fixed seed.
std::vector<std::pair<JointVector, JointVector>> problems(Planner& planner, int count,
                                                          std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const RobotModel& model = planner.model();
  // Joints within ±pi: with UR-style ±2pi ranges, two representations of one pose can lie in
  // joint-space regions that no collision-free motion connects.
  const JointVector lo = model.lower_limits().cwiseMax(-M_PI),
                    hi = model.upper_limits().cwiseMin(M_PI);
  auto sample = [&] {
    for (;;) {
      JointVector q(model.dof());
      for (int j = 0; j < model.dof(); ++j)
        q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
      if (state_collision_free(planner.checker(), q, 0.03)) return q;
    }
  };
  std::vector<std::pair<JointVector, JointVector>> out;
  for (int i = 0; i < count; ++i) {
    JointVector a = sample();
    out.emplace_back(a, sample());
  }
  return out;
}

void expect_valid_plan(Planner& planner, const PlanResult& result, const JointVector& start,
                       const JointVector& goal) {
  ASSERT_GE(result.path.size(), 2u);
  EXPECT_LT((result.path.front() - start).norm(), 1e-9);
  EXPECT_LT((result.path.back() - goal).norm(), 1e-9);
  EXPECT_FALSE(limits_gate(planner.model(), result.path).has_value());
  const auto collision = collision_gate(planner.checker(), result.path);
  EXPECT_FALSE(collision.has_value()) << *collision;
  // Post-processing only shortens; a segment the continuous gate refused and that was re-planned
  // (the notes say so) may make the path longer.
  const bool replanned = std::any_of(result.notes.begin(), result.notes.end(), [](const auto& n) {
    return n.find("re-planned") != std::string::npos ||
           n.find("searched again") != std::string::npos;
  });
  if (!replanned) {
    EXPECT_LE(result.length_after, result.length_before + 1e-9);
  }
  EXPECT_GT(result.length_after, 0.0);
  EXPECT_GT(result.tree_size, 0);
}

class EveryPlanner : public ::testing::TestWithParam<std::tuple<std::string, PlannerType>> {};

TEST_P(EveryPlanner, SolvesTheBenchmarkScenesAndPassesTheGates) {
  const auto& [robot_name, type] = GetParam();
  const RobotModelPtr model = robot(robot_name);
  PlannerOptions options = unhurried();
  options.planner = type;
  options.max_iterations = 200000;
  options.seed = 7;
  for (const auto& scene_name : benchmark_scene_names()) {
    SCOPED_TRACE(robot_name + " / " + scene_name + " / " + to_string(type));
    Planner planner(model, benchmark_scene(scene_name, model));
    for (const auto& [start, goal] : problems(planner, kProblemsPerScene, 11)) {
      try {
        const PlanResult result = planner.plan(start, JointGoal{goal}, options);
        expect_valid_plan(planner, result, start, goal);
        EXPECT_EQ(result.planner, to_string(type));
      } catch (const Error& e) {
        ADD_FAILURE() << e.what() << "\nstart " << start.transpose() << "\ngoal "
                      << goal.transpose();
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Planning, EveryPlanner,
    ::testing::Combine(::testing::Values("ur5e", "panda"),
                       ::testing::Values(PlannerType::RrtConnect, PlannerType::RrtStar,
                                         PlannerType::BiTrrt, PlannerType::Prm, PlannerType::Est,
                                         PlannerType::Kpiece)),
    [](const auto& param_info) {
      return std::get<0>(param_info.param) + "_" + to_string(std::get<1>(param_info.param));
    });

// RRT* with a deadline these searches never meet: their iterations are what the tests check.
PlannerOptions rrt_star_by_iterations(std::uint64_t seed) {
  PlannerOptions options = unhurried();
  options.planner = PlannerType::RrtStar;
  // Iterations must end these searches, not the clock: the margin ladder gives the asked margin
  // a first slot of a 32nd of the budget, and a machine that stalls the process ran past 20 s's
  // 625 ms slot, so the same seed found its first path at a narrower margin in another round.
  options.timeout_ms = test::generous_ms(600000.0);
  options.max_iterations = 200000;
  options.seed = seed;
  return options;
}

TEST(RrtStar, RefiningShortensTheFirstPath) {
  // Same seed, same first path; the refinement (rewiring and later goal connections) can only
  // shorten the best path, and on this problem does (15.42 -> 14.58 rad over 20 times the
  // iterations the first path took, in the default build). Iterations, not the clock, end it.
  const RobotModelPtr model = robot("panda");
  Planner planner(model, benchmark_scene("boxes20", model));
  PlannerOptions options = rrt_star_by_iterations(3);
  options.range = 1.63;  // the step this problem was measured with (the default was an eighth)
  options.shortcut_passes = 0;
  options.smoothing = false;
  // The first problem whose straight line is blocked (RRT* returns a free one as it is).
  JointVector start, goal;
  PlanResult first;
  options.rrt_star_refine_factor = 0.0;
  for (const auto& [a, b] : problems(planner, 20, 5)) {
    first = planner.plan(a, JointGoal{b}, options);
    start = a;
    goal = b;
    if (first.iterations > 50) break;
  }
  ASSERT_GT(first.iterations, 50);
  options.rrt_star_refine_factor = 20.0;
  const PlanResult refined = planner.plan(start, JointGoal{goal}, options);
  expect_valid_plan(planner, refined, start, goal);
  EXPECT_GT(refined.iterations, first.iterations);
  EXPECT_LT(refined.length_before, first.length_before)
      << "first " << first.length_before << " rad after " << first.iterations
      << " iterations, refined " << refined.length_before << " rad after " << refined.iterations;
}

TEST(RrtStar, AGoalInAPocketIsReachedThroughTheBidirectionalRescue) {
  // One tree grown toward the goal by 5% bias took 40,194 iterations (2.6 s) for this problem
  // among 20 boxes, past the 2 s this file's tests allow. Without a path after 1,000 iterations
  // a bidirectional search finds one; iterations, not the clock, are what is checked.
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model, benchmark_scene("boxes20", model));
  const PlannerOptions options = rrt_star_by_iterations(7);
  JointVector start(6), goal(6);
  start << 2.4183666268750752, -0.66382825055545647, -1.5240514902967841, -1.1565146168968552,
      -0.78750258878503887, -3.1204812479951185;
  goal << -1.025482965271626, -0.036334437440561196, -0.42601806575598822, -3.0865855682418477,
      -2.5895405518658339, 0.68073390624205921;
  const PlanResult result = planner.plan(start, JointGoal{goal}, options);
  expect_valid_plan(planner, result, start, goal);
  EXPECT_LT(result.iterations, 5000);
}

// A box around the UR5e's wrist at its ready pose.
PlanningScene scene_blocking_wrist(Planner& planner, const JointVector& q) {
  PlanningScene scene;
  Pose pose = Pose::Identity();
  pose.translation() = planner.tcp_pose(q).translation();
  scene.add_obstacle("blocker", Shape::box({0.1, 0.1, 0.1}), pose);
  return scene;
}

TEST(PlannerFacade, StartInCollisionNamesTheLinks) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  planner.set_scene(scene_blocking_wrist(planner, start));
  const auto contacts = planner.checker().contacts(start);
  ASSERT_FALSE(contacts.empty());
  try {
    planner.plan(start, NamedGoal{"home"});
    FAIL() << "planning from a colliding start must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InCollision);
    EXPECT_NE(e.message().find("start state"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("blocker"), std::string::npos) << e.message();
    const std::string link =
        contacts.front().body_a == "blocker" ? contacts.front().body_b : contacts.front().body_a;
    EXPECT_NE(e.message().find(link), std::string::npos) << e.message();
    // The hint names the scene file's "allowed" list, not a C++ API.
    EXPECT_NE(e.hint().find("the scene's \"allowed\" list"), std::string::npos) << e.hint();
    EXPECT_EQ(e.hint().find("PlanningScene::"), std::string::npos) << e.hint();
  }
}

// Links touching each other (no obstacle): the message says self-collision, and the hint says how
// to list pairs that touch in every pose (a bare URDF names none), in words a user can act on.
TEST(PlannerFacade, StartInSelfCollisionSaysHowToSkipPairs) {
  const RobotModelPtr model = robot("panda");
  Planner planner(model);
  std::mt19937_64 rng(7);
  JointVector start;
  for (int tries = 0; tries < 10000 && start.size() == 0; ++tries) {
    JointVector q(model->dof());
    for (int j = 0; j < model->dof(); ++j)
      q[j] = std::uniform_real_distribution<double>(model->lower_limits()[j],
                                                    model->upper_limits()[j])(rng);
    if (planner.checker().in_collision(q)) start = q;
  }
  ASSERT_GT(start.size(), 0) << "no self-colliding pose among 10,000 random ones";
  try {
    planner.plan(start, NamedGoal{"home"});
    FAIL() << "planning from a self-colliding start must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InCollision);
    EXPECT_NE(e.message().find("start state is in self-collision: '"), std::string::npos)
        << e.message();
    EXPECT_NE(e.message().find("' with 'link"), std::string::npos) << e.message();
    EXPECT_NE(e.hint().find("Tools → Generate collision matrix"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("[collision] skip_pairs"), std::string::npos) << e.hint();
  }
}

TEST(PlannerFacade, GoalInCollisionNamesTheLinks) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  const JointVector goal = model->named_pose("ready");
  planner.set_scene(scene_blocking_wrist(planner, goal));
  try {
    planner.plan(model->named_pose("home"), JointGoal{goal});
    FAIL() << "a colliding goal must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InCollision);
    EXPECT_NE(e.message().find("goal state"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("blocker"), std::string::npos) << e.message();
  }
}

TEST(PlannerFacade, StartOutOfLimitsNamesTheJoint) {
  const RobotModelPtr model = robot("panda");
  Planner planner(model);
  JointVector start = model->named_pose("ready");
  start[3] = model->upper_limits()[3] + 0.3;
  try {
    planner.plan(start, NamedGoal{"home"});
    FAIL() << "planning from outside the limits must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfLimits);
    EXPECT_NE(e.message().find(model->variable_joint(3).name), std::string::npos) << e.message();
    EXPECT_EQ(e.hint(), "move the joint inside the limits before planning");  // no C++ API named
  }
}

TEST(PlannerFacade, UnreachablePoseGoalSaysSo) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  Pose far = Pose::Identity();
  far.translation() = Vector3(2.5, 0.0, 0.5);
  try {
    planner.plan(model->named_pose("ready"), PoseGoal{far});
    FAIL() << "a pose 2.5 m away is out of the UR5e's reach";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Unreachable);
    EXPECT_NE(e.message().find("unreachable"), std::string::npos) << e.message();
  }
}

TEST(PlannerFacade, PoseGoalTriesSeveralIkSolutionsAndReachesThePose) {
  for (const std::string name : {"ur5e", "panda"}) {
    SCOPED_TRACE(name);
    const RobotModelPtr model = robot(name);
    Planner planner(model, benchmark_scene("table", model));
    const JointVector start = model->named_pose("ready");
    JointVector target_q = start;
    target_q[0] += 1.0;
    const Pose target = planner.tcp_pose(target_q);
    const std::vector<JointVector> candidates = planner.resolve_goal(start, PoseGoal{target});
    EXPECT_GE(candidates.size(), 1u);
    for (const auto& q : candidates) EXPECT_FALSE(planner.checker().in_collision(q));
    const PlanResult result = planner.plan(start, PoseGoal{target}, unhurried());
    const Pose reached = planner.tcp_pose(result.path.back());
    EXPECT_LT((reached.translation() - target.translation()).norm(), 1e-3);
    EXPECT_LT(Quaternion(reached.linear()).angularDistance(Quaternion(target.linear())), 2e-3);
    expect_valid_plan(planner, result, start, result.path.back());
  }
}

TEST(PlannerFacade, UrPoseGoalOffersEveryAnalyticSolution) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  const auto candidates = planner.resolve_goal(start, PoseGoal{planner.tcp_pose(start)});
  EXPECT_GE(candidates.size(), 2u);  // elbow up/down, wrist flips, shoulder left/right
}

TEST(PlannerFacade, RelativeAndNamedGoals) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  RelativeGoal lift;
  lift.frame = RelativeGoal::Frame::Base;
  lift.offset.translation() = Vector3(0.0, 0.0, 0.1);
  const PlanResult up = planner.plan(start, lift, unhurried());
  const Vector3 moved =
      planner.tcp_pose(up.path.back()).translation() - planner.tcp_pose(start).translation();
  EXPECT_LT((moved - Vector3(0, 0, 0.1)).norm(), 1e-3);

  const PlanResult named = planner.plan(start, NamedGoal{"home"}, unhurried());
  EXPECT_LT((named.path.back() - model->named_pose("home")).norm(), 1e-9);
  EXPECT_THROW(planner.plan(start, NamedGoal{"no_such_pose"}), Error);
}

TEST(PlannerFacade, RelativeGoalInTheToolFrameMovesAlongTheToolAxis) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  const Pose from = planner.tcp_pose(start);
  RelativeGoal approach;  // 5 cm along the tool's own z (the approach direction)
  approach.frame = RelativeGoal::Frame::Tool;
  approach.offset.translation() = Vector3(0.0, 0.0, 0.05);
  const PlanResult r = planner.plan(start, approach, unhurried());
  const Pose reached = planner.tcp_pose(r.path.back());
  const Vector3 expected = from.translation() + from.linear().col(2) * 0.05;
  EXPECT_LT((reached.translation() - expected).norm(), 1e-3);
  EXPECT_LT(Quaternion(reached.linear()).angularDistance(Quaternion(from.linear())), 2e-3);
  // Not the base frame's z (the UR5e's tool points down at "ready": they differ).
  EXPECT_GT((reached.translation() - (from.translation() + Vector3(0, 0, 0.05))).norm(), 0.02);
}

TEST(PlannerFacade, ASmallLiftFromTheStretchedZeroPoseIsASmallMotion) {
  // The real UR5 file, from zero (arm stretched out, wrist singular): lifting the TCP 5 cm took
  // the base a full turn and the wrist most of one (path length 8.45 rad).
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load_robot_file(test::example_robot_data_dir() +
                                              "/robots/ur_description/urdf/ur5_robot.urdf");
  Planner planner(model);
  const JointVector start = JointVector::Zero(model->dof());
  RelativeGoal lift;
  lift.frame = RelativeGoal::Frame::Base;
  lift.offset.translation() = Vector3(0.0, 0.0, 0.05);
  const auto goals = planner.resolve_goal(start, lift, unhurried());
  ASSERT_FALSE(goals.empty());
  EXPECT_LT((goals.front() - start).cwiseAbs().maxCoeff(), 0.3) << goals.front().transpose();
  const PlanResult r = planner.plan(start, lift, unhurried());
  EXPECT_LT(r.length_after, 0.5);
  const Vector3 moved =
      planner.tcp_pose(r.path.back()).translation() - planner.tcp_pose(start).translation();
  EXPECT_LT((moved - Vector3(0, 0, 0.05)).norm(), 1e-3);
}

TEST(TurnedToward, RotatingJointsTakeTheTurnNearestTheReferenceWithinTheirLimits) {
  const RobotModelPtr model = robot("ur5e");  // revolute joints within +-2pi (the elbow +-pi)
  const std::vector<int> all{0, 1, 2, 3, 4, 5};
  const JointVector reference = JointVector::Zero(6);
  JointVector q(6);
  q << -2.0 * M_PI + 0.1, 0.2, 0.3, 2.0 * M_PI - 0.4, -0.5, -2.0 * M_PI + 0.7;
  const JointVector turned = turned_toward(q, reference, *model, all);
  JointVector expected(6);
  expected << 0.1, 0.2, 0.3, -0.4, -0.5, 0.7;
  EXPECT_LT((turned - expected).cwiseAbs().maxCoeff(), 1e-12) << turned.transpose();
  // Only the listed variables turn.
  EXPECT_EQ(turned_toward(q, reference, *model, {1, 2})[0], q[0]);
  // Where the nearest turn is outside the limits, the nearest one inside.
  JointVector from = reference, value = reference;
  from[0] = -6.0;
  value[0] = 5.0;  // nearest turn 5 - 4pi = -7.57 lies below -2pi; 5 - 2pi = -1.28 is inside
  EXPECT_NEAR(turned_toward(value, from, *model, all)[0], 5.0 - 2.0 * M_PI, 1e-12);
  // No turn inside the limits nearer than the value itself: it stays (the elbow, +-pi).
  from[2] = -3.0;
  value[2] = 3.0;
  EXPECT_EQ(turned_toward(value, from, *model, all)[2], 3.0);
  // A continuous joint (the Gen3's first) has no limits: always the nearest turn.
  const RobotModelPtr gen3 = robot("gen3");
  ASSERT_EQ(gen3->variable_joint(0).type, JointType::Continuous);
  JointVector spun = JointVector::Zero(gen3->dof());
  spun[0] = 7.0 + 4.0 * M_PI;
  EXPECT_NEAR(turned_toward(spun, JointVector::Zero(gen3->dof()), *gen3, {0})[0], 7.0 - 2.0 * M_PI,
              1e-9);
}

TEST(PlannerFacade, GoalOutOfLimitsNamesTheJoint) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  JointVector goal = model->named_pose("home");
  goal[2] = model->upper_limits()[2] + 0.5;  // the elbow past its limit
  try {
    planner.plan(model->named_pose("ready"), JointGoal{goal}, unhurried());
    FAIL() << "a goal out of limits must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfLimits);
    EXPECT_NE(e.message().find("goal"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find(model->variable_names()[2]), std::string::npos) << e.message();
    EXPECT_FALSE(e.hint().empty());
  }
}

// A UR5e problem no path solves: a post beside the shoulder that the upper arm sweeps at some pan
// angles whatever the other joints do; start and goal pan in two free ranges between them.
std::optional<std::pair<JointVector, JointVector>> split_by_a_post(const RobotModelPtr& model,
                                                                   PlanningScene& scene) {
  scene.add_obstacle("post", Shape::box(Vector3(0.016, 0.016, 0.04)),
                     Pose(Eigen::Translation3d(0.074, 0.0, 0.1625)));
  CollisionChecker checker(model);
  checker.set_scene(scene);
  JointVector q = model->named_pose("home");
  std::vector<double> free_middles;  // of free pan ranges with a blocked range on both sides
  bool blocked_before = false, in_free = false;
  double free_start = 0.0;
  for (double pan = -M_PI; pan <= M_PI; pan += 0.01) {
    q[0] = pan;
    const bool blocked = checker.in_collision(q);
    if (!blocked && !in_free) free_start = pan;
    if (blocked && in_free && blocked_before) free_middles.push_back(0.5 * (free_start + pan));
    in_free = !blocked;
    blocked_before |= blocked;
  }
  if (free_middles.size() < 2) return std::nullopt;
  JointVector start = model->named_pose("home"), goal = start;
  start[0] = free_middles[0];
  goal[0] = free_middles[1];
  return std::make_pair(start, goal);
}

// The message of a failed plan of the post-split problem (no path joins its start and goal).
std::string post_split_failure(const PlannerOptions& options) {
  const RobotModelPtr model = robot("ur5e");
  PlanningScene scene;
  const auto problem = split_by_a_post(model, scene);
  if (!problem) {
    ADD_FAILURE() << "no pan ranges split by the post";
    return {};
  }
  Planner planner(model, scene);
  try {
    planner.plan(problem->first, JointGoal{problem->second}, options);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Timeout) << e.message();
    return e.message();
  }
  ADD_FAILURE() << "start and goal are in disconnected pan ranges";
  return {};
}

// The timeout is said as it was given: 0.01 ms read "within 0 ms".
TEST(PlannerFacade, ATimeoutIsSaidWithTheDigitsGiven) {
  PlannerOptions options = default_preset();
  options.timeout_ms = 0.01;
  const std::string said = post_split_failure(options);
  EXPECT_NE(said.find("found no path within 0.01 ms / "), std::string::npos) << said;
}

// The post splits the pan ranges; the failed plan's message tells that the obstacles, not the
// robot's own links, block the way.
TEST(PlannerFacade, AFailedPlanSaysWhenOnlyTheObstaclesBlockTheWay) {
  PlannerOptions options = default_preset();
  options.timeout_ms = 100.0;
  const std::string said = post_split_failure(options);
  EXPECT_NE(said.find("with the obstacles ignored a path exists"), std::string::npos) << said;
  EXPECT_EQ(said.find("wall"), std::string::npos) << said;
  options.explain_failure = false;  // as the task planner's candidates: no second search
  const std::string unexplained = post_split_failure(options);
  EXPECT_NE(unexplained.find("found no path"), std::string::npos) << unexplained;
  EXPECT_EQ(unexplained.find("ignored"), std::string::npos) << unexplained;
}

// The Fanuc of the MoveIt resources folds its forearm past its upper arm (joint_3 below about
// -2.8 rad): a start so folded connects to no unfolded pose, obstacles or none. The failed plan
// says so and names that end, both ways round.
TEST(PlannerFacade, AFailedPlanNamesTheEndTheRobotsOwnLinksWallIn) {
  if (test::shared_robots_dir().empty()) GTEST_SKIP() << "../shared/robots is not here";
  LoadOptions load;
  load.package_paths = {test::shared_robots_dir()};
  const RobotModelPtr fanuc = load_robot_file(
      test::shared_robots_dir() + "/moveit_resources/fanuc_moveit_config", "", "", load);
  ASSERT_EQ(fanuc->dof(), 6);
  JointVector folded(6), unfolded(6);
  folded << 2.33, 2.12, -2.91, -1.0, -1.82, 0.37;
  unfolded << 2.11, 2.59, 1.82, -0.5, 0.19, -2.98;
  Planner planner(fanuc);
  ASSERT_FALSE(planner.checker().in_collision(folded));
  ASSERT_FALSE(planner.checker().in_collision(unfolded));
  PlannerOptions options = default_preset();
  options.timeout_ms = 400.0;
  for (const bool folded_start : {true, false}) {
    try {
      planner.plan(folded_start ? folded : unfolded, JointGoal{folded_start ? unfolded : folded},
                   options);
      ADD_FAILURE() << "the folded end is walled in";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Timeout);
      const std::string said = e.message();
      EXPECT_NE(said.find("with every obstacle ignored no path was found either"),
                std::string::npos)
          << said;
      EXPECT_NE(said.find(folded_start ? "wall the start in" : "wall the goal in"),
                std::string::npos)
          << said;
      EXPECT_NE(e.hint().find("unfolded"), std::string::npos) << e.hint();
    }
  }
}

TEST(PlannerFacade, SameSeedSamePlan) {
  const RobotModelPtr model = robot("panda");
  Planner planner(model, benchmark_scene("shelf", model));
  const auto pairs = problems(planner, 2, 99);
  PlannerOptions options = unhurried();
  options.seed = 1234;
  for (const auto& [start, goal] : pairs) {
    const PlanResult a = planner.plan(start, JointGoal{goal}, options);
    const PlanResult b = planner.plan(start, JointGoal{goal}, options);
    ASSERT_EQ(a.path.size(), b.path.size());
    for (std::size_t i = 0; i < a.path.size(); ++i) EXPECT_EQ(a.path[i], b.path[i]);
    EXPECT_EQ(a.iterations, b.iterations);
  }
}

TEST(PlannerFacade, CancelAndProgress) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model, benchmark_scene("boxes20", model));
  PlannerOptions options = unhurried();
  options.seed = 3;
  // A problem that takes the search a few iterations (same seed: same iterations again).
  JointVector start, goal;
  bool found = false;
  for (const auto& [s, g] : problems(planner, 40, 5)) {
    if (planner.plan(s, JointGoal{g}, options).iterations >= 3) {
      start = s;
      goal = g;
      found = true;
      break;
    }
  }
  ASSERT_TRUE(found);
  std::atomic<bool> cancel{false};
  int reports = 0;
  PlanControl control;
  control.cancel = &cancel;
  control.progress = [&](const PlanProgress& p) {
    ++reports;
    EXPECT_GE(p.elapsed_ms, 0.0);
    cancel = true;
  };
  try {
    planner.plan(start, JointGoal{goal}, options, control);
    FAIL() << "a cancelled plan must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::Cancelled);
  }
  EXPECT_GE(reports, 1);

  cancel = true;  // already cancelled: stops at once
  EXPECT_THROW(planner.plan(start, JointGoal{goal}, options, control), Error);
}

TEST(PlannerFacade, ResultsCarryStatistics) {
  const RobotModelPtr model = robot("panda");
  Planner planner(model, benchmark_scene("cage", model));
  const auto [start, goal] = problems(planner, 1, 21).front();
  const PlanResult r = planner.plan(start, JointGoal{goal}, unhurried());
  EXPECT_GT(r.planning_time_ms, 0.0);
  EXPECT_GE(r.planning_time_ms, r.search_time_ms);
  EXPECT_GE(r.length_before, r.length_after);
  EXPECT_GT(r.tree_size, 0);
  EXPECT_EQ(r.margin_used, 0.02);
}

// Asked for no margin, the search still keeps 2 mm from obstacles (the output gate calls 1 mm
// contact), so its paths pass the gate; the cage's narrow openings stay passable.
TEST(PlannerFacade, NoMarginAskedStillSearchesClearOfTheGatesTolerance) {
  const RobotModelPtr model = robot("panda");
  Planner planner(model, benchmark_scene("cage", model));
  PlannerOptions options = unhurried();
  options.margin = 0.0;
  for (const auto& [start, goal] : problems(planner, 3, 23)) {
    const PlanResult r = planner.plan(start, JointGoal{goal}, options);
    EXPECT_EQ(r.margin_used, 0.002);
    expect_valid_plan(planner, r, start, goal);
  }
}

TEST(PlannerPresets, ValuesAsDocumented) {
  const PlannerOptions d = preset("default"), rt = preset("realtime"), off = preset("offline");
  EXPECT_EQ(d.timeout_ms, 50.0);
  EXPECT_EQ(d.max_iterations, 10000);
  EXPECT_EQ(d.margin, 0.02);
  EXPECT_EQ(d.shortcut_passes, 100);
  EXPECT_TRUE(d.smoothing);
  EXPECT_EQ(rt.timeout_ms, 10.0);
  EXPECT_EQ(rt.max_iterations, 2000);
  EXPECT_EQ(rt.margin, 0.01);
  EXPECT_EQ(rt.shortcut_passes, 20);
  EXPECT_FALSE(rt.smoothing);
  EXPECT_EQ(off.timeout_ms, 500.0);
  EXPECT_EQ(off.max_iterations, 100000);
  EXPECT_EQ(off.margin, 0.02);
  EXPECT_EQ(off.shortcut_passes, 500);
  EXPECT_TRUE(off.smoothing);
  EXPECT_THROW(preset("fast"), Error);
  PlannerOptions bad = d;
  bad.timeout_ms = -1;
  EXPECT_THROW(bad.validate(), Error);
  EXPECT_EQ(planner_type_from_string("kpiece"), PlannerType::Kpiece);
  EXPECT_THROW(planner_type_from_string("rrt_sharp"), Error);
}

TEST(PlannerPresets, RealtimeSkipsSmoothingAndKeepsItsMargin) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model, benchmark_scene("table", model));
  const auto [start, goal] = problems(planner, 1, 31).front();
  const PlannerOptions options = unhurried(realtime_preset());
  const PlanResult r = planner.plan(start, JointGoal{goal}, options);
  EXPECT_EQ(r.margin_used, 0.01);
  expect_valid_plan(planner, r, start, goal);
}

TEST(PrmRoadmap, KeptAcrossQueriesAndDroppedWithTheScene) {
  const RobotModelPtr model = robot("panda");
  Planner planner(model, benchmark_scene("shelf", model));
  PlannerOptions options = unhurried();
  options.planner = PlannerType::Prm;
  options.max_iterations = 100000;
  const auto pairs = problems(planner, 4, 41);
  const PlanResult first = planner.plan(pairs[0].first, JointGoal{pairs[0].second}, options);
  const int size_after_first = planner.roadmap_size();
  EXPECT_GE(size_after_first, 2);
  expect_valid_plan(planner, first, pairs[0].first, pairs[0].second);
  // The same query again: the kept roadmap answers it without a single new sample.
  const PlanResult again = planner.plan(pairs[0].first, JointGoal{pairs[0].second}, options);
  EXPECT_EQ(again.iterations, 0);
  EXPECT_GE(again.tree_size, size_after_first);
  for (std::size_t i = 1; i < pairs.size(); ++i) {
    const PlanResult r = planner.plan(pairs[i].first, JointGoal{pairs[i].second}, options);
    expect_valid_plan(planner, r, pairs[i].first, pairs[i].second);
  }
  EXPECT_GE(planner.roadmap_size(), size_after_first);
  planner.set_scene(benchmark_scene("table", model));
  EXPECT_EQ(planner.roadmap_size(), 0);
}

}  // namespace

namespace {

// Bounds that hold both configurations' link origins, padded.
WorkspaceBounds bounds_around(CollisionChecker& checker, const std::vector<JointVector>& states,
                              double pad) {
  WorkspaceBounds box{{1e9, 1e9, 1e9}, {-1e9, -1e9, -1e9}};
  for (const auto& q : states) {
    checker.update(q);
    for (const Pose& pose : checker.link_poses())
      for (int a = 0; a < 3; ++a) {
        box.min[a] = std::min(box.min[a], pose.translation()[a] - pad);
        box.max[a] = std::max(box.max[a], pose.translation()[a] + pad);
      }
  }
  return box;
}

}  // namespace

TEST(PlannerFacade, WorkspaceBoundsKeepEveryLinkInside) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  const JointVector start = model->named_pose("home"), goal = model->named_pose("ready");
  PlannerOptions options = unhurried();
  options.seed = 3;
  options.workspace = bounds_around(planner.checker(), {start, goal}, 0.15);
  const PlanResult result = planner.plan(start, JointGoal{goal}, options);
  ASSERT_GE(result.path.size(), 2u);
  // Every waypoint, and states along every segment, keep all link origins inside the box.
  for (std::size_t i = 1; i < result.path.size(); ++i)
    for (int k = 0; k <= 20; ++k) {
      planner.checker().update(result.path[i - 1] +
                               (result.path[i] - result.path[i - 1]) * (k / 20.0));
      EXPECT_EQ(link_outside_workspace(planner.checker(), *options.workspace), -1)
          << "segment " << i << " step " << k;
    }
}

TEST(PlannerFacade, GoalOutsideTheWorkspaceNamesTheLink) {
  const RobotModelPtr model = robot("ur5e");
  Planner planner(model);
  const JointVector start = model->named_pose("home"), goal = model->named_pose("ready");
  PlannerOptions options = default_preset();
  options.workspace = bounds_around(planner.checker(), {start}, 0.02);
  planner.checker().update(goal);
  ASSERT_GE(link_outside_workspace(planner.checker(), *options.workspace), 0)
      << "the goal must leave the box";
  try {
    planner.plan(start, JointGoal{goal}, options);
    FAIL() << "a goal outside the workspace must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    EXPECT_NE(e.message().find("outside the workspace bounds"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("link '"), std::string::npos) << e.message();
    EXPECT_FALSE(e.hint().empty());
  }
}

TEST(PlannerFacade, InvertedWorkspaceBoundsAreRejected) {
  PlannerOptions options = default_preset();
  options.workspace = WorkspaceBounds{{0.0, 0.0, 0.0}, {1.0, -1.0, 1.0}};
  EXPECT_THROW(options.validate(), Error);
}

// The tree planners' default step: a twentieth of the joint box diagonal, rotating joints counted
// up to one turn (the UR5e's ±2π joints would otherwise double it), prismatic spans in full.
TEST(ExtensionRange, DefaultCountsEachRotatingJointUpToOneTurn) {
  const auto default_range = [](const RobotModelPtr& model, double range_option = 0.0) {
    CollisionChecker checker(model);
    std::vector<int> variables;
    for (int j = 0; j < model->dof(); ++j) variables.push_back(j);
    const PlanningSpace space(checker, variables, model->zero_configuration(), 0.02, 0.05);
    PlannerOptions options;
    options.range = range_option;
    return std::pair{extension_range(space, options), space.extent()};
  };
  // UR5e: five joints of ±2π and the elbow's ±π, so six spans of one turn.
  const auto [ur5e_range, ur5e_extent] = default_range(load_builtin_robot("ur5e"));
  EXPECT_NEAR(ur5e_range, 0.05 * std::sqrt(6.0) * 2.0 * M_PI, 1e-9);
  EXPECT_LT(ur5e_range, 0.1 * ur5e_extent);
  // Panda: every span is under a turn, so the plain diagonal.
  const auto [panda_range, panda_extent] = default_range(load_builtin_robot("panda"));
  EXPECT_NEAR(panda_range, 0.05 * panda_extent, 1e-9);
  // A prismatic joint of 10 m keeps its span; a revolute joint of ±10 rad counts one turn.
  const RobotModelPtr slider = load_robot_string(R"(<robot name="slider">
  <link name="base"/><link name="carriage"/><link name="arm"/>
  <joint name="rail" type="prismatic"><parent link="base"/><child link="carriage"/><axis xyz="1 0 0"/>
    <limit lower="0" upper="10" effort="1" velocity="1"/></joint>
  <joint name="turn" type="revolute"><parent link="carriage"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-10" upper="10" effort="1" velocity="1"/></joint>
</robot>)");
  EXPECT_NEAR(default_range(slider).first, 0.05 * std::hypot(10.0, 2.0 * M_PI), 1e-9);
  // A range the caller sets is used as it is.
  EXPECT_DOUBLE_EQ(default_range(slider, 0.3).first, 0.3);
}
