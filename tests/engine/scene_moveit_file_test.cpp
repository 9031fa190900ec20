// MoveIt's scene formats (planning-scene YAML, .scene text) and motion plan requests, on
// MotionBenchMaker's own files where they are present.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/motion_plan_request.hpp"
#include "engine/scene/moveit_scene_file.hpp"
#include "engine/scene/scene_file.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;
namespace fs = std::filesystem;

namespace {

std::string box_problem(const std::string& file) {
  return (fs::path(test::mbm_panda_dir()) / "problems" / "box_panda" / file).string();
}

// The text of the error `read` throws, "" when it throws none.
template <typename Read>
std::string moveit_file_error_of(Read read) {
  try {
    read();
  } catch (const Error& e) {
    return e.what() + std::string(" | ") + e.hint();
  }
  return {};
}

}  // namespace

TEST(MoveItSceneYaml, ReadsMotionBenchMakersBoxScene) {
  KINETIC_REQUIRE_MBM();
  const PlanningScene scene = load_scene(box_problem("scene0001.yaml"));
  ASSERT_EQ(scene.obstacles().size(), 7u);
  // Can1: cylinder [height 0.14, radius 0.03]; base: box [0.7 0.7 0.04], both with their pose.
  const Obstacle& can = scene.obstacle("Can1");
  EXPECT_EQ(can.shape.type, Shape::Type::Cylinder);
  EXPECT_DOUBLE_EQ(can.shape.length, 0.14);
  EXPECT_DOUBLE_EQ(can.shape.radius, 0.03);
  EXPECT_NEAR(can.pose.translation().x(), 0.5408380884576693, 1e-12);
  EXPECT_NEAR(can.pose.translation().z(), -0.3762264457751537, 1e-12);
  const Quaternion q(can.pose.linear());
  EXPECT_NEAR(std::abs(q.z()), 0.07406844364750122, 1e-9);
  const Obstacle& base = scene.obstacle("base");
  EXPECT_EQ(base.shape.type, Shape::Type::Box);
  EXPECT_TRUE(base.shape.box_size.isApprox(Vector3(0.7, 0.7, 0.04)));
}

TEST(MoveItSceneYaml, ReadsEveryBenchmarkScene) {
  KINETIC_REQUIRE_MBM();
  int scenes = 0;
  for (const auto& folder : fs::directory_iterator(fs::path(test::mbm_panda_dir()) / "problems"))
    for (const auto& file : fs::directory_iterator(folder.path()))
      if (file.path().filename().string().rfind("scene", 0) == 0) {
        const PlanningScene scene = load_scene(file.path().string());
        EXPECT_FALSE(scene.obstacles().empty()) << file.path();
        ++scenes;
      }
  EXPECT_EQ(scenes, 700);
}

TEST(MoveItSceneYaml, ObjectPoseComposesWithPrimitivePoses) {
  const PlanningScene scene = moveit_scene_from_yaml(R"(
world:
  collision_objects:
    - id: shelf
      pose: {position: {x: 1, y: 0, z: 0}, orientation: {x: 0, y: 0, z: 0.7071067811865476, w: 0.7071067811865476}}
      primitives:
        - {type: box, dimensions: [0.1, 0.2, 0.3]}
        - {type: sphere, dimensions: [0.05]}
      primitive_poses:
        - {position: [0.5, 0, 0], orientation: [0, 0, 0, 1]}
        - {position: [0, 0, 1]}
)");
  ASSERT_EQ(scene.obstacles().size(), 2u);
  // The object turned 90 degrees about z: its local x is the world's y.
  EXPECT_TRUE(scene.obstacle("shelf").pose.translation().isApprox(Vector3(1.0, 0.5, 0.0), 1e-12));
  EXPECT_EQ(scene.obstacle("shelf/1").shape.type, Shape::Type::Sphere);
  EXPECT_TRUE(scene.obstacle("shelf/1").pose.translation().isApprox(Vector3(1.0, 0.0, 1.0), 1e-12));
}

