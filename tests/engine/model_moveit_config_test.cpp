// MoveIt config packages of ../shared/robots opened as a MoveIt user opens them: the package folder
// (or its config/ folder, its .setup_assistant, its SRDF) brings the robot description its launch
// files use, the SRDF, joint_limits.yaml, kinematics.yaml and initial_positions.yaml, and the model
// says what came from where. Broken files are skipped with a warning naming file and line; the
// robot still opens. Skipped, with a message, when ../shared/robots is absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/group_planning.hpp"
#include "engine/model/moveit_config_package.hpp"
#include "engine/model/robot_companions.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model_test_helpers.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::HasSubstr;

struct ConfigPackage {
  std::string name;           // for the test's name
  std::string folder;         // under ../shared/robots
  std::string urdf_how;       // what the notes say the description is
  std::string srdf;           // config/... the SRDF taken
  std::string joint;          // a joint joint_limits.yaml sets ...
  double velocity = 0.0;      // ... to this velocity
  double acceleration = 0.0;  // ... and this acceleration
  std::string ik_group;       // the group kinematics.yaml sets the IK for (and planned here)
  bool initial_positions = false;
};

const std::vector<ConfigPackage>& config_packages() {
  static const std::vector<ConfigPackage> list = {
      {"abb_irb2400", "abb/abb_irb2400_moveit_config",
       "abb_irb2400_support/urdf/irb2400.urdf (.setup_assistant)", "config/abb_irb2400.srdf",
       "joint_4", 6.2832, 1.0, "manipulator", false},
      {"fanuc_m10ia", "fanuc/moveit_cfgs/fanuc_m10ia_moveit_config",
       "fanuc_m10ia_support/urdf/m10ia.xacro (.setup_assistant)", "config/fanuc_m10ia.srdf",
       "joint_1", 3.67, 0.734, "manipulator", false},
      {"fanuc_lrmate200id", "fanuc/moveit_cfgs/fanuc_lrmate200id_moveit_config",
       "fanuc_lrmate200id_support/urdf/lrmate200id.xacro (.setup_assistant)",
       "config/fanuc_lrmate200id.srdf", "joint_1", 7.85, 1.57, "manipulator", false},
      {"moveit_panda", "moveit_resources/panda_moveit_config", "config/panda.urdf.xacro",
       "config/panda.srdf", "panda_joint2", 2.175, 1.875, "panda_arm", true},
      {"moveit_dual_arm_panda", "moveit_resources/dual_arm_panda_moveit_config",
       "config/panda.urdf.xacro", "config/panda.srdf", "left_panda_joint1", 2.175, 3.75,
       "left_panda_arm", false},
      {"moveit_fanuc", "moveit_resources/fanuc_moveit_config", "config/fanuc.urdf.xacro",
       "config/fanuc.srdf", "joint_1", 3.67, 0.734, "manipulator", true},
      {"kortex_gen3_7dof_2f85",
       "ros2_kortex/kortex_moveit_config/kinova_gen3_7dof_robotiq_2f_85_moveit_config",
       "kortex_description/robots/gen3.xacro (.setup_assistant)", "config/gen3.srdf", "joint_1",
       1.3963, 8.6, "manipulator", true},
      {"kortex_gen3_6dof_2f85",
       "ros2_kortex/kortex_moveit_config/kinova_gen3_6dof_robotiq_2f_85_moveit_config",
       "kortex_description/robots/gen3.xacro (.setup_assistant)", "config/gen3.srdf", "joint_1",
       1.3963, 8.6, "manipulator", true},
      {"kortex_gen3_lite", "ros2_kortex/kortex_moveit_config/kinova_gen3_lite_moveit_config",
       "config/gen3_lite.urdf.xacro", "config/gen3_lite.srdf", "joint_2", 1.6, 0.43, "arm", true},
  };
  return list;
}

std::string shared(const std::string& relative) {
  return test::shared_robots_dir() + "/" + relative;
}

LoadOptions shared_options() {
  LoadOptions options;
  options.package_paths = {test::shared_robots_dir()};
  return options;
}

bool any_line(const std::vector<std::string>& lines, const std::vector<std::string>& parts) {
  for (const std::string& line : lines) {
    bool all = true;
    for (const std::string& part : parts) all = all && line.find(part) != std::string::npos;
    if (all) return true;
  }
  return false;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += "\n  " + line;
  return text;
}

