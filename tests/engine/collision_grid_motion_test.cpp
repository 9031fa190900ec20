// grid_motion_free: the discrete edge check that proves runs of grid states at once (the full
// padded check, or only the root spheres for long runs) must give the
// verdict of checking every grid state with in_collision, on the built-in arms (solid self pairs,
// exact), on a mesh arm (sphere tier with its refinement margin) with an attached object, and
// through PlanningSpace::motion_valid (edge_collision_free's verdict, for a group of joints too).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/planning_space.hpp"
#include "support/benchmark_scenes.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

constexpr double kResolution = 0.05;

// Every interior grid state, one by one.
bool every_state_free(CollisionChecker& checker, const JointVector& q0, const JointVector& q1,
                      int steps, const CheckOptions& options) {
  for (int i = 1; i < steps; ++i)
    if (checker.in_collision(q0 + (q1 - q0) * (static_cast<double>(i) / steps), options))
      return false;
  return true;
}

// Edges of all lengths from a free state: long ones cross the scene, short ones (a few grid
// steps) stay near their start, where runs are proven or not by millimetres.
struct Tally {
  int free = 0, blocked = 0, first_step_hits = 0;
  int ends_blocked = 0;  // free inside, blocked at the far end
};
Tally compare_on_random_edges(CollisionChecker& checker, const RobotModel& model,
                              const CheckOptions& options, int edges, std::uint64_t seed,
                              const std::string& what) {
  std::mt19937_64 rng(seed);
  Tally tally;
  for (int e = 0; e < edges; ++e) {
    const JointVector q0 = test::random_state(model, rng);
    if (checker.in_collision(q0, options)) continue;
    const double reach = std::uniform_real_distribution<double>(0.01, 0.5)(rng);
    const JointVector q1 = q0 + (test::random_state(model, rng) - q0) * reach;
    const int steps = static_cast<int>(std::ceil((q1 - q0).cwiseAbs().maxCoeff() / kResolution));
    const bool expected = every_state_free(checker, q0, q1, steps, options);
    EXPECT_EQ(checker.grid_motion_free(q0, q1, steps, options), expected)
        << what << " edge " << e << " steps " << steps;
    ++(expected ? tally.free : tally.blocked);
    // With its ends (PlanningSpace::segment_valid): q1 may collide too, and is then reported.
    const bool with_ends = expected && !checker.in_collision(q1, options);
    EXPECT_EQ(checker.grid_motion_free(q0, q1, steps, options, 0, /*with_ends=*/true), with_ends)
        << what << " edge " << e << " with its ends";
    if (!with_ends) {
      const int at = checker.grid_blocked_step();
      EXPECT_TRUE(at >= 0 && at <= steps &&
                  checker.in_collision(q0 + (q1 - q0) * (static_cast<double>(at) / steps), options))
          << what << " edge " << e << " with its ends";
      tally.ends_blocked += expected;
    }
    // A state named to be checked first (0 and steps name none): the same verdict, and when
    // that state collides it is the one reported.
    const int first = std::uniform_int_distribution<int>(0, steps)(rng);
    const auto state = [&](int i) {
      return JointVector(q0 + (q1 - q0) * (static_cast<double>(i) / steps));
    };
    EXPECT_EQ(checker.grid_motion_free(q0, q1, steps, options, first), expected)
        << what << " edge " << e;
    if (expected) continue;
    const int blocked = checker.grid_blocked_step();
    EXPECT_TRUE(blocked > 0 && blocked < steps && checker.in_collision(state(blocked), options))
        << what << " edge " << e;
    if (first > 0 && first < steps && checker.in_collision(state(first), options)) {
      EXPECT_EQ(blocked, first) << what << " edge " << e;
      ++tally.first_step_hits;
    }
  }
  return tally;
}

}  // namespace

