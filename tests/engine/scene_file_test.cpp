// Planning scene edits and scene files: round trip, atomic writes, malformed input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "engine/core/error.hpp"
#include "engine/scene/scene_file.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;

namespace {

std::string temp_dir() {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const auto dir = std::filesystem::path(::testing::TempDir()) / "kinetic_scene_test" / test->name();
  std::filesystem::create_directories(dir);
  return dir.string();
}

PlanningScene sample_scene() {
  PlanningScene scene;
  scene.add_obstacle("table", Shape::box({1.0, 0.8, 0.05}), pose_from_xyz_rpy({0.5, 0, -0.03}, {0, 0, 0.2}));
  scene.add_obstacle("post", Shape::cylinder(0.03, 0.6), pose_from_xyz_rpy({0.4, 0.3, 0.3}, {0.1, 0, 0}));
  scene.add_obstacle("ball", Shape::sphere(0.04), pose_from_xyz_rpy({0.3, -0.3, 0.2}, {0, 0, 0}));
  scene.add_obstacle("floor", Shape::half_space(Vector3::UnitZ(), -0.05), Pose::Identity());
  scene.add_attached({"tool", "panda_hand", Shape::box({0.02, 0.02, 0.1}),
                      pose_from_xyz_rpy({0, 0, 0.1}, {0, 0, 0}), {"panda_leftfinger"}});
  scene.allow("table", "panda_link0");
  scene.disallow("panda_link5", "panda_link7");
  return scene;
}

void expect_error(const std::string& text, const std::string& fragment) {
  try {
    scene_from_json(text, "broken.json");
    ADD_FAILURE() << "no error for: " << text;
  } catch (const Error& e) {
    EXPECT_NE(e.message().find("broken.json"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
  }
}

}  // namespace

TEST(PlanningScene, AddMoveRemoveAndNames) {
  PlanningScene scene;
  const auto r0 = scene.revision();
  scene.add_obstacle("box", Shape::box({0.1, 0.1, 0.1}), Pose::Identity());
  EXPECT_GT(scene.revision(), r0);
  EXPECT_THROW(scene.add_obstacle("box", Shape::sphere(0.1), Pose::Identity()), Error);
  Shape negative;
  negative.type = Shape::Type::Sphere;
  negative.radius = -1.0;
  EXPECT_THROW(scene.add_obstacle("neg", negative, Pose::Identity()), Error);
  scene.move_obstacle("box", pose_from_xyz_rpy({1, 2, 3}, {0, 0, 0}));
  EXPECT_DOUBLE_EQ(scene.obstacle("box").pose.translation().z(), 3.0);
  Pose bad = Pose::Identity();
  bad.translation().x() = std::nan("");
  EXPECT_THROW(scene.move_obstacle("box", bad), Error);
  scene.remove_obstacle("box");
  EXPECT_FALSE(scene.has_obstacle("box"));
  EXPECT_THROW(scene.remove_obstacle("box"), Error);
}

TEST(SceneFile, RoundTripIsExactAndStable) {
  const PlanningScene scene = sample_scene();
  const std::string path = temp_dir() + "/scene.json";
  save_scene(scene, path);
  const PlanningScene loaded = load_scene(path);
  ASSERT_EQ(loaded.obstacles().size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(loaded.obstacles()[i].name, scene.obstacles()[i].name);
    EXPECT_EQ(loaded.obstacles()[i].shape.type, scene.obstacles()[i].shape.type);
    EXPECT_TRUE(loaded.obstacles()[i].pose.isApprox(scene.obstacles()[i].pose, 1e-12));
  }
  EXPECT_DOUBLE_EQ(loaded.obstacle("post").shape.radius, 0.03);
  EXPECT_DOUBLE_EQ(loaded.obstacle("floor").shape.offset, -0.05);
  ASSERT_EQ(loaded.attached_objects().size(), 1u);
  EXPECT_EQ(loaded.attached("tool").link, "panda_hand");
  EXPECT_EQ(loaded.attached("tool").touch_links, std::vector<std::string>{"panda_leftfinger"});
  EXPECT_EQ(loaded.override_for("panda_link0", "table"), std::optional<bool>(true));
  EXPECT_EQ(loaded.override_for("panda_link7", "panda_link5"), std::optional<bool>(false));
  // Saving what was loaded reproduces the file (quaternions survive to the last digit or two).
  save_scene(loaded, path);
  EXPECT_TRUE(load_scene(path).obstacle("table").pose.isApprox(scene.obstacle("table").pose, 1e-15));
  // No temporary files are left next to the scene.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(temp_dir())) files += entry.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST(SceneFile, FailedWriteLeavesTheOldFile) {
  const std::string path = temp_dir() + "/keep.json";
  save_scene(sample_scene(), path);
  const std::string before = scene_to_json(load_scene(path));
  std::filesystem::create_directories(temp_dir());
  EXPECT_THROW(save_scene(PlanningScene{}, temp_dir() + "/no/such/folder/x.json"), Error);
  // Renaming onto a directory fails: the temporary file is removed and nothing else changes.
  std::filesystem::create_directories(temp_dir() + "/occupied.json");
  EXPECT_THROW(save_scene(PlanningScene{}, temp_dir() + "/occupied.json"), Error);
  EXPECT_EQ(scene_to_json(load_scene(path)), before);
  std::filesystem::remove_all(temp_dir() + "/occupied.json");
}

TEST(SceneFile, MalformedInputNamesFileAndProblem) {
  expect_error("{ \"format\": \"kinetic-scene\", ", "malformed JSON");
  expect_error("[]", "expected a JSON object");
  expect_error(R"({"format": "other", "version": 1})", "kinetic-scene");
  expect_error(R"({"format": "kinetic-scene", "version": 99})", "version 99");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a"}]})",
               "obstacles[0]: missing \"shape\"");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "sphere", "radius": -1},
     "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})", "obstacles[0].shape");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "cone"}, "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})", "cone");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "box", "size": [1, 2]}, "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})",
               "obstacles[0].shape.size");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "box", "size": [1, 2, 3]}, "pose": {"position": [0,"x",0], "orientation": [0,0,0,1]}}]})",
               "obstacles[0].pose.position[1]");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "allowed": [["a"]]})", "allowed[0]");
  try {
    load_scene("/no/such/scene.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::FileNotFound);
    EXPECT_NE(e.message().find("/no/such/scene.json"), std::string::npos);
  }
}

TEST(SceneFile, CheckedInExampleLoads) {
  const PlanningScene scene = load_scene(kinetic::test::test_source_dir() + "/data/scenes/table_and_shelf.json");
  EXPECT_TRUE(scene.has_obstacle("table"));
  EXPECT_TRUE(scene.has_obstacle("shelf_left"));
}
