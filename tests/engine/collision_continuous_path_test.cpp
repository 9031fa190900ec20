// The continuous path check against the scene (steps by each body's clearance, scene_gap.hpp)
// compared with a fine discrete walk on random three-waypoint paths through the 20-box benchmark
// scene and MotionBenchMaker's cage: it must never call a path free where the walk finds a state
// in which a link reaches into an obstacle. The clearance bound it steps by against the exact
// distance. And the flat broad phase (SphereSet) against brute force: it never drops an obstacle
// within reach.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <set>

#include "engine/collision/collision_checker.hpp"
#include "engine/collision/scene_gap.hpp"
#include "engine/collision/sphere_set.hpp"
#include "engine/core/error.hpp"
#include "engine/core/infinity.hpp"
#include "engine/geometry/primitive_distance.hpp"
#include "engine/model/robot_loader.hpp"
#include "mbm_problem.hpp"
#include "support/benchmark_scenes.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"
#include "ur5e_forearm_swing.hpp"

using namespace kinetic;

namespace {

constexpr double kFineStep = 0.002;  // rad

JointVector random_state(std::mt19937_64& rng, const JointVector& lo, const JointVector& hi) {
  JointVector q(lo.size());
  for (Eigen::Index j = 0; j < q.size(); ++j)
    q[j] =
        std::uniform_real_distribution<double>(std::max(lo[j], -M_PI), std::min(hi[j], M_PI))(rng);
  return q;
}

// Exact: some link reaches into an obstacle (distance <= 0).
bool scene_contact(CollisionChecker& checker, const JointVector& q) {
  const DistanceResult d = checker.min_distance(q, {.self = false, .scene = true, .exact = true});
  return d.found && d.distance <= 0.0;
}

struct Tally {
  int paths = 0, walk_colliding = 0, check_colliding = 0;
};

// Random three-waypoint paths of `robot` among the checker's scene, compared with the fine walk.
Tally compare(CollisionChecker& checker, const RobotModel& model, const std::string& robot,
              int paths, std::uint64_t seed, double reach = 0.6) {
  const CheckOptions scene_only{.padding = 0.0, .self = false, .scene = true};
  const JointVector lo = model.lower_limits(), hi = model.upper_limits();
  std::mt19937_64 rng(seed);
  Tally tally;
  while (tally.paths < paths) {
    // Waypoints free in in_collision's sense, segments short enough to often pass between boxes.
    std::vector<JointVector> path{random_state(rng, lo, hi)};
    while (path.size() < 3) {
      JointVector step(lo.size());
      for (Eigen::Index j = 0; j < step.size(); ++j)
        step[j] = std::uniform_real_distribution<double>(-reach, reach)(rng);
      path.push_back((path.back() + step).cwiseMax(lo).cwiseMin(hi));
    }
    if (std::any_of(path.begin(), path.end(),
                    [&](const JointVector& q) { return checker.in_collision(q, scene_only); }))
      continue;
    ++tally.paths;
    bool check_free = checker.path_begin(path[0], scene_only);
    for (std::size_t i = 1; i < path.size() && check_free; ++i)
      check_free = checker.path_advance(path[i]);

    bool walk_free = true;
    for (std::size_t i = 1; i < path.size() && walk_free; ++i) {
      const JointVector dq = path[i] - path[i - 1];
      const int steps =
          std::max(1, static_cast<int>(std::ceil(dq.cwiseAbs().maxCoeff() / kFineStep)));
      for (int s = 1; s < steps && walk_free; ++s)
        walk_free = !scene_contact(checker, path[i - 1] + dq * (static_cast<double>(s) / steps));
    }
    tally.walk_colliding += !walk_free;
    tally.check_colliding += !check_free;
    EXPECT_FALSE(check_free && !walk_free)
        << robot << ": path called free, the fine walk reaches an obstacle";
    if (!check_free) {
      EXPECT_FALSE(checker.path_contact().body_a.empty());
      EXPECT_TRUE(checker.path_contact().scene);
    }
  }
  std::cout << robot << ": " << tally.paths << " paths, fine walk colliding "
            << tally.walk_colliding << ", path check colliding " << tally.check_colliding << "\n";
  return tally;
}

TEST(ContinuousPathCheck, SceneVerdictsAreNeverLaxerThanAFineWalk) {
  for (const auto& [robot, seed] : {std::pair{"panda", 5}, std::pair{"ur5e", 6}}) {
    const RobotModelPtr model = load_builtin_robot(robot);
    CollisionChecker checker(model);
    checker.set_scene(benchmark_scene("boxes20", model));
    const Tally t = compare(checker, *model, robot, 40, seed);
    // Both verdicts occur, and the check does not call most free paths colliding.
    EXPECT_GE(t.walk_colliding, 2) << robot;
    EXPECT_LT(t.walk_colliding, t.paths) << robot;
    EXPECT_LE(t.check_colliding - t.walk_colliding, t.paths / 5) << robot;
  }
}

// The mesh Panda among MotionBenchMaker's cage bars: the check steps by the clearance of the
// links' convex hulls and, near contact, by their meshes' exact distance (scene_gap.hpp).
TEST(ContinuousPathCheck, MeshPandaAmongCageBarsIsNeverLaxerThanAFineWalk) {
  KINETIC_REQUIRE_MBM();
  const std::string dir = test::mbm_panda_dir();
  const RobotModelPtr model = load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf");
  CollisionChecker checker(model);
  checker.set_scene(test::mbm_problem(*model, "cage", 1).scene);
  const Tally t = compare(checker, *model, "mbm panda", test::cases(40, 12), 21, 3.0);
  EXPECT_GE(t.walk_colliding, test::cases(4, 1));
  EXPECT_LT(t.walk_colliding, t.paths);
  EXPECT_LE(t.check_colliding - t.walk_colliding, t.paths / 5);
}

// slot_scene_gap against every obstacle's exact distance, on random states of a mesh arm among
// cage bars and of a primitive arm among boxes: never above it (a body may step by the bound),
// and near it where it matters, so that the steps are not needlessly short.
TEST(SceneGap, IsALowerBoundOnTheExactClearanceAndNearlyReachesIt) {
  KINETIC_REQUIRE_MBM();
  const std::string dir = test::mbm_panda_dir();
  const RobotModelPtr mesh_panda =
                          load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf"),
                      panda = load_builtin_robot("panda");
  CollisionChecker meshes(mesh_panda), solids(panda);
  meshes.set_scene(test::mbm_problem(*mesh_panda, "cage", 1).scene);
  solids.set_scene(benchmark_scene("boxes20", panda));
  constexpr double kCap = 0.1, kTolerance = 1e-3;
  for (const auto& [label, checker] : {std::pair{"mesh panda in the cage", &meshes},
                                       std::pair{"primitive panda among boxes", &solids}}) {
    const CollisionWorld& world = *checker->world();
    CollisionState state;
    state.reset(world);
    std::mt19937_64 rng(31);
    int near = 0, tight = 0, contacts = 0, unknown = 0;
    for (int i = 0; i < test::cases(400, 100); ++i) {
      update_poses(world, state, test::random_state(*world.model, rng));
      for (const double padding : {0.0, 0.02})
        for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
          const int b = world.moving_bodies[m];
          double exact = kInf;
          for (int o = world.obstacle_begin; o < world.body_count(); ++o)
            if (!world.scene_allowed[m][static_cast<std::size_t>(o - world.obstacle_begin)])
              exact = std::min(exact,
                               exact_pair_distance(
                                   *world.bodies[static_cast<std::size_t>(b)].body, state.pose(b),
                                   *world.bodies[static_cast<std::size_t>(o)].body, state.pose(o))
                                   .distance);
          const double clearance = exact - padding;
          const SceneGap gap = slot_scene_gap(world, state, m, padding, kCap, kTolerance);
          if (gap.contact) {  // the search stops at the first pair found within the padding
            ++contacts;
            EXPECT_LT(clearance, 1e-4) << label << ": contact called at a clearance of "
                                       << clearance << ", state " << i << " slot " << m;
            continue;
          }
          if (gap.unknown) {  // a pair without a trusted distance (FCL's): near, not bounded
            ++unknown;
            EXPECT_LT(clearance, kCap + 1e-7) << label << ": state " << i << " slot " << m;
            continue;
          }
          EXPECT_LE(gap.gap, clearance + 1e-7)
              << label << ": state " << i << " slot " << m << " padding " << padding;
          if (clearance < kCap) {
            EXPECT_LT(gap.gap, kCap) << label << ": state " << i << " slot " << m;
            EXPECT_GE(gap.obstacle, world.obstacle_begin) << label << ": state " << i;
          }
          if (clearance > kTolerance && clearance < kCap) {
            ++near;
            tight += gap.gap >= 0.5 * clearance;
          }
        }
    }
    std::cout << label << ": " << near << " near bodies, " << tight
              << " bounded within half their clearance, " << contacts << " contacts, " << unknown
              << " without a bound\n";
    EXPECT_GT(near, test::cases(100, 25)) << label;
    EXPECT_GT(contacts, 0) << label;
    EXPECT_GE(tight, near * 9 / 10) << label;
  }
}

