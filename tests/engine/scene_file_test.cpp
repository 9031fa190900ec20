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
  const auto dir =
      std::filesystem::path(::testing::TempDir()) / "kinetic_scene_test" / test->name();
  std::filesystem::create_directories(dir);
  return dir.string();
}

PlanningScene sample_scene() {
  PlanningScene scene;
  scene.add_obstacle("table", Shape::box({1.0, 0.8, 0.05}),
                     pose_from_xyz_rpy({0.5, 0, -0.03}, {0, 0, 0.2}));
  scene.add_obstacle("post", Shape::cylinder(0.03, 0.6),
                     pose_from_xyz_rpy({0.4, 0.3, 0.3}, {0.1, 0, 0}));
  scene.add_obstacle("ball", Shape::sphere(0.04), pose_from_xyz_rpy({0.3, -0.3, 0.2}, {0, 0, 0}));
  scene.add_obstacle("floor", Shape::half_space(Vector3::UnitZ(), -0.05), Pose::Identity());
  scene.add_attached({"tool",
                      "panda_hand",
                      Shape::box({0.02, 0.02, 0.1}),
                      pose_from_xyz_rpy({0, 0, 0.1}, {0, 0, 0}),
                      {"panda_leftfinger"}});
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

// The full text of the error scene_from_json() throws (message and hint), "" when it loads.
std::string load_error(const std::string& text) {
  try {
    scene_from_json(text, "broken.json");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// A scene with one obstacle; `shape` and `extra` (", \"key\": value" members) are spliced in.
std::string one_obstacle(const std::string& shape, const std::string& extra = "") {
  return R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a", "shape": )" +
         shape + R"(, "pose": {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]})" + extra +
         "}]}";
}

const std::string kBox = R"({"type": "box", "size": [1, 1, 1]})";

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
  // Saving what was loaded reproduces the file to the last digit (the quaternions' last bits
  // wandered on every save before saved_quaternion).
  const std::string first = scene_to_json(loaded);
  save_scene(loaded, path);
  EXPECT_EQ(scene_to_json(load_scene(path)), first);
  EXPECT_TRUE(
      load_scene(path).obstacle("table").pose.isApprox(scene.obstacle("table").pose, 1e-13));
  // No temporary files are left next to the scene.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(temp_dir()))
    files += entry.is_regular_file();
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

// Another kind of file (a job with its "steps", a session) is refused for its format, before
// its keys a scene does not have.
TEST(SceneFile, AnotherFormatIsSaidBeforeItsKeys) {
  expect_error(R"({"format": "kinetic-job", "version": 1, "comment": "", "steps": []})",
               "broken.json: format: expected \"kinetic-scene\", got \"kinetic-job\" (is this a "
               "scene file?)");
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
     "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})",
               "obstacles[0].shape");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "cone"}, "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})",
               "cone");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "box", "size": [1, 2]}, "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})",
               "obstacles[0].shape.size");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "box", "size": [1, 2, 3]}, "pose": {"position": [0,"x",0], "orientation": [0,0,0,1]}}]})",
               "obstacles[0].pose.position[1]");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "allowed": [["a"]]})", "allowed[0]");
  // Sizes and places past any robot cell (a typo'd exponent) overflow the checks' squared
  // distances: refused, saying the range.
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "sphere", "radius": 1e300},
     "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})",
               "sphere radius must be finite and in [0, 1000] m, got 1e+300");
  expect_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "box", "size": [1, 1, 1]},
     "pose": {"position": [0,1e20,0], "orientation": [0,0,0,1]}}]})",
               "obstacles[0].pose.position: is more than 10 km");
  try {
    load_scene("/no/such/scene.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::FileNotFound);
    EXPECT_NE(e.message().find("/no/such/scene.json"), std::string::npos);
  }
}

TEST(SceneFile, CheckedInExampleLoads) {
  const PlanningScene scene =
      load_scene(kinetic::test::test_source_dir() + "/data/scenes/table_and_shelf.json");
  EXPECT_TRUE(scene.has_obstacle("table"));
  EXPECT_TRUE(scene.has_obstacle("shelf_left"));
}

TEST(SceneFile, UnknownKeysAreErrorsWithADidYouMean) {
  // A typo at the top level used to load an empty scene.
  const std::string top =
      load_error(R"({"format": "kinetic-scene", "version": 1, "obstacels": []})");
  EXPECT_NE(
      top.find("broken.json: top level: unknown key \"obstacels\" (did you mean \"obstacles\"?)"),
      std::string::npos)
      << top;
  const std::string obstacle =
      load_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shpe": {"type": "box", "size": [1, 1, 1]}, "pose": {"position": [0,0,0], "orientation": [0,0,0,1]}}]})");
  EXPECT_NE(obstacle.find("obstacles[0]: unknown key \"shpe\" (did you mean \"shape\"?)"),
            std::string::npos)
      << obstacle;
  const std::string shape = load_error(one_obstacle(R"({"type": "box", "sise": [1, 1, 1]})"));
  EXPECT_NE(shape.find("obstacles[0].shape: unknown key \"sise\" (did you mean \"size\""),
            std::string::npos)
      << shape;
  const std::string pose =
      load_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [{"name": "a",
     "shape": {"type": "box", "size": [1, 1, 1]}, "pose": {"postion": [0,0,0], "orientation": [0,0,0,1]}}]})");
  EXPECT_NE(pose.find("obstacles[0].pose: unknown key \"postion\" (did you mean \"position\"?)"),
            std::string::npos)
      << pose;
  const std::string attached =
      load_error(R"({"format": "kinetic-scene", "version": 1, "attached": [{"name": "t",
     "link": "l", "shape": {"type": "sphere", "radius": 0.1}, "pose": {"position": [0,0,0], "orientation": [0,0,0,1]},
     "touch_link": ["x"]}]})");
  EXPECT_NE(
      attached.find("attached[0]: unknown key \"touch_link\" (did you mean \"touch_links\"?)"),
      std::string::npos)
      << attached;
  // Nothing close: the known keys are listed instead.
  const std::string colour = load_error(one_obstacle(kBox, R"(, "colour": "red")"));
  EXPECT_NE(
      colour.find(
          "obstacles[0]: unknown key \"colour\" (known keys: \"name\", \"shape\" and \"pose\")"),
      std::string::npos)
      << colour;
}