TEST(MoveItSceneYaml, BadInputNamesTheLineAndField) {
  const std::string two_numbers = moveit_file_error_of([] {
    moveit_scene_from_yaml(
        "world:\n  collision_objects:\n    - id: a\n      primitives:\n        - type: box\n"
        "          dimensions: [1, 2]\n      primitive_poses:\n        - position: [0, 0, 0]\n",
        "s.yaml");
  });
  EXPECT_NE(two_numbers.find("s.yaml:6"), std::string::npos) << two_numbers;
  EXPECT_NE(
      two_numbers.find("primitives[0].dimensions: expected 3 numbers (x y z) for a box, got 2"),
      std::string::npos)
      << two_numbers;
  const std::string cone = moveit_file_error_of([] {
    moveit_scene_from_yaml(
        "world:\n  collision_objects:\n    - id: c\n      primitives: [{type: cone, dimensions: "
        "[1, 1]}]\n"
        "      primitive_poses: [{position: [0, 0, 0]}]\n",
        "s.yaml");
  });
  EXPECT_NE(cone.find("a cone has no Kinetic shape"), std::string::npos) << cone;
  const std::string missing_pose = moveit_file_error_of([] {
    moveit_scene_from_yaml(
        "world:\n  collision_objects:\n    - id: c\n      primitives: [{type: sphere, dimensions: "
        "[1]}]\n",
        "s.yaml");
  });
  EXPECT_NE(missing_pose.find("expected one pose per primitive (1), got 0"), std::string::npos)
      << missing_pose;
  const std::string malformed =
      moveit_file_error_of([] { moveit_scene_from_yaml("world: [1, 2", "s.yaml"); });
  EXPECT_NE(malformed.find("s.yaml:1:"), std::string::npos) << malformed;
  EXPECT_NE(malformed.find("malformed YAML"), std::string::npos) << malformed;
}

TEST(MoveItSceneYaml, ARequestGivenAsTheSceneIsSaidToBeOne) {
  KINETIC_REQUIRE_MBM();
  const std::string error =
      moveit_file_error_of([] { load_scene(box_problem("request0001.yaml")); });
  EXPECT_NE(error.find("this is not a MoveIt planning scene"), std::string::npos) << error;
  EXPECT_NE(error.find("this is a motion plan request"), std::string::npos) << error;
}

// A shape count of 1e10 was converted to int before it was checked (undefined behaviour, found
// by fuzzing, tests/fuzz), and a subframe count was never checked: both are whole numbers in range.
TEST(MoveItSceneText, CountsAreWholeNumbersInRangeBeforeTheyAreUsed) {
  std::string error = moveit_file_error_of([] {
    moveit_scene_from_text("s\n* ball\n1e10\nsphere\n0.1\n0 0 0\n0 0 0 1\n0 0 1 1\n.\n",
                           "huge.scene");
  });
  EXPECT_NE(error.find("huge.scene:3: expected object 'ball' shape count (a whole number from 1 to "
                       "10000), got 1e+10"),
            std::string::npos)
      << error;
  error = moveit_file_error_of([] {
    moveit_scene_from_text(
        "s\n* ball\n0 0 0\n0 0 0 1\n1\nsphere\n0.1\n0 0 0\n0 0 0 1\n0 0 1 1\n-2\n.\n",
        "subframes.scene");
  });
  EXPECT_NE(error.find("subframes.scene:11: expected object 'ball' subframe count (a whole number "
                       "from 0 to 10000), got -2"),
            std::string::npos)
      << error;
}

TEST(MoveItSceneText, ReadsTheNewAndTheOldFormat) {
  // New format (MoveIt 1.1+): object pose, shapes with pose and colour, subframes.
  const PlanningScene now = moveit_scene_from_text(
      "demo\n* table\n1 0 0\n0 0 0 1\n2\nbox\n1 0.8 0.05\n0 0 -0.025\n0 0 0 1\n0 0 0 0\n"
      "cylinder\n0.03 0.6\n0.2 0 0.3\n0 0 0 1\n1 0 0 1\n1\ncorner 0.5 0.4 0\n0 0 0 1\n.\n",
      "demo.scene");
  ASSERT_EQ(now.obstacles().size(), 2u);
  EXPECT_TRUE(now.obstacle("table").pose.translation().isApprox(Vector3(1, 0, -0.025)));
  EXPECT_TRUE(now.obstacle("table").shape.box_size.isApprox(Vector3(1, 0.8, 0.05)));
  EXPECT_DOUBLE_EQ(now.obstacle("table/1").shape.radius,
                   0.03);  // the text writes radius, then length
  EXPECT_DOUBLE_EQ(now.obstacle("table/1").shape.length, 0.6);
  EXPECT_TRUE(now.obstacle("table/1").pose.translation().isApprox(Vector3(1.2, 0, 0.3)));
  // Old format: no object pose, no subframes.
  const PlanningScene old = moveit_scene_from_text(
      "old\n* ball\n1\nsphere\n0.1\n0.5 0 1\n0 0 0 1\n0 0 1 1\n.\n", "old.scene");
  ASSERT_EQ(old.obstacles().size(), 1u);
  EXPECT_DOUBLE_EQ(old.obstacle("ball").shape.radius, 0.1);
  EXPECT_TRUE(old.obstacle("ball").pose.translation().isApprox(Vector3(0.5, 0, 1)));
}