TEST(ContinuousPathCheck, SelfAndSceneTogetherNameThePairThatFails) {
  CollisionChecker checker(load_builtin_robot("ur5e"));
  auto [up, over] = test::ur5e_forearm_swing();  // the folded forearm swings through the base
  ASSERT_TRUE(checker.path_begin(up, {.padding = 0.0, .self = true, .scene = true}));
  EXPECT_FALSE(checker.path_advance(over));
  EXPECT_FALSE(checker.path_contact().scene);
  EXPECT_FALSE(checker.path_contact().body_a.empty());
  // A scene change between begin and advance is refused rather than checked with stale pairs.
  PlanningScene scene;
  scene.add_obstacle("post", Shape::box({0.05, 0.05, 0.05}),
                     pose_from_xyz_rpy({2.0, 0.0, 0.0}, {0, 0, 0}));
  ASSERT_TRUE(checker.path_begin(up, {.padding = 0.0, .self = true, .scene = true}));
  checker.set_scene(scene);
  EXPECT_THROW(checker.path_advance(up), Error);
  ASSERT_TRUE(checker.path_begin(up, {.padding = 0.0, .self = true, .scene = true}));
  EXPECT_TRUE(checker.path_advance(up));
}

TEST(FlatBroadPhase, NeverDropsASphereWithinReach) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> coordinate(-2.0, 2.0), radius(0.0, 0.2);
  for (int n : {1, 3, 4, 5, 17, 100}) {
    std::vector<ObstacleTree::Entry> entries;
    for (int i = 0; i < n; ++i)
      entries.push_back(
          {1000 + i, Vector3(coordinate(rng), coordinate(rng), coordinate(rng)), radius(rng)});
    SphereSet set;
    set.build(entries);
    ASSERT_TRUE(set.usable());
    for (int query = 0; query < 200; ++query) {
      const Vector3 center(coordinate(rng), coordinate(rng), coordinate(rng));
      const double reach = radius(rng);
      std::set<int> visited;
      set.any_near(center, reach, [&](int id) { return visited.insert(id), false; });
      for (const auto& e : entries) {
        const double gap = (e.center - center).norm() - e.radius - reach;
        if (gap <= 0.0) {
          EXPECT_TRUE(visited.count(e.id)) << "dropped an overlapping sphere, gap " << gap;
        } else if (gap > 1e-4) {
          EXPECT_FALSE(visited.count(e.id)) << "kept a sphere " << gap << " m away";
        }
      }
      EXPECT_TRUE(std::all_of(visited.begin(), visited.end(), [](int id) { return id >= 1000; }));
    }
    // Early exit: the first visit that answers true ends the query.
    int calls = 0;
    EXPECT_TRUE(set.any_near(Vector3::Zero(), 10.0, [&](int) { return ++calls, true; }));
    EXPECT_EQ(calls, 1);
    // A NaN query cannot be culled: every real entry is visited, padding entries never.
    std::set<int> all;
    set.any_near(Vector3::Constant(std::nan("")), 0.0,
                 [&](int id) { return all.insert(id), false; });
    EXPECT_EQ(static_cast<int>(all.size()), n);
  }
  SphereSet far;
  far.build({{0, Vector3(2.0e4, 0.0, 0.0), 1.0}});
  EXPECT_FALSE(far.usable());  // float rounding out there: the tree takes such scenes
}