TEST(SceneFile, KeyOfAnotherShapeTypeIsAnError) {
  const std::string box =
      load_error(one_obstacle(R"({"type": "box", "size": [1, 1, 1], "radius": 0.1})"));
  EXPECT_NE(box.find("obstacles[0].shape: key \"radius\" does not apply to a box (a box takes "
                     "\"type\" and \"size\")"),
            std::string::npos)
      << box;
  const std::string sphere =
      load_error(one_obstacle(R"({"type": "sphere", "radius": 0.1, "length": 1})"));
  EXPECT_NE(
      sphere.find(
          "key \"length\" does not apply to a sphere (a sphere takes \"type\" and \"radius\")"),
      std::string::npos)
      << sphere;
  EXPECT_EQ(load_error(one_obstacle(R"({"type": "cylinder", "radius": 0.1, "length": 1})")), "");
}

TEST(SceneFile, DuplicateKeysAreErrorsNamingKeyAndPlace) {
  const std::string top =
      load_error(R"({"format": "kinetic-scene", "version": 1, "obstacles": [], "obstacles": []})");
  EXPECT_NE(top.find("broken.json: top level: duplicate key \"obstacles\""), std::string::npos)
      << top;
  // The path counts array elements, nested arrays included.
  const std::string nested =
      load_error(R"({"format": "kinetic-scene", "version": 1, "allowed": [["a", "b"]],
     "obstacles": [{"name": "a", "shape": {"type": "box", "size": [1, 1, 1]},
                    "pose": {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]}},
                   {"name": "b", "shape": {"type": "box", "size": [1, 1, 1], "size": [2, 2, 2]},
                    "pose": {"position": [0, 0, 0], "orientation": [0, 0, 0, 1]}}]})");
  EXPECT_NE(nested.find("obstacles[1].shape: duplicate key \"size\""), std::string::npos) << nested;
  const std::string pose =
      load_error(R"({"format": "kinetic-scene", "version": 1, "attached": [{"name": "t",
     "link": "l", "shape": {"type": "sphere", "radius": 0.1},
     "pose": {"position": [0,0,0], "orientation": [0,0,0,1], "position": [1,0,0]}}]})");
  EXPECT_NE(pose.find("attached[0].pose: duplicate key \"position\""), std::string::npos) << pose;
  // The same key in different objects is fine.
  EXPECT_EQ(load_error(scene_to_json(sample_scene())), "");
}

TEST(SceneFile, MalformedJsonMessageIsPlain) {
  for (const std::string& text :
       {std::string("{ \"format\": "), std::string(R"({"format": "kinetic-scene",
      "version": 1e400})")}) {
    try {
      scene_from_json(text, "broken.json");
      ADD_FAILURE() << "no error for " << text;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::ParseError);
      EXPECT_NE(e.message().find("broken.json: malformed JSON: "), std::string::npos)
          << e.message();
      EXPECT_EQ(e.message().find("json.exception"), std::string::npos) << e.message();
    }
  }
  const std::string syntax = load_error("{ \"format\": ");
  EXPECT_NE(syntax.find("malformed JSON: line 1, column 13: syntax error"), std::string::npos)
      << syntax;
  EXPECT_NE(load_error(R"({"version": 1e400})").find("number overflow"), std::string::npos);
}

TEST(SceneFile, NonUtf8NamesGiveACleanErrorOnSave) {
  PlanningScene scene;
  scene.add_obstacle("crate\xff", Shape::sphere(0.1), Pose::Identity());
  try {
    (void)scene_to_json(scene);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {  // not nlohmann's type_error
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    EXPECT_NE(e.message().find("not valid UTF-8"), std::string::npos) << e.message();
  }
}

TEST(SceneFile, OutOfRangeVersionsAreRefusedCleanly) {
  const std::string head = R"({"format": "kinetic-scene", "version": )";
  // get<int>() used to wrap 3000000000 to a negative version.
  for (const std::string version :
       {"3000000000", "18446744073709551615", "-9223372036854775808", "0", "2"}) {
    try {
      scene_from_json(head + version + "}", "broken.json");
      ADD_FAILURE() << "version " << version << " accepted";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::Unsupported);
      EXPECT_NE(e.message().find("version " + version + " is not supported"), std::string::npos)
          << e.message();
    }
  }
  EXPECT_NE(load_error(head + "1e30}").find("version: expected an integer"), std::string::npos);
  EXPECT_NE(load_error(head + "1.0}").find("version: expected an integer"), std::string::npos);
  EXPECT_EQ(load_error(head + "1}"), "");
}
