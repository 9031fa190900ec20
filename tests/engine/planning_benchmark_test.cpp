// The benchmark runner's parts: finding MotionBenchMaker's problems, running one on the Panda the
// benchmark ships (its meshes), and the summary's statistics.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/benchmark_report.hpp"
#include "engine/planning/benchmark_run.hpp"
#include "engine/planning/motion_plan_request.hpp"
#include "engine/planning/planning_space.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/trajectory/trajectory_limits.hpp"
#include "engine/trajectory/validation.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
namespace fs = std::filesystem;

namespace {

fs::path mbm() {
  return fs::path(test::mbm_panda_dir());
}

RobotModelPtr mbm_panda() {
  return load_robot_file((mbm() / "robot" / "panda.urdf").string(),
                         (mbm() / "robot" / "panda.srdf").string());
}

// One seed, and time and iterations enough that a solvable problem is solved on any machine.
BenchmarkSettings generous_settings() {
  BenchmarkSettings settings;
  settings.options.timeout_ms = 10000;
  settings.options.max_iterations = 1000000;
  settings.options.seed = 1;
  return settings;
}

}  // namespace

TEST(BenchmarkProblems, FindsMotionBenchMakersScenesInOrder) {
  KINETIC_REQUIRE_MBM();
  const auto problems = find_benchmark_problems((mbm() / "problems").string(), "panda", 2);
  ASSERT_EQ(problems.size(), 14u);  // 7 scenes, 2 each
  EXPECT_EQ(problems[0].scene, "bookshelf_small");
  EXPECT_EQ(problems[0].index, 1);
  EXPECT_EQ(problems[1].index, 2);
  EXPECT_EQ(problems[13].scene, "table_under_pick");
  EXPECT_EQ(fs::path(problems[6].scene_file).filename(), "scene0001.yaml");
  EXPECT_EQ(problems[6].scene, "box");
  EXPECT_EQ(find_benchmark_problems((mbm() / "problems").string(), "panda").size(), 700u);
}