TEST(GridMotionCheck, SameVerdictAsCheckingEveryStateOnTheBuiltinArms) {
  for (const std::string robot : {"panda", "ur5e"})
    for (const std::string scene_name : {"boxes20", "shelf", "table", "cage", "empty"}) {
      const RobotModelPtr model = load_builtin_robot(robot);
      CollisionChecker checker(model);
      checker.set_scene(benchmark_scene(scene_name, model));
      const std::string what = robot + " " + scene_name;
      // The planners' options (a margin from obstacles only), padding everything, self pairs alone.
      const Tally planning = compare_on_random_edges(
          checker, *model, {.padding = 0.02, .pad_self = false}, test::cases(1500, 600), 1, what);
      const Tally padded = compare_on_random_edges(checker, *model, {.padding = 0.004},
                                                   test::cases(500, 250), 2, what + " padded");
      const Tally self = compare_on_random_edges(checker, *model, {.self = true, .scene = false},
                                                 test::cases(500, 250), 3, what + " self");
      // Both verdicts occur, so the comparison can fail either way.
      EXPECT_GT(planning.free, 10) << what;
      // (Without obstacles only self collisions block an edge, and few of the Panda's pairs can.)
      EXPECT_GT(planning.blocked + padded.blocked + self.blocked, scene_name == "empty" ? 0 : 10)
          << what;
      EXPECT_GT(padded.free + self.free, 10) << what;
      if (scene_name != "empty") {
        EXPECT_GT(planning.first_step_hits, test::cases(10, 4)) << what;
        EXPECT_GT(planning.ends_blocked, 0) << what << ": no edge blocked at its far end only";
      }
    }
}

TEST(GridMotionCheck, SameVerdictOnAMeshArmWithAnAttachedObject) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string root = kinetic::test::example_robot_data_dir() + "/robots/";
  LoadOptions load_options;
  load_options.package_paths = {kinetic::test::shared_robots_dir()};
  load_options.require_meshes = true;
  const RobotModelPtr model =
      load_robot_file(root + "panda_description/urdf/panda.urdf",
                      root + "panda_description/srdf/panda.srdf", "", load_options);
  CollisionChecker checker(model);
  checker.update(model->named_pose("default"));
  const Pose hand = checker.link_poses()[static_cast<std::size_t>(model->link_index("panda_hand"))];
  PlanningScene scene = benchmark_scene("boxes20", model);
  scene.add_obstacle("rod", Shape::cylinder(0.01, 0.2),
                     hand * pose_from_xyz_rpy({0, 0, 0.15}, {0, 0, 0}));
  scene.attach_obstacle("rod", "panda_hand", hand, {"panda_leftfinger", "panda_rightfinger"});
  checker.set_scene(scene);
  const Tally planning = compare_on_random_edges(
      checker, *model, {.padding = 0.02, .pad_self = false}, 120, 4, "mesh panda");
  const Tally self = compare_on_random_edges(checker, *model, {.self = true, .scene = false}, 80, 5,
                                             "mesh panda self");
  EXPECT_GT(planning.free + self.free, 10);
  EXPECT_GT(planning.blocked + self.blocked, 10);
}

TEST(GridMotionCheck, FindsAnObstacleThatOnlyOneGridStateTouches) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  const JointVector q0 = model->named_pose("ready");
  JointVector q1 = q0;
  q1[0] += 2.4;  // the arm swings about its base: 12 steps of 0.2 rad
  const int steps = 12, touched = 7;
  checker.update(q0 + (q1 - q0) * (static_cast<double>(touched) / steps));
  // A small ball at the wrist's origin at one grid state, clear of the wrist at its neighbours
  // (it moves several centimetres per step).
  const int hand = model->link_index("link7");
  PlanningScene scene;
  scene.add_obstacle("ball", Shape::sphere(0.004),
                     Pose(Eigen::Translation3d(
                         checker.link_poses()[static_cast<std::size_t>(hand)].translation())));
  checker.set_scene(scene);
  const CheckOptions options{.padding = 0.0};
  for (int i = 0; i <= steps; ++i)  // the construction: only that state touches
    ASSERT_EQ(checker.in_collision(q0 + (q1 - q0) * (static_cast<double>(i) / steps), options),
              i == touched)
        << i;
  EXPECT_FALSE(checker.grid_motion_free(q0, q1, steps, options));
  // A coarser grid steps over it, as checking its states one by one would.
  EXPECT_TRUE(every_state_free(checker, q0, q1, 6, options));
  EXPECT_TRUE(checker.grid_motion_free(q0, q1, 6, options));
  scene.remove_obstacle("ball");
  checker.set_scene(scene);
  EXPECT_TRUE(checker.grid_motion_free(q0, q1, steps, options));
}

