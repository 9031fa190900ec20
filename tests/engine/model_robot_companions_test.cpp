// find_robot_companions: the SRDF and kinetic.toml a URDF opened alone is loaded with. Each rule
// on its own in a temporary package, the order between them, what does not count (folders, names
// that would leave the folder, a URDF that cannot be read), and the real packages in
// ../shared/robots.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "engine/model/robot_companions.hpp"
#include "engine/model_test_helpers.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using test::TempDir;

std::string urdf_named(const std::string& robot) {
  return "<?xml version=\"1.0\"?>\n<robot name=\"" + robot + "\"><link name=\"a\"/></robot>\n";
}

// A package: pkg/urdf/ur5_robot.urdf, whose robot is called "ur5".
struct Package {
  TempDir dir;
  fs::path urdf = dir.write("pkg/urdf/ur5_robot.urdf", urdf_named("ur5"));
  fs::path file(const std::string& relative) const {
    return dir.write("pkg/" + relative, "<robot name=\"ur5\"/>");
  }
  RobotCompanions find() const { return find_robot_companions(urdf.string()); }
};

TEST(RobotCompanions, EachSrdfRuleFindsItsFile) {
  const struct {
    std::string file, relative, how;
  } rules[] = {
      {"urdf/ur5_robot.srdf", "ur5_robot.srdf", "found beside the URDF"},
      {"srdf/ur5_robot.srdf", "../srdf/ur5_robot.srdf", "found in the package's srdf folder"},
      {"config/ur5_robot.srdf", "../config/ur5_robot.srdf", "found in the package's config folder"},
      {"urdf/ur5.srdf", "ur5.srdf", "found beside the URDF, named after the robot 'ur5'"},
      {"srdf/ur5.srdf", "../srdf/ur5.srdf",
       "found in the package's srdf folder, named after the robot 'ur5'"},
      {"config/ur5.srdf", "../config/ur5.srdf",
       "found in the package's config folder, named after the robot 'ur5'"},
  };
  for (const auto& rule : rules) {
    SCOPED_TRACE(rule.file);
    const Package package;
    const fs::path srdf = package.file(rule.file);
    const RobotCompanions found = package.find();
    EXPECT_EQ(found.srdf.path, srdf.lexically_normal().string());
    EXPECT_EQ(found.srdf.relative, rule.relative);
    EXPECT_EQ(found.srdf.how, rule.how);
    EXPECT_FALSE(found.toml.found());
  }
}

// Beside, then ../srdf, then ../config, each first by the file's stem and only then by the robot's
// name: removing the winner each time gives the next rule.
TEST(RobotCompanions, SrdfRulesAreTriedInOrder) {
  const Package package;
  const char* order[] = {"urdf/ur5_robot.srdf", "srdf/ur5_robot.srdf", "config/ur5_robot.srdf",
                         "urdf/ur5.srdf",       "srdf/ur5.srdf",       "config/ur5.srdf"};
  for (const char* file : order) package.file(file);
  for (const char* file : order) {
    SCOPED_TRACE(file);
    const RobotCompanions found = package.find();
    EXPECT_EQ(found.srdf.path, (package.dir.path() / "pkg" / file).lexically_normal().string());
    fs::remove(package.dir.path() / "pkg" / file);
  }
  EXPECT_FALSE(package.find().srdf.found());
  EXPECT_EQ(package.find().srdf.how, "");
}

// Only regular files count: a folder called like the SRDF or kinetic.toml is passed over.
TEST(RobotCompanions, FoldersDoNotCount) {
  const Package package;
  fs::create_directories(package.dir.path() / "pkg/urdf/ur5_robot.srdf");
  fs::create_directories(package.dir.path() / "pkg/urdf/kinetic.toml");
  const fs::path srdf = package.file("srdf/ur5_robot.srdf");
  const RobotCompanions found = package.find();
  EXPECT_EQ(found.srdf.path, srdf.string());
  EXPECT_FALSE(found.toml.found());
}

// kinetic.toml is taken beside the URDF only: a package's root holds other robots' URDFs too, and
// a kinetic.toml naming joints a robot lacks would make it fail to load.
TEST(RobotCompanions, KineticTomlOnlyBesideTheUrdf) {
  const Package package;
  package.file("kinetic.toml");
  package.file("config/kinetic.toml");
  EXPECT_FALSE(package.find().toml.found());
  const fs::path toml = package.file("urdf/kinetic.toml");
  const RobotCompanions found = package.find();
  EXPECT_EQ(found.toml.path, toml.string());
  EXPECT_EQ(found.toml.relative, "kinetic.toml");
  EXPECT_EQ(found.toml.how, "found beside the URDF");
}