// Entries with a solid (a box or a cylinder, turned and placed anywhere) are tested against the
// solid itself: every one within reach is visited, and one farther than 0.1 mm from the query is
// not, though its bounding sphere may be (a long board's is most of a metre across).
TEST(FlatBroadPhase, SolidsAreCulledByTheirOwnShapeAndNeverDroppedWithinReach) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> coordinate(-1.5, 1.5), size(0.01, 0.8), unit(-1.0, 1.0);
  std::vector<ObstacleTree::Entry> entries;
  std::vector<std::optional<SphereSet::Solid>> solids;
  std::vector<Shape> shapes;
  std::vector<Pose> poses;
  for (int i = 0; i < 23; ++i) {  // boxes, cylinders and one entry of a bounding sphere alone
    const Shape shape = i % 3 == 0   ? Shape::cylinder(0.5 * size(rng), size(rng))
                        : i % 3 == 1 ? Shape::box({size(rng), size(rng), 0.02})
                                     : Shape::box({size(rng), size(rng), size(rng)});
    const Pose pose = pose_from_xyz_rpy({coordinate(rng), coordinate(rng), coordinate(rng)},
                                        {3 * unit(rng), 3 * unit(rng), 3 * unit(rng)});
    const double bound = shape.type == Shape::Type::Box
                             ? shape.box_size.norm() / 2
                             : std::hypot(shape.radius, shape.length / 2);
    entries.push_back({100 + i, pose.translation(), bound});
    SphereSet::Solid solid{pose.linear().transpose(), pose.translation(),
                           shape.type == Shape::Type::Box ? Vector3(shape.box_size / 2)
                                                          : Vector3(0, 0, shape.length / 2),
                           shape.type == Shape::Type::Box ? 0.0 : shape.radius};
    solids.push_back(i == 22 ? std::nullopt : std::optional(solid));
    shapes.push_back(shape);
    poses.push_back(pose);
  }
  SphereSet set;
  set.build(entries, &solids);
  int culled_inside_bound = 0;
  for (int query = 0; query < 3000; ++query) {
    const Vector3 center(coordinate(rng), coordinate(rng), coordinate(rng));
    const double reach = 0.2 * (unit(rng) + 1.0);
    std::set<int> visited;
    set.any_near(center, reach, [&](int id) { return visited.insert(id), false; });
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const double sphere_gap = (entries[i].center - center).norm() - entries[i].radius - reach;
      const double gap = i == 22
                             ? sphere_gap
                             : solid_point_distance(shapes[i], poses[i].inverse() * center) - reach;
      if (gap <= 0.0) {
        EXPECT_TRUE(visited.count(entries[i].id)) << "dropped a solid within reach, gap " << gap;
      } else if (gap > 1e-4) {
        EXPECT_FALSE(visited.count(entries[i].id)) << "kept a solid " << gap << " m away";
        culled_inside_bound += sphere_gap <= 0.0;
      }
    }
  }
  EXPECT_GT(culled_inside_bound, 250);  // the solids cull what their spheres could not (538)
}