class MoveItConfigPackageTest : public ::testing::TestWithParam<ConfigPackage> {};

TEST_P(MoveItConfigPackageTest, OpensWithItsFilesAndPlansInItsIkGroup) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const ConfigPackage& package = GetParam();
  RobotModelPtr model;
  ASSERT_NO_THROW(model = load_robot_file(shared(package.folder), "", "", shared_options()));
  const std::vector<std::string>& notes = model->source_notes();
  EXPECT_TRUE(any_line(notes, {"URDF: " + package.urdf_how})) << joined(notes);
  EXPECT_TRUE(any_line(notes, {"SRDF: " + package.srdf})) << joined(notes);
  EXPECT_TRUE(any_line(notes, {"joint limits: config/joint_limits.yaml"})) << joined(notes);
  EXPECT_TRUE(any_line(notes, {"IK: config/kinematics.yaml (group " + package.ik_group}))
      << joined(notes);
  EXPECT_EQ(any_line(notes, {"initial pose: config/initial_positions.yaml"}),
            package.initial_positions)
      << joined(notes);
  EXPECT_FALSE(model->semantic().groups.empty());
  EXPECT_EQ(model->config().ik.group, package.ik_group);
  // joint_limits.yaml replaces the URDF's velocity and gives the acceleration the URDF cannot.
  const JointLimits& limits = model->joint(package.joint).limits;
  EXPECT_NEAR(limits.velocity, package.velocity, 1e-9);
  if (package.acceleration > 0.0) {
    EXPECT_NEAR(limits.acceleration, package.acceleration, 1e-9);
  }
  // The package's files are watched with the description's.
  EXPECT_THAT(model->included_files(), Contains(HasSubstr("joint_limits.yaml")));
  if (package.initial_positions) {
    EXPECT_EQ(model->default_pose_name(), kInitialPositionsPose);
  }
  std::mt19937_64 random(7);
  EXPECT_EQ(plan_group(model, package.ik_group, random), "")
      << package.name << ": " << package.ik_group;
  // For the closing table: what was skipped, with which warning.
  std::cout << "| " << package.name << " | " << package.urdf_how << " | "
            << model->group_names().size() << " groups | " << model->load_warnings().size()
            << " warnings |\n";
  for (const std::string& warning : model->load_warnings()) std::cout << "    " << warning << "\n";
}

INSTANTIATE_TEST_SUITE_P(SharedRobots, MoveItConfigPackageTest,
                         ::testing::ValuesIn(config_packages()),
                         [](const auto& test) { return test.param.name; });

// The package folder, its config/ folder, its .setup_assistant and its SRDF open the same robot;
// companions are not searched for beside them (the package names its own).
TEST(MoveItConfigPackages, FolderConfigFolderSetupAssistantAndSrdfOpenTheSameRobot) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string folder =
      shared("ros2_kortex/kortex_moveit_config/kinova_gen3_7dof_robotiq_2f_85_moveit_config");
  const RobotModelPtr reference = load_robot_file(folder, "", "", shared_options());
  for (const std::string& path :
       {folder + "/config", folder + "/.setup_assistant", folder + "/config/gen3.srdf"}) {
    SCOPED_TRACE(path);
    ASSERT_TRUE(moveit_config_folder(path));
    EXPECT_EQ(fs::path(*moveit_config_folder(path)), fs::path(folder).lexically_normal());
    const RobotModelPtr model = load_robot_file(path, "", "", shared_options());
    EXPECT_EQ(model->variable_names(), reference->variable_names());
    EXPECT_EQ(model->group_names(), reference->group_names());
    EXPECT_FALSE(find_robot_companions(path).srdf.found());
  }
  // .setup_assistant's xacro arguments made the 7-DOF arm with its Robotiq gripper.
  EXPECT_GE(reference->find_joint("joint_7"), 0);
  EXPECT_GE(reference->find_joint("robotiq_85_left_knuckle_joint"), 0);
  // A URDF and a description package are not MoveIt configs.
  EXPECT_FALSE(moveit_config_folder(shared("moveit_resources/panda_description/urdf/panda.urdf")));
  EXPECT_FALSE(moveit_config_folder(shared("moveit_resources/panda_description")));
}

