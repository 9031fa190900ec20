// The collision world shared by checkers, each with its own query state: one world built per robot
// + scene, queried from several threads at once with the verdicts of a lone checker, kept by a
// checker whose sibling took a new scene, and a path check begun in one world refused in another.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "engine/collision/collision_body.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/benchmark_scenes.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;

namespace {

std::vector<JointVector> random_states(const RobotModel& model, int count, unsigned seed) {
  std::mt19937 rng(seed);
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  std::vector<JointVector> states;
  for (int i = 0; i < count; ++i) {
    JointVector q(model.dof());
    for (int v = 0; v < model.dof(); ++v)
      q[v] = std::uniform_real_distribution<double>(lower[v], upper[v])(rng);
    states.push_back(q);
  }
  return states;
}

}  // namespace

TEST(CollisionWorld, OneWorldServesCheckersOnSeveralThreadsWithTheVerdictsOfOne) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker lone(model);
  lone.set_scene(benchmark_scene("shelf", model));
  const std::vector<JointVector> states = random_states(*model, 400, 7);
  std::vector<char> expected;
  int colliding = 0;
  for (const auto& q : states) {
    expected.push_back(lone.in_collision(q) ? 1 : 0);
    colliding += expected.back();
  }
  ASSERT_GT(colliding, 20);  // the check can tell a shared-state mix-up from agreement
  ASSERT_LT(colliding, 380);

  const std::shared_ptr<const CollisionWorld> world = lone.world();
  std::vector<std::vector<char>> verdicts(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < verdicts.size(); ++t)
    threads.emplace_back([&, t] {
      CollisionChecker mine(world);  // its own poses and hints, the world shared
      for (int pass = 0; pass < 3; ++pass)
        for (std::size_t i = t; i < states.size() + t; ++i) {  // each thread in its own order
          const std::size_t k = i % states.size();
          const char verdict = mine.in_collision(states[k]) ? 1 : 0;
          if (pass == 2) {
            verdicts[t].resize(states.size());
            verdicts[t][k] = verdict;
          }
        }
    });
  for (auto& thread : threads) thread.join();
  for (const auto& v : verdicts) EXPECT_EQ(v, expected);
  EXPECT_EQ(world.use_count(),
            2);  // the lone checker and this test: the threads' checkers are gone
}

TEST(CollisionWorld, ANewSceneIsANewWorldAndLeavesTheSharedOneAsItWas) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker first(model);
  CollisionChecker second(first.world());
  ASSERT_EQ(first.world(), second.world());
  const JointVector ready = model->zero_configuration();
  ASSERT_FALSE(second.in_collision(ready));

  PlanningScene scene;
  scene.add_obstacle("block", Shape::box(Vector3(0.2, 0.2, 0.2)), first.link_poses().back());
  first.set_scene(scene);
  EXPECT_NE(first.world(), second.world());
  EXPECT_NE(first.world()->id, second.world()->id);
  EXPECT_TRUE(first.in_collision(ready));
  EXPECT_FALSE(second.in_collision(ready));  // its world has no block
  EXPECT_EQ(second.world()->body_count(), second.robot_body_count());
  // The links' bodies (meshes, sphere trees) are the same objects in both worlds.
  for (int i = 0; i < first.robot_body_count(); ++i)
    EXPECT_EQ(first.shared_body(i), second.shared_body(i));
}

TEST(CollisionWorld, APathCheckBegunInOneWorldIsRefusedInTheNext) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  const JointVector q = model->zero_configuration();
  ASSERT_TRUE(checker.path_begin(q));
  checker.set_scene(benchmark_scene("table", model));
  try {
    checker.path_advance(q);
    FAIL() << "a path begun before the scene changed went on";
  } catch (const Error& error) {
    EXPECT_NE(std::string(error.what()).find("scene changed"), std::string::npos) << error.what();
  }
}

TEST(CollisionWorld, ARobotMatrixLackingALinkIsRefusedAndTheWorldKept) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  const auto before = checker.world();
  AllowedCollisionMatrix partial({model->links().front().name});
  EXPECT_THROW(checker.set_robot_acm(partial), Error);
  EXPECT_EQ(checker.world(), before);
}

// Link bodies (their sphere trees and covers) are built once per robot, not once per checker: a
// second checker of the same robot, even after the first is gone, shares them. A body of another
// shape or pose is another body.
TEST(CollisionWorld, CheckersOfOneRobotShareItsLinkBodies) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr robot = load_robot_file(test::mbm_panda_dir() + "/robot/panda.urdf");
  const CollisionBody* first_link = nullptr;
  {
    CollisionChecker first(robot);
    ASSERT_GT(first.robot_body_count(), 0);
    first_link = &first.body(1);
  }
  CollisionChecker second(robot);
  EXPECT_EQ(&second.body(1), first_link);
  EXPECT_FALSE(second.body(1).cover.empty());
  const auto box = make_collision_body("box", {{Shape::box({0.1, 0.1, 0.1}), Pose::Identity()}},
                                       SphereResolution::Default);
  EXPECT_EQ(make_collision_body("box", {{Shape::box({0.1, 0.1, 0.1}), Pose::Identity()}},
                                SphereResolution::Default),
            box);
  EXPECT_NE(make_collision_body("box", {{Shape::box({0.1, 0.1, 0.2}), Pose::Identity()}},
                                SphereResolution::Default),
            box);
  EXPECT_NE(make_collision_body(
                "box", {{Shape::box({0.1, 0.1, 0.1}), Pose(Eigen::Translation3d(0, 0, 1))}},
                SphereResolution::Default),
            box);
}