TEST(BenchmarkProblems, AFolderWithoutProblemsOrWithAHalfProblemIsNamed) {
  const fs::path dir = fs::path(::testing::TempDir()) / "kinetic_benchmark_problems";
  fs::remove_all(dir);
  fs::create_directories(dir / "shelf_panda");
  const auto error_of = [&] {
    try {
      find_benchmark_problems(dir.string(), "panda");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error_of().find("holds no problems"), std::string::npos) << error_of();
  std::ofstream(dir / "shelf_panda" / "request0003.yaml") << "goal_constraints: []\n";
  EXPECT_NE(error_of().find("request0003.yaml: no scene file beside it (scene3.yaml)"),
            std::string::npos)
      << error_of();
  EXPECT_THROW(find_benchmark_problems((dir / "absent").string(), "panda"), Error);
}

TEST(BenchmarkRun, SolvesAMotionBenchMakerProblemOnTheBenchmarksPanda) {
  KINETIC_REQUIRE_MBM();
  Planner planner(mbm_panda(), PlanningScene(), "panda_arm");
  const BenchmarkProblem problem{"box", 1, (mbm() / "problems/box_panda/scene0001.yaml").string(),
                                 (mbm() / "problems/box_panda/request0001.yaml").string()};
  const BenchmarkRow row = run_benchmark_problem(planner, problem, generous_settings());
  EXPECT_TRUE(row.valid) << row.message;
  ASSERT_TRUE(row.solved) << row.message;
  EXPECT_GT(row.search_ms, 0.0);
  EXPECT_GE(row.total_ms, row.planning_ms());
  EXPECT_GT(row.length, 0.5);
  EXPECT_EQ(row.recheck, "ok");
  EXPECT_EQ(planner.scene().obstacles().size(), 7u);  // the problem's scene
}

// bookshelf_tall 46: the goal keeps link5 2.7 mm from a shelf board, inside the checker's 5 mm
// refinement margin, where its sphere tier may call the pair colliding. The goal is free, as the
// exact check and the output gate find it: the problem is valid and solved, and its path passes the
// re-check. The tier itself takes the goal too: a scene pair it defers past the kept axis and the
// witnesses goes to the hulls' GJK, which proves link5 and the board 2.7 mm apart, not to a sphere
// walk under the margin. A trajectory that rests at this goal (a grasp) passes validation whether
// its checks ask for the tier or not.
TEST(BenchmarkRun, AGoalWithinTheRefinementMarginOfAShelfIsValidAndSolved) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr model = mbm_panda();
  const fs::path dir = mbm() / "problems/bookshelf_tall_panda";
  const BenchmarkProblem problem{"bookshelf_tall", 46, (dir / "scene0046.yaml").string(),
                                 (dir / "request0046.yaml").string()};
  Planner planner(model, PlanningScene(), "panda_arm");
  BenchmarkSettings settings = generous_settings();
  settings.options.margin = 0.0;
  const BenchmarkRow row = run_benchmark_problem(planner, problem, settings);
  EXPECT_TRUE(row.valid) << row.message;
  ASSERT_TRUE(row.solved) << row.message;
  EXPECT_EQ(row.recheck, "ok");

  const MotionPlanRequest request = load_motion_plan_request(problem.request_file);
  const JointVector start =
      with_joint_values(*model, model->zero_configuration(), request.start, "start", true);
  const JointVector goal = with_joint_values(*model, start, request.goal, "goal", false);
  CollisionChecker fresh(model);  // the default 5 mm refinement margin, nothing kept yet
  fresh.set_scene(load_scene(problem.scene_file));
  EXPECT_FALSE(fresh.in_collision(goal, CheckOptions{.exact = true}));
  EXPECT_FALSE(fresh.in_collision(goal, CheckOptions{.exact = false}));
  const std::vector<int> arm = model->group_variables("panda_arm");
  PlanningSpace space(fresh, arm, start, 0.0, 0.05);
  EXPECT_TRUE(space.valid(space.to_group(goal)));
  space.set_exact(true);
  EXPECT_TRUE(space.valid(space.to_group(goal)));

  const TrajectoryLimits limits = TrajectoryLimits::from_model(*model);
  const JointVector still = JointVector::Zero(goal.size());
  const Trajectory resting("panda", limits.joint_names, limits.units,
                           {{0.0, goal, still, still}, {0.5, goal, still, still}});
  for (const bool tiered : {false, true}) {
    CollisionChecker user(model);
    user.set_scene(load_scene(problem.scene_file));
    TrajectoryValidationOptions validation;
    validation.in_collision = [&](const JointVector& q) {
      return tiered ? user.in_collision(q, CheckOptions{.exact = false}) : user.in_collision(q);
    };
    EXPECT_TRUE(validate_trajectory(resting, limits, validation).ok()) << tiered;
  }
}

TEST(BenchmarkRun, RecheckNamesTheCollidingState) {
  KINETIC_REQUIRE_MBM();
  Planner planner(mbm_panda(), PlanningScene(), "panda_arm");
  PlanningScene scene;
  scene.add_obstacle("wall", Shape::box({0.05, 2.0, 1.0}),
                     pose_from_xyz_rpy({0.3, 0, 0.5}, {0, 0, 0}));
  planner.set_scene(scene);
  // From MotionBenchMaker's start pose (the hand 0.3 m ahead of the base), joint 1 swings the arm
  // from one side to the other through the wall.
  const RobotModel& model = planner.model();
  JointVector a = model.zero_configuration();
  const double ready[] = {1.5, -0.785, 0, -2.356, 0, 1.571, 0.785};
  for (int j = 0; j < 7; ++j)
    a[model.variable_index("panda_joint" + std::to_string(j + 1))] = ready[j];
  JointVector b = a;
  b[model.variable_index("panda_joint1")] = -1.5;
  const std::string collision = recheck_path(planner.checker(), {a, b}, 0.01);
  EXPECT_NE(collision.find("segment 0 at"), std::string::npos) << collision;
  EXPECT_NE(collision.find("wall"), std::string::npos) << collision;
  EXPECT_EQ(recheck_path(planner.checker(), {a}, 0.01), "");
}