// A copy of moveit_resources' panda_moveit_config in a temporary folder, its files then broken
// one by one (its description is found through the package path).
class BrokenConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    KINETIC_REQUIRE_SHARED_ROBOTS();
    folder_ = fs::temp_directory_path() / ("kinetic_moveit_config_" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::copy(shared("moveit_resources/panda_moveit_config"), folder_, fs::copy_options::recursive);
    // The copy keeps the package's name: its own $(find) must reach the copy, not the original.
    options_ = shared_options();
    options_.package_paths.insert(options_.package_paths.begin(), folder_.parent_path().string());
  }
  void TearDown() override {
    if (!folder_.empty()) fs::remove_all(folder_);
  }
  void write(const std::string& relative, const std::string& text) const {
    std::ofstream(folder_ / relative, std::ios::trunc) << text;
  }
  RobotModelPtr load() const { return load_robot_file(folder_.string(), "", "", options_); }

  fs::path folder_;
  LoadOptions options_;
};

TEST_F(BrokenConfig, JointLimitsThatDoNotParseAreSkippedNamingFileAndLine) {
  write("config/joint_limits.yaml", "joint_limits:\n  panda_joint1:\n    max_velocity: [1, 2\n");
  RobotModelPtr model;
  ASSERT_NO_THROW(model = load());
  EXPECT_TRUE(
      any_line(model->load_warnings(), {"config/joint_limits.yaml:", "malformed YAML", "skipped"}))
      << joined(model->load_warnings());
  EXPECT_NEAR(model->joint("panda_joint1").limits.velocity, 2.3925, 1e-9);  // the URDF's
  EXPECT_FALSE(any_line(model->source_notes(), {"joint limits:"}));
}

TEST_F(BrokenConfig, UnknownJointsAndGroupsAreSkippedEntryByEntry) {
  write("config/joint_limits.yaml",
        "joint_limits:\n  panda_joint1:\n    has_velocity_limits: true\n    max_velocity: 1.5\n"
        "  elbow_of_another_robot:\n    has_velocity_limits: true\n    max_velocity: 1.0\n"
        "  panda_joint2:\n    has_velocity_limits: true\n    max_velocity: -3\n");
  write("config/kinematics.yaml",
        "gripper_of_another_robot:\n  kinematics_solver_timeout: 0.5\n"
        "panda_arm:\n  kinematics_solver_timeout: 0.02\n");
  // The package's xacro reads every arm joint from this file too (xacro.load_yaml).
  write("config/initial_positions.yaml",
        "initial_positions:\n  nobody: 3\n  panda_joint1: 0\n  panda_joint2: 0\n  panda_joint3: 0\n"
        "  panda_joint4: -1.5\n  panda_joint5: 0\n  panda_joint6: 1.5\n  panda_joint7: 0\n");
  const RobotModelPtr model = load();
  const std::vector<std::string>& warnings = model->load_warnings();
  EXPECT_TRUE(any_line(warnings, {"joint_limits.yaml:5", "'elbow_of_another_robot'", "skipped"}))
      << joined(warnings);
  EXPECT_TRUE(any_line(
      warnings, {"joint_limits.yaml:10", "max_velocity", "must be above zero", "panda_joint2"}))
      << joined(warnings);
  EXPECT_TRUE(
      any_line(warnings, {"kinematics.yaml:1", "'gripper_of_another_robot'", "not in the SRDF"}))
      << joined(warnings);
  EXPECT_TRUE(any_line(warnings, {"initial_positions.yaml:2", "'nobody'"})) << joined(warnings);
  EXPECT_NEAR(model->joint("panda_joint1").limits.velocity, 1.5, 1e-12);
  EXPECT_NEAR(model->joint("panda_joint2").limits.velocity, 2.3925, 1e-9);  // the URDF's, kept
  EXPECT_EQ(model->config().ik.group, "panda_arm");
  EXPECT_NEAR(model->config().ik.timeout_ms, 20.0, 1e-9);
  const JointVector initial = model->default_configuration();
  EXPECT_NEAR(initial[model->variable_index("panda_joint4")], -1.5, 1e-12);
}