// The benchmark's Panda (meshes: covers, witnesses, kept axes) among turned boards, blocks and
// cylinders, which the flat broad phase culls by their shapes: the scene verdict, with and without
// a padding, equals checking every (link, obstacle) pair on its own exactly.
TEST(FlatBroadPhase, MeshArmAmongBoardsAndCylindersMatchesPairByPairChecks) {
  KINETIC_REQUIRE_MBM();
  const std::string dir = test::mbm_panda_dir();
  const RobotModelPtr model = load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf");
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  PlanningScene scene;
  for (int i = 0; i < 12; ++i) {
    const Shape shape = i % 3 == 0   ? Shape::cylinder(0.02 + 0.03 * (u(rng) + 1.0), 0.6)
                        : i % 3 == 1 ? Shape::box({0.9, 0.4, 0.02})
                                     : Shape::box({0.1, 0.15, 0.2});
    scene.add_obstacle("solid_" + std::to_string(i), shape,
                       pose_from_xyz_rpy({u(rng), u(rng), 0.5 + 0.5 * u(rng)},
                                         {1.5 * u(rng), 1.5 * u(rng), 3.0 * u(rng)}));
  }
  CollisionChecker checker(model, {SphereResolution::Default, 0.0});
  checker.set_scene(scene);
  const JointVector lo = model->lower_limits(), hi = model->upper_limits();
  for (const double padding : {0.0, 0.02}) {
    int colliding = 0;
    const int trials = test::cases(300, 60);
    for (int trial = 0; trial < trials; ++trial) {
      const JointVector q = random_state(rng, lo, hi);
      const bool verdict =
          checker.in_collision(q, {.padding = padding, .self = false, .scene = true});
      bool pairwise = false;
      for (int link = 0; link < checker.robot_body_count() && !pairwise; ++link)
        for (int o = checker.robot_body_count(); o < checker.body_count() && !pairwise; ++o)
          pairwise =
              !checker.body(link).empty() && checker.pair_in_collision(link, o, padding, 0.0);
      EXPECT_EQ(verdict, pairwise) << "padding " << padding << ", q = " << q.transpose();
      colliding += verdict;
    }
    std::cout << "padding " << padding << ": " << colliding << " of " << trials
              << " states collide\n";
    EXPECT_GT(colliding, trials / 10) << padding;
    EXPECT_LT(colliding, trials * 9 / 10) << padding;
  }
}

