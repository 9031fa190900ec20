// The slots' reach (slot_reach.hpp): each moving link's bound on how near its root sphere can come
// to the scene holds in every configuration (random states within the limits, the fingers' slide
// included), and it lets the links near the base skip the scene where nothing lies within reach.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "engine/collision/collision_checker.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/collision/slot_reach.hpp"
#include "engine/core/infinity.hpp"
#include "engine/model/robot_loader.hpp"
#include "mbm_problem.hpp"
#include "support/benchmark_scenes.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;

namespace {

// The smallest distance from any moving slot's root sphere to an obstacle it may touch, per slot,
// over `count` random configurations (bounding spheres and half-spaces, as the bound measures).
std::vector<double> nearest_seen(const CollisionWorld& world, int count, unsigned seed) {
  const RobotModel& model = *world.model;
  std::mt19937 rng(seed);
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  std::vector<double> nearest(world.moving_bodies.size(), kInf);
  std::vector<Pose> poses;
  for (int i = 0; i < count; ++i) {
    JointVector q(model.dof());
    for (int v = 0; v < model.dof(); ++v)
      q[v] = std::uniform_real_distribution<double>(lower[v], upper[v])(rng);
    world.fk->compute(q, poses);
    for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
      const int b = world.moving_bodies[m];
      const CollisionWorld::BodySlot& slot = world.bodies[static_cast<std::size_t>(b)];
      const Vector3 center = poses[static_cast<std::size_t>(slot.link)] * slot.offset *
                             world.local_root_centers[static_cast<std::size_t>(b)];
      for (int o = world.obstacle_begin; o < world.body_count(); ++o) {
        const std::size_t k = static_cast<std::size_t>(o - world.obstacle_begin);
        if (world.scene_allowed[m][k] || world.body(o).tree.empty()) continue;
        const double distance =
            (center - world.fixed_bound_centers[static_cast<std::size_t>(o)]).norm() -
            world.body(o).tree.root().radius - world.root_radii[static_cast<std::size_t>(b)];
        nearest[m] = std::min(nearest[m], distance);
      }
    }
  }
  return nearest;
}

void expect_bounds_hold(const CollisionWorld& world, int count) {
  const std::vector<double> nearest = nearest_seen(world, count, 11);
  ASSERT_EQ(world.scene_reach_gap.size(), world.moving_bodies.size());
  for (std::size_t m = 0; m < nearest.size(); ++m)
    EXPECT_LE(world.scene_reach_gap[m], nearest[m])
        << world.body_name(world.moving_bodies[m]) << " came nearer than its bound";
}

}  // namespace

TEST(SlotReach, TheBuiltInPandaKeepsItsBoundsAmongShelves) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  checker.set_scene(benchmark_scene("shelf", model));
  expect_bounds_hold(*checker.world(), 20000);
}

TEST(SlotReach, TheBenchmarksPandaKeepsItsBoundsAndItsBaseLinksSkipTheBookshelf) {
  if (test::mbm_panda_dir().empty()) GTEST_SKIP() << "../shared/mbm/panda is absent";
  const std::unique_ptr<Planner> planner = test::mbm_panda_planner();
  planner->set_scene(test::mbm_problem(planner->model(), "bookshelf_small", 1).scene);
  const CollisionWorld& world = *planner->checker().world();
  expect_bounds_hold(world, 20000);
  // The shelf stands beyond the shoulder's reach: the first links have nothing near, the hand
  // reaches into it.
  const auto gap_of = [&](const std::string& link) {
    for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
      if (world.body_name(world.moving_bodies[m]) == link) return world.scene_reach_gap[m];
    ADD_FAILURE() << link << " is no moving slot";
    return 0.0;
  };
  EXPECT_GT(gap_of("panda_link1"), 0.05);
  EXPECT_GT(gap_of("panda_link2"), 0.05);
  EXPECT_LT(gap_of("panda_hand"), 0.0);
  EXPECT_LT(gap_of("panda_leftfinger"), 0.0);  // the slide widens the fingers' reach
  EXPECT_LT(gap_of("panda_leftfinger"), gap_of("panda_hand"));
}

TEST(SlotReach, AnEmptySceneIsOutOfEveryLinksReach) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  const CollisionWorld& world = *checker.world();
  for (const double gap : world.scene_reach_gap) EXPECT_EQ(gap, kInf);
}