// A URDF that cannot be read for its name still gets the guesses by its file name; the name-based
// ones are left out (loading it says what is wrong).
TEST(RobotCompanions, MalformedOrMissingUrdfGivesNoNameBasedGuess) {
  const Package package;
  package.file("srdf/ur5.srdf");
  for (const std::string& text :
       {std::string("<robot name=\"ur5\""), std::string("<robot nam=\"ur5\"/>"),
        std::string("<robot name=\"ur5\" / >"), std::string("<rob name=\"ur5\"/>"),
        std::string("ur5"), std::string()}) {
    SCOPED_TRACE(text);
    package.dir.write("pkg/urdf/ur5_robot.urdf", text);
    EXPECT_FALSE(package.find().srdf.found());
  }
  fs::remove(package.urdf);
  EXPECT_FALSE(package.find().srdf.found());
  const fs::path by_stem = package.file("srdf/ur5_robot.srdf");
  EXPECT_EQ(package.find().srdf.path, by_stem.string());  // a URDF not there (yet): no throw
  EXPECT_FALSE(find_robot_companions("").srdf.found());
}

// A robot name is used as a file name in the same folders, never as a path out of them.
TEST(RobotCompanions, RobotNameThatIsAPathIsNotFollowed) {
  const Package package;
  package.dir.write("pkg/urdf/ur5_robot.urdf", urdf_named("../secret"));
  package.file("secret.srdf");
  EXPECT_FALSE(package.find().srdf.found());
}

TEST(RobotCompanions, RobotNameIsReadFromTheRootElement) {
  const TempDir dir;
  const auto name_of = [&](const std::string& text) {
    return urdf_robot_name(dir.write("robot.urdf", text).string());
  };
  EXPECT_EQ(name_of(urdf_named("arm")), "arm");
  EXPECT_EQ(
      name_of(
          "\xEF\xBB\xBF<?xml version='1.0'?>\n<!-- <robot name=\"comment\"> -->\n<!DOCTYPE robot>\n"
          "<?xml-stylesheet href='x'?>\n<robot\n  xmlns:xacro=\"http://ros.org/wiki/xacro\"\n"
          "  name = 'quoted'><link name=\"not_this\"/></robot>"),
      "quoted");
  EXPECT_EQ(name_of("<robot xmlns:a=\"x>y\" name=\"after_a_gt\">"), "after_a_gt");
  EXPECT_EQ(name_of("<robot><link name=\"link\"/></robot>"), "");  // the root has no name
  EXPECT_EQ(name_of("<robots name=\"plural\"/>"), "");
  EXPECT_EQ(name_of("<sdf><robot name=\"nested\"/></sdf>"), "");
  EXPECT_EQ(name_of("<!-- never closed <robot name=\"x\"/>"), "");
  EXPECT_EQ(name_of("<robot name=\"unterminated/>"), "");
  EXPECT_EQ(urdf_robot_name((dir.path() / "absent.urdf").string()), "");
}

// The real packages: SRDFs in ../srdf, by the URDF's stem or (ur5_robot.urdf) its robot's name.
TEST(RobotCompanions, SharedRobots) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const fs::path robots = fs::path(test::example_robot_data_dir()) / "robots";
  const struct {
    std::string urdf, srdf, how;
  } cases[] = {
      {"panda_description/urdf/panda.urdf", "../srdf/panda.srdf",
       "found in the package's srdf folder"},
      {"panda_description/urdf/panda_collision.urdf", "../srdf/panda.srdf",
       "found in the package's srdf folder, named after the robot 'panda'"},
      {"ur_description/urdf/ur5_gripper.urdf", "../srdf/ur5_gripper.srdf",
       "found in the package's srdf folder"},
      {"ur_description/urdf/ur5_robot.urdf", "../srdf/ur5.srdf",
       "found in the package's srdf folder, named after the robot 'ur5'"},
      {"kinova_description/robots/kinova.urdf", "../srdf/kinova.srdf",
       "found in the package's srdf folder"},
      {"ur_description/urdf/ur10_robot.urdf", "", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.urdf);
    const RobotCompanions found = find_robot_companions((robots / c.urdf).string());
    EXPECT_EQ(found.srdf.relative, c.srdf);
    EXPECT_EQ(found.srdf.how, c.how);
    if (!c.srdf.empty()) {
      EXPECT_EQ(found.srdf.path,
                ((robots / c.urdf).parent_path() / c.srdf).lexically_normal().string());
    }
    EXPECT_FALSE(found.toml.found());
  }
}

}  // namespace
}  // namespace kinetic
