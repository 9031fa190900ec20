// The slots' reach (slot_reach.hpp): each moving link's bound on how near its root sphere can come
// to the scene holds in every configuration (random states within the limits and beyond them),
// a link past a sliding joint has none, and the links near the base skip the scene where nothing
// lies within reach.
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
// over `count` random configurations, half of them up to a radian beyond the turning joints'
// limits (the bound holds for any angle), measured to the obstacles' bounding spheres.
std::vector<double> nearest_seen(const CollisionWorld& world, int count, unsigned seed) {
  const RobotModel& model = *world.model;
  std::mt19937 rng(seed);
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  std::vector<double> nearest(world.moving_bodies.size(), kInf);
  std::vector<Pose> poses;
  for (int i = 0; i < count; ++i) {
    JointVector q(model.dof());
    const double beyond = i % 2 ? 1.0 : 0.0;
    for (int v = 0; v < model.dof(); ++v) {
      const bool turns = model.variable_joint(v).type != JointType::Prismatic;
      q[v] = std::uniform_real_distribution<double>(lower[v] - (turns ? beyond : 0.0),
                                                    upper[v] + (turns ? beyond : 0.0))(rng);
    }
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
  EXPECT_LT(gap_of("panda_leftfinger"), 0.0);  // (fixed to the hand in the benchmark's Panda)
}

TEST(SlotReach, AnEmptySceneIsOutOfEveryLinksReach) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  const CollisionWorld& world = *checker.world();
  for (const double gap : world.scene_reach_gap) EXPECT_EQ(gap, kInf);
}

TEST(SlotReach, ALinkPastASlidingJointHasNoBoundAndATurningOneKeepsItsBallWhateverItsAngle) {
  const RobotModelPtr model = load_robot_string(R"(<robot name="rail_and_arm">
  <link name="base"/>
  <link name="arm"><collision><origin xyz="0.3 0 0"/><geometry><box size="0.6 0.05 0.05"/></geometry></collision></link>
  <link name="carriage"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <joint name="turn" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
    <limit lower="-0.5" upper="0.5" effort="1" velocity="1"/></joint>
  <joint name="rail" type="prismatic"><parent link="base"/><child link="carriage"/><axis xyz="0 1 0"/>
    <limit lower="0" upper="0.2" effort="1" velocity="1"/></joint>
</robot>)");
  CollisionChecker checker(model);
  PlanningScene scene;
  // 1.5 m from the turning axis: the arm, 0.6 m long, comes nearest turned by pi (past its
  // limits); a ceiling a metre above its base.
  Pose post_pose = Pose::Identity();
  post_pose.translation() = Vector3(-1.5, 0.0, 0.0);
  scene.add_obstacle("post", Shape::box(Vector3(0.1, 0.1, 1.0)), post_pose);
  scene.add_obstacle("ceiling", Shape::half_space(-Vector3::UnitZ(), -1.0), Pose::Identity());
  checker.set_scene(scene);
  const CollisionWorld& world = *checker.world();
  ASSERT_EQ(world.moving_bodies.size(), 2u);
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
    const int b = world.moving_bodies[m];
    if (world.body_name(b) == "carriage") {
      EXPECT_EQ(world.scene_reach_gap[m], -kInf);
      continue;
    }
    // The arm's root sphere measured against the post's bounding sphere and the ceiling's plane
    // at angles within and far past the limits: never nearer than the bound, which still lets
    // every scene check of the arm skip the scene at paddings below a few decimetres.
    const int post = world.obstacle_begin;
    const double radius = world.root_radii[static_cast<std::size_t>(b)];
    std::vector<Pose> poses;
    for (const double angle : {-3.14, -3.0, -0.5, 0.0, 0.5, 3.0, 3.14}) {
      JointVector q = JointVector::Zero(model->dof());
      q[model->variable_index("turn")] = angle;
      world.fk->compute(q, poses);
      const Vector3 center =
          poses[static_cast<std::size_t>(world.bodies[static_cast<std::size_t>(b)].link)] *
          world.local_root_centers[static_cast<std::size_t>(b)];
      const double to_post =
          (center - world.fixed_bound_centers[static_cast<std::size_t>(post)]).norm() -
          world.body(post).tree.root().radius - radius;
      const double to_ceiling = 1.0 - center.z() - radius;
      EXPECT_LE(world.scene_reach_gap[m], std::min(to_post, to_ceiling)) << "turned " << angle;
    }
    EXPECT_GT(world.scene_reach_gap[m], 0.2);
  }
}
