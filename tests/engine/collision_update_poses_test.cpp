// update_poses (state_check.hpp): each moving body's root-sphere centre is R c + t of its pose,
// placed four doubles at a time, to within the rounding of Eigen's own product (its sums run in
// another order: a unit in the last place): the benchmark's Panda (meshes), a built-in arm
// (solids), and an object attached to a link (a pose of its own).
#include <gtest/gtest.h>

#include <random>

#include "engine/collision/collision_checker.hpp"
#include "engine/collision/state_check.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;

namespace {

// Every moving body's centre after update_poses against Eigen's R c + t: 1e-14 m is a few units in
// the last place at a robot's scale, and far below any error that would matter (a misplaced pose
// is centimetres off).
void expect_centres_are_eigens(const CollisionWorld& world, int count) {
  CollisionState state;
  state.reset(world);
  std::mt19937_64 rng(11);
  ASSERT_FALSE(world.moving_bodies.empty());
  for (int i = 0; i < count; ++i) {
    const JointVector q = test::random_state(*world.model, rng);
    update_poses(world, state, q);
    for (const int b : world.moving_bodies) {
      const Pose& pose = state.pose(b);
      const Vector3 expected =
          pose.linear() * world.local_root_centers[static_cast<std::size_t>(b)] +
          pose.translation();
      for (int r = 0; r < 3; ++r)
        ASSERT_NEAR(state.bound_centers[static_cast<std::size_t>(b)][r], expected[r], 1e-14)
            << "body " << b << " row " << r << " state " << i;
    }
  }
}

}  // namespace

TEST(UpdatePoses, RootCentresAreEigensProductsForTheBenchmarkPanda) {
  const std::string dir = test::mbm_panda_dir();
  if (dir.empty()) GTEST_SKIP() << "../shared/mbm/panda is absent";
  CollisionChecker checker(load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf"));
  expect_centres_are_eigens(*checker.world(), 500);
}

TEST(UpdatePoses, RootCentresAreEigensProductsForABuiltInArmHoldingAnObject) {
  const RobotModelPtr ur5e = load_builtin_robot("ur5e");
  CollisionChecker checker(ur5e);
  PlanningScene scene;
  scene.add_obstacle("tool", Shape::box(Vector3(0.05, 0.04, 0.2)),
                     pose_from_xyz_rpy({0.1, 0.2, 0.3}, {0.3, -0.2, 0.5}));
  scene.attach_obstacle("tool", ur5e->links().back().name, Pose::Identity());
  checker.set_scene(scene);
  const CollisionWorld& world = *checker.world();
  ASSERT_LT(world.attached_begin, world.obstacle_begin) << "the object is attached";
  expect_centres_are_eigens(world, 500);
}