TEST(MoveItSceneText, LoadsFromAFileAndNamesTheLineOfAnError) {
  const fs::path dir = fs::path(::testing::TempDir()) / "kinetic_moveit_scene_text";
  fs::create_directories(dir);
  const fs::path file = dir / "broken.scene";
  std::ofstream(file) << "s\n* box1\n0 0 0\n0 0 0 1\n1\nbox\n1 x 1\n";
  const std::string error = moveit_file_error_of([&] { load_scene(file.string()); });
  EXPECT_NE(error.find("broken.scene:7"), std::string::npos) << error;
  EXPECT_NE(error.find("got \"x\""), std::string::npos) << error;
  const std::string cone =
      moveit_file_error_of([] { moveit_scene_from_text("s\n* c\n1\ncone\n1 1\n", "c.scene"); });
  EXPECT_NE(cone.find("object 'c': a cone has no Kinetic shape"), std::string::npos) << cone;
}

TEST(MotionPlanRequestYaml, ReadsMotionBenchMakersRequest) {
  KINETIC_REQUIRE_MBM();
  const MotionPlanRequest request = load_motion_plan_request(box_problem("request0001.yaml"));
  EXPECT_EQ(request.group, "panda_arm");
  ASSERT_EQ(request.start.names.size(), 9u);
  EXPECT_EQ(request.start.names[3], "panda_joint4");
  EXPECT_DOUBLE_EQ(request.start.positions[3], -2.356);
  ASSERT_EQ(request.goal.names.size(), 7u);
  EXPECT_EQ(request.goal.names[2], "panda_joint3");  // "position" before "joint_name" in the file
  EXPECT_DOUBLE_EQ(request.goal.positions[2], 0.1941262264518609);
  EXPECT_DOUBLE_EQ(request.allowed_planning_time, 60.0);

  // On the benchmark's Panda: the arm's joints set, the fixed finger joints skipped.
  const fs::path robot = fs::path(test::mbm_panda_dir()) / "robot";
  const RobotModelPtr panda =
      load_robot_file((robot / "panda.urdf").string(), (robot / "panda.srdf").string());
  const JointVector goal =
      with_joint_values(*panda, panda->zero_configuration(), request.goal, "goal", false);
  EXPECT_DOUBLE_EQ(goal[panda->variable_index("panda_joint1")], 0.4534448383669427);
  const JointVector start =
      with_joint_values(*panda, panda->zero_configuration(), request.start, "start", true);
  EXPECT_DOUBLE_EQ(start[panda->variable_index("panda_joint6")], 1.571);
  const std::string strict = moveit_file_error_of(
      [&] { with_joint_values(*panda, start, request.start, "start_state", false); });
  EXPECT_NE(strict.find("no movable joint 'panda_finger_joint1'"), std::string::npos) << strict;
}

TEST(MotionPlanRequestYaml, APoseGoalOrASceneIsRefusedByName) {
  const std::string pose = moveit_file_error_of([] {
    motion_plan_request_from_yaml(
        "goal_constraints:\n  - position_constraints:\n      - link_name: tool\n", "r.yaml");
  });
  EXPECT_NE(pose.find("goal_constraints[0].position_constraints: only joint goals"),
            std::string::npos)
      << pose;
  const std::string scene =
      moveit_file_error_of([] { motion_plan_request_from_yaml("world: {}\n", "r.yaml"); });
  EXPECT_NE(scene.find("this is a planning scene"), std::string::npos) << scene;
}
