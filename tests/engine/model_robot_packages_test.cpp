// The robot packages on a machine, as the Robot library lists them: every MoveIt config package
// and each whole robot of the description packages of ../shared/robots (macro files left out),
// and the crawl's rules on a workspace made here (ignored and hidden folders, a package found
// twice, the entry bound).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "engine/model/robot_packages.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::Not;

std::vector<std::string> labels(const std::vector<RobotPackageEntry>& entries) {
  std::vector<std::string> out;
  for (const RobotPackageEntry& entry : entries) out.push_back(entry.label);
  return out;
}

TEST(RobotPackages, ListsEveryMoveItConfigAndWholeRobotOfTheSharedRobots) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::vector<RobotPackageEntry> entries = find_robot_packages({test::shared_robots_dir()});
  const std::vector<std::string> names = labels(entries);
  for (const char* config :
       {"abb_irb2400_moveit_config", "abb_irb6640_moveit_config", "fanuc_m10ia_moveit_config",
        "fanuc_lrmate200id_moveit_config", "moveit_resources_panda_moveit_config",
        "dual_arm_panda_moveit_config", "moveit_resources_fanuc_moveit_config",
        "kinova_gen3_7dof_robotiq_2f_85_moveit_config",
        "kinova_gen3_6dof_robotiq_2f_85_moveit_config", "kinova_gen3_lite_moveit_config"})
    EXPECT_THAT(names, Contains(config));
  for (const RobotPackageEntry& entry : entries)
    if (entry.moveit_config) {
      EXPECT_EQ(entry.open, entry.folder);
    }
  EXPECT_THAT(names, Contains("moveit_resources_panda_description/urdf/panda.urdf"));
  EXPECT_THAT(names, Contains("kortex_description/robots/gen3.xacro"));
  EXPECT_THAT(names, Contains("abb_irb2400_support/urdf/irb2400.xacro"));
  EXPECT_THAT(names, Not(Contains("abb_irb2400_support/urdf/irb2400_macro.xacro")));  // macros only
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  // The expected/ expansions hold no package.xml: they are not packages.
  for (const RobotPackageEntry& entry : entries)
    EXPECT_EQ(entry.folder.find("/expected/"), std::string::npos);
}

class RobotPackageCrawl : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("kinetic_robot_packages_" + std::to_string(::getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override { fs::remove_all(root_); }
  // A description package NAME at `relative` with one whole robot and one macro file.
  void description(const std::string& relative, const std::string& name) const {
    const fs::path folder = root_ / relative;
    fs::create_directories(folder / "urdf");
    std::ofstream(folder / "package.xml")
        << "<package format=\"3\"><name>" << name << "</name></package>";
    std::ofstream(folder / "urdf" / "arm.urdf.xacro")
        << "<robot name=\"arm\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">"
           "<xacro:include filename=\"arm_macro.xacro\"/><xacro:if value=\"true\"><xacro:arm "
           "prefix=\"\"/></xacro:if>"
           "</robot>";
    std::ofstream(folder / "urdf" / "arm_macro.xacro")
        << "<robot xmlns:xacro=\"http://www.ros.org/wiki/xacro\"><xacro:macro name=\"arm\" "
           "params=\"prefix\">"
           "<link name=\"${prefix}base\"/></xacro:macro></robot>";
    std::ofstream(folder / "urdf" / "broken.urdf") << "<robot name=\"broken\"><link";
  }
  fs::path root_;
};

TEST_F(RobotPackageCrawl, FollowsTheWorkspaceRules) {
  description("src/arm_description", "arm_description");
  description("src/ignored/arm2_description", "arm2_description");
  std::ofstream(root_ / "src/ignored/COLCON_IGNORE");
  description("src/.hidden/arm3_description", "arm3_description");
  description("install/share/arm_description", "arm_description");  // the same package, installed
  description("src/arm_description/nested/inner_description",
              "inner_description");  // inside a package
  const std::vector<RobotPackageEntry> entries =
      find_robot_packages({(root_ / "src").string(), (root_ / "install/share").string()});
  EXPECT_EQ(labels(entries), std::vector<std::string>{"arm_description/urdf/arm.urdf.xacro"});
  EXPECT_FALSE(entries.front().moveit_config);
  EXPECT_EQ(fs::path(entries.front().open), root_ / "src/arm_description/urdf/arm.urdf.xacro");
  EXPECT_FALSE(is_whole_robot_file((root_ / "src/arm_description/urdf/arm_macro.xacro").string()));
  EXPECT_FALSE(is_whole_robot_file((root_ / "src/arm_description/urdf/broken.urdf").string()));
  EXPECT_FALSE(is_whole_robot_file((root_ / "no such file.urdf").string()));
}

TEST_F(RobotPackageCrawl, StopsAtTheEntryBound) {
  for (int i = 0; i < 5; ++i)
    description("src/arm" + std::to_string(i) + "_description", "arm" + std::to_string(i));
  EXPECT_EQ(find_robot_packages({(root_ / "src").string()}).size(), 5u);
  EXPECT_EQ(find_robot_packages({(root_ / "src").string()}, 3).size(), 3u);
  EXPECT_TRUE(find_robot_packages({(root_ / "nowhere").string()}).empty());
}

}  // namespace
}  // namespace kinetic