TEST_F(BrokenConfig, ScalingAndPositionLimitsComeFromJointLimits) {
  write("config/joint_limits.yaml",
        "default_velocity_scaling_factor: 0.25\ndefault_acceleration_scaling_factor: 0.5\n"
        "joint_limits:\n  panda_joint1:\n    has_position_limits: true\n    min_position: -1.0\n"
        "    max_position: 1.25\n");
  const RobotModelPtr model = load();
  EXPECT_DOUBLE_EQ(model->config().default_velocity_scaling, 0.25);
  EXPECT_DOUBLE_EQ(model->config().default_acceleration_scaling, 0.5);
  EXPECT_DOUBLE_EQ(model->joint("panda_joint1").limits.lower, -1.0);
  EXPECT_DOUBLE_EQ(model->joint("panda_joint1").limits.upper, 1.25);
  EXPECT_TRUE(any_line(model->source_notes(), {"default scaling: velocity 0.25, acceleration 0.5"}))
      << joined(model->source_notes());
}

TEST_F(BrokenConfig, KineticTomlWinsOverTheYaml) {
  const fs::path toml = folder_ / "kinetic.toml";
  std::ofstream(toml) << "[limits.velocity]\npanda_joint1 = 0.5\n";
  const RobotModelPtr model = load_robot_file(folder_.string(), "", toml.string(), options_);
  EXPECT_DOUBLE_EQ(model->joint("panda_joint1").limits.velocity, 0.5);
  EXPECT_DOUBLE_EQ(model->joint("panda_joint1").limits.acceleration, 3.75);  // still the YAML's
  EXPECT_TRUE(any_line(model->source_notes(), {"kinetic.toml:", "its keys win"}));
}

TEST_F(BrokenConfig, AMissingDescriptionPackageIsNamedWithWhatToDo) {
  fs::remove(folder_ / "config/panda.urdf.xacro");  // then .setup_assistant's package is needed
  // A package no search finds, wherever this runs (a real one might sit beside the copy).
  write(".setup_assistant",
        "moveit_setup_assistant_config:\n  URDF:\n    package: kinetic_test_no_such_description\n"
        "    relative_path: urdf/panda.urdf\n  SRDF:\n    relative_path: config/panda.srdf\n");
  const Error error = test::expect_error([&] { load(); }, ErrorCode::FileNotFound);
  EXPECT_THAT(error.what(),
              HasSubstr("package 'kinetic_test_no_such_description', which was not found"));
  EXPECT_THAT(error.what(), HasSubstr("--package-path"));
}

// ROS-Industrial's IRB 6640 config names its description package by an older name
// (abb_irb6640_support; the corpus has abb_irb6600_support): said with the package it needs, as
// its own launch file would fail; the URDF opens with the config's SRDF (model_shared_packages).
TEST(MoveItConfigPackages, AConfigNamingAMissingPackageSaysWhich) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const Error error = test::expect_error(
      [] { load_robot_file(shared("abb/abb_irb6640_moveit_config"), "", "", shared_options()); },
      ErrorCode::FileNotFound);
  EXPECT_THAT(error.what(), HasSubstr("'abb_irb6640_moveit_config'"));
  EXPECT_THAT(error.what(), HasSubstr("package 'abb_irb6640_support', which was not found"));
}

TEST_F(BrokenConfig, NoSrdfIsNamedWithWhatToDo) {
  for (const char* file :
       {"config/panda.srdf", "config/panda_arm.srdf.xacro", "config/panda_arm_hand.srdf.xacro"})
    fs::remove(folder_ / file);
  // Its .setup_assistant still makes it a MoveIt config, whose SRDF is gone.
  ASSERT_TRUE(moveit_config_folder(folder_.string()));
  const Error error = test::expect_error([&] { load(); }, ErrorCode::FileNotFound);
  EXPECT_THAT(error.message(), HasSubstr("has no SRDF in"));
  EXPECT_THAT(error.hint(), HasSubstr("--srdf"));
  // Without .setup_assistant either, the folder is no MoveIt config (then a folder, refused as
  // such).
  fs::remove(folder_ / ".setup_assistant");
  EXPECT_FALSE(moveit_config_folder(folder_.string()));
}

TEST(MoveItConfigPackages, XacroArgumentsAreReadAsSetupAssistantWritesThem) {
  EXPECT_EQ(parse_xacro_arguments("gripper:=robotiq_2f_85   dof:=7 stray"),
            (std::map<std::string, std::string>{{"dof", "7"}, {"gripper", "robotiq_2f_85"}}));
  EXPECT_TRUE(parse_xacro_arguments("").empty());
  EXPECT_EQ(parse_xacro_arguments("empty:="), (std::map<std::string, std::string>{{"empty", ""}}));
}

}  // namespace
}  // namespace kinetic