TEST(FlatBroadPhase, SceneVerdictsMatchPairByPairChecks) {
  // Around and past the flat broad phase's limit (512 obstacles) the scene verdict equals the
  // verdict of checking every (link, obstacle) pair on its own.
  const RobotModelPtr model = load_builtin_robot("panda");
  std::mt19937_64 rng(8);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  // (count, half-width of the region they fill): dense enough that about half the states collide
  for (const auto& [count, spread] : {std::pair{30, 1.0}, std::pair{600, 3.0}}) {
    PlanningScene scene;
    for (int i = 0; i < count; ++i)
      scene.add_obstacle(
          "ball_" + std::to_string(i), Shape::sphere(0.01 + 0.01 * (u(rng) + 1.0)),
          pose_from_xyz_rpy({spread * u(rng), spread * u(rng), 0.6 + 0.6 * u(rng)}, {0, 0, 0}));
    CollisionChecker checker(model, {SphereResolution::Default, 0.0});
    checker.set_scene(scene);
    const JointVector lo = model->lower_limits(), hi = model->upper_limits();
    int colliding = 0;
    for (int trial = 0; trial < 60; ++trial) {
      const JointVector q = random_state(rng, lo, hi);
      const bool verdict = checker.in_collision(q, {.padding = 0.0, .self = false, .scene = true});
      bool pairwise = false;
      for (int link = 0; link < checker.robot_body_count() && !pairwise; ++link)
        for (int o = checker.robot_body_count(); o < checker.body_count() && !pairwise; ++o)
          pairwise = !checker.body(link).empty() && checker.pair_in_collision(link, o);
      EXPECT_EQ(verdict, pairwise) << count << " obstacles, trial " << trial;
      colliding += verdict;
    }
    std::cout << count << " obstacles: " << colliding << " of 60 states collide\n";
    EXPECT_GT(colliding, 0) << count;
    EXPECT_LT(colliding, 60) << count;
  }
}

}  // namespace