TEST(GridMotionCheck, RejectsBadInput) {
  const RobotModelPtr model = load_builtin_robot("ur5e");
  CollisionChecker checker(model);
  const JointVector q = model->zero_configuration();
  JointVector bad = q;
  bad[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(checker.grid_motion_free(q, bad, 10), Error);
  EXPECT_THROW(checker.grid_motion_free(bad, q, 10), Error);
  EXPECT_THROW(checker.grid_motion_free(q, JointVector::Zero(3), 10), Error);
  // Fewer than two steps: no interior state to check (the ends are the caller's).
  JointVector far = q;
  far[1] += 3.0;
  EXPECT_TRUE(checker.grid_motion_free(q, far, 1));
  // The checker keeps working.
  EXPECT_EQ(checker.grid_motion_free(q, far, 60), every_state_free(checker, q, far, 60, {}));
}

TEST(GridMotionCheck, PlanningSpaceEdgesKeepEdgeCollisionFreeVerdicts) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  checker.set_scene(benchmark_scene("boxes20", model));
  std::mt19937_64 rng(9);
  // The whole arm, and a group of four joints (the others held at the template's values).
  for (const std::vector<int>& variables :
       {std::vector<int>{0, 1, 2, 3, 4, 5, 6}, std::vector<int>{1, 2, 3, 5}}) {
    const JointVector held = model->named_pose("ready");
    PlanningSpace space(checker, variables, held, 0.02, kResolution);
    int free = 0, blocked = 0;
    for (int e = 0; e < 200; ++e) {
      JointVector a, b;
      space.sample(rng, a);
      space.sample(rng, b);
      if (!space.valid(a)) continue;
      const bool expected =
          edge_collision_free(checker, space.to_full(a), space.to_full(b), kResolution, 0.02);
      EXPECT_EQ(space.motion_valid(a, b), expected) << "edge " << e;
      ++(expected ? free : blocked);
    }
    EXPECT_GT(free, 5);
    EXPECT_GT(blocked, 5);
  }
}

// An edge's blocked state is remembered, and the next edge checks its grid state nearest to it
// first: an edge through it reports that state (not the middle, which plain bisection takes first).
TEST(GridMotionCheck, PlanningSpaceChecksFirstWhereTheLastEdgeWasBlocked) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  checker.set_scene(benchmark_scene("boxes20", model));
  std::mt19937_64 rng(11);
  PlanningSpace space(checker, {0, 1, 2, 3, 4, 5, 6}, model->zero_configuration(), 0.02,
                      kResolution);
  int probed = 0;
  for (int e = 0; e < 400 && probed < 20; ++e) {
    JointVector a, b;
    space.sample(rng, a);
    space.sample(rng, b);
    if (!space.valid(a) || space.motion_valid(a, b)) continue;
    const int steps = edge_steps(a, b, kResolution);
    const JointVector blocked =
        a + (b - a) * (static_cast<double>(checker.grid_blocked_step()) / steps);
    ASSERT_FALSE(state_collision_free(checker, blocked, 0.02));
    // From a, past the blocked state to 3/4 of the new edge (so not its middle).
    const JointVector beyond = a + (blocked - a) * (4.0 / 3.0);
    if (!space.within_limits(beyond)) continue;
    const int beyond_steps = edge_steps(a, beyond, kResolution);
    if (beyond_steps % 4 == 2) continue;  // 3/4 of it would lie halfway between two grid states
    const int expected_first = static_cast<int>(std::lround(0.75 * beyond_steps));
    const JointVector first =
        a + (beyond - a) * (static_cast<double>(expected_first) / beyond_steps);
    if (state_collision_free(checker, first, 0.02) || expected_first == beyond_steps / 2) continue;
    EXPECT_FALSE(space.motion_valid(a, beyond)) << "edge " << e;
    EXPECT_EQ(checker.grid_blocked_step(), expected_first) << "edge " << e;
    ++probed;
  }
  EXPECT_GE(probed, 20);
}

TEST(GridMotionCheck, EdgeStepsRejectBadInput) {
  const JointVector q = JointVector::Zero(3);
  JointVector far = q;
  far[1] = 1.0;
  EXPECT_EQ(edge_steps(q, far, 0.05), 20);
  JointVector bad = q;
  bad[0] = std::numeric_limits<double>::infinity();
  EXPECT_THROW(edge_steps(q, bad, 0.05), Error);
  EXPECT_THROW(edge_steps(q, far, 0.0), Error);
  EXPECT_THROW(edge_steps(q, far, std::numeric_limits<double>::quiet_NaN()), Error);
}
