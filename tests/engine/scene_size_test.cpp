// A scene of many obstacles is set up in memory linear in their number (an n x n allowed-collision
// matrix took 1.7 GB for 40,000; 200,000 ended in bad_alloc), and a scene file over the stated
// limit is refused, saying the limit.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>
#include <string>

#include "builtin_arms.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/scene/scene_file.hpp"

using namespace kinetic;

namespace {

// `count` small boxes in a grid 10 m above the robot.
std::string scene_of_boxes(std::size_t count) {
  std::string text = R"({"format": "kinetic-scene", "version": 1, "obstacles": [)";
  for (std::size_t i = 0; i < count; ++i)
    text += (i ? "," : "") + std::string(R"({"name": "b)") + std::to_string(i) +
            R"(", "shape": {"type": "box", "size": [0.01, 0.01, 0.01]}, "pose": {"position": [)" +
            std::to_string(5 + i % 100) + ", " + std::to_string(i / 100) +
            R"(, 10], "orientation": [0, 0, 0, 1]}})";
  return text + "]}";
}

long max_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(SceneSize, TwentyThousandObstaclesTakeMemoryLinearInTheirNumber) {
  const RobotModelPtr model = test::builtin_ur5e();
  const std::string text = scene_of_boxes(20000);
  const long rss_before = max_rss_kb();
  const auto began = std::chrono::steady_clock::now();
  const PlanningScene scene = scene_from_json(text, "many.json");
  CollisionChecker checker(model);
  checker.set_scene(scene);
  EXPECT_FALSE(checker.in_collision(model->named_pose("home")));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  // (Names are checked through a hash set since the scan per add made this quadratic; speed is
  // for the benchmarks, so only a generous bound here.)
  EXPECT_LT(seconds, 120.0);
  EXPECT_LT(max_rss_kb() - rss_before, 250 * 1024) << "KiB grown";  // 400 MB of matrix before
}

TEST(SceneSize, AScenePastTheLimitIsRefusedSayingIt) {
  try {
    scene_from_json(scene_of_boxes(100001), "huge.json");
    ADD_FAILURE() << "a scene of 100,001 obstacles loaded";
  } catch (const Error& error) {
    EXPECT_NE(error.message().find("has 100001 obstacles; a scene may have at most 100000"),
              std::string::npos)
        << error.message().substr(0, 300);
  }
}

}  // namespace

// The name index stays true through every way an object changes lists, including a name passed
// by reference to the object being removed.
TEST(SceneNames, StayUniqueThroughAttachDetachRemoveAndClear) {
  PlanningScene scene;
  const Shape box = Shape::box({0.1, 0.1, 0.1});
  scene.add_obstacle("a", box, Pose::Identity());
  scene.add_obstacle("b", box, Pose::Identity());
  EXPECT_THROW(scene.add_obstacle("a", box, Pose::Identity()), Error);
  scene.attach_obstacle(scene.obstacles().front().name, "tool0", Pose::Identity());
  EXPECT_FALSE(scene.has_obstacle("a"));
  EXPECT_TRUE(scene.has_attached("a"));
  EXPECT_THROW(scene.add_obstacle("a", box, Pose::Identity()), Error);  // attached, still taken
  scene.detach(scene.attached_objects().front().name, Pose::Identity());
  EXPECT_TRUE(scene.has_obstacle("a"));
  EXPECT_FALSE(scene.has_attached("a"));
  scene.remove_obstacle(scene.obstacles().front().name);  // "b", by reference to its own name
  EXPECT_FALSE(scene.has_obstacle("b"));
  EXPECT_TRUE(scene.has_obstacle("a"));
  scene.add_obstacle("b", box, Pose::Identity());
  scene.clear();
  EXPECT_FALSE(scene.has_obstacle("a"));
  scene.add_obstacle("a", box, Pose::Identity());
  EXPECT_EQ(scene.obstacles().size(), 1u);
}