// A path that passes 3 mm from an obstacle is no re-check failure, though the sphere tier may call
// that state colliding (within its refinement margin: on MotionBenchMaker's box 64 a path 3.1 mm
// from a side board was counted a failure). A checker with a 5 cm margin makes that certain; the
// wall is a half-space, which the convex-hull proof (it would prove the 3 mm clear) does not take.
TEST(BenchmarkRun, RecheckCountsOnlyExactContacts) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr model = mbm_panda();
  CollisionChecker checker(model, {.refinement_margin = 0.05});
  JointVector q = model->zero_configuration();
  const double ready[] = {0.0, -0.785, 0, -2.356, 0, 1.571, 0.785};
  for (int j = 0; j < 7; ++j)
    q[model->variable_index("panda_joint" + std::to_string(j + 1))] = ready[j];
  // A wall whose face lies `x` ahead of the base, moved until it is 3 mm from the arm.
  const auto wall_at = [&](double x) {
    PlanningScene scene;
    scene.add_obstacle("wall", Shape::half_space({-1.0, 0.0, 0.0}, -x), Pose::Identity());
    checker.set_scene(scene);
    return checker.min_distance(q, {.self = false}).distance;
  };
  double x = 1.0;
  for (int i = 0; i < 4; ++i) x -= wall_at(x) - 0.003;  // a flat face: distance moves with it
  ASSERT_NEAR(wall_at(x), 0.003, 2e-4);
  ASSERT_TRUE(checker.in_collision(q, CheckOptions{.exact = false}))
      << "the sphere tier proved it clear: nothing to test";
  EXPECT_FALSE(checker.in_collision(q));  // the plain query is exact
  EXPECT_TRUE(checker.contacts(q).empty());
  EXPECT_EQ(recheck_path(checker, {q}, 0.01), "");
  // 3 mm further in, it touches: a failure, naming the wall.
  wall_at(x - 0.006);
  EXPECT_NE(recheck_path(checker, {q}, 0.01).find("wall"), std::string::npos);
}

TEST(BenchmarkReport, SummarizesPerSceneOverSolvedRuns) {
  std::vector<BenchmarkRow> rows;
  const auto row = [&](const std::string& scene, bool valid, bool solved, double search,
                       double simplify, double length, const std::string& recheck = "ok") {
    BenchmarkRow r;
    r.scene = scene;
    r.valid = valid;
    r.solved = solved;
    r.search_ms = search;
    r.simplify_ms = simplify;
    r.length = length;
    r.recheck = solved ? recheck : "";
    rows.push_back(r);
  };
  row("box", true, true, 1.0, 1.0, 4.0);
  row("box", true, true, 3.0, 1.0, 5.0, "collides: segment 1 at 0.50: panda_hand - base");
  row("box", true, false, 100.0, 0.0, 0.0);
  row("cage", false, false, 0.0, 0.0, 0.0);
  row("cage", true, true, 10.0, 0.0, 6.0);
  const auto stats = summarize_benchmark(rows);
  ASSERT_EQ(stats.size(), 3u);
  EXPECT_EQ(stats[0].scene, "box");
  EXPECT_EQ(stats[0].solved, 2);
  EXPECT_EQ(stats[0].valid, 3);
  EXPECT_DOUBLE_EQ(stats[0].median_ms, 3.0);  // planning = search + simplify: 2 and 4
  EXPECT_DOUBLE_EQ(stats[0].mean_ms, 3.0);
  EXPECT_DOUBLE_EQ(stats[0].p95_ms, 3.9);
  EXPECT_DOUBLE_EQ(stats[0].median_length, 4.5);
  EXPECT_EQ(stats[0].recheck_failures, 1);
  EXPECT_EQ(stats[1].valid, 1);
  EXPECT_EQ(stats[2].scene, "all");
  EXPECT_EQ(stats[2].solved, 3);
  EXPECT_EQ(stats[2].runs, 5);
  EXPECT_TRUE(std::isnan(percentile({}, 0.5)));
  const std::string csv = benchmark_csv(rows);
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "scene,problem,run,valid,solved,search_ms,simplify_ms,planning_ms,total_ms,length_rad,"
            "margin_m,tree_size,iterations,recheck,message");
  EXPECT_NE(csv.find("box,0,0,1,1,3.0000,1.0000,4.0000"), std::string::npos) << csv;
  EXPECT_NE(benchmark_summary_text(stats).find("2/3"), std::string::npos);
}
