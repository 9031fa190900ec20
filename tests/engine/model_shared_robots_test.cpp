// Every example-robot-data description under ../shared/robots loads (with its SRDF where there is
// one), with the expected number of joints and every mesh resolved to an existing file. Skipped,
// with a message, when ../shared/robots is absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "engine/core/atomic_file.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model_test_helpers.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// example-robot-data's URDFs (the other packages, xacro and MoveIt configs, are opened by
// model_shared_packages_test.cpp).
std::vector<fs::path> shared_urdfs() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(test::example_robot_data_dir()))
    if (entry.is_regular_file() && entry.path().extension() == ".urdf")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// <package>/robots/X/urdf/NAME.urdf -> <package>/robots/X/srdf/NAME.srdf, when it exists.
std::string srdf_for(const fs::path& urdf) {
  const fs::path srdf =
      urdf.parent_path().parent_path() / "srdf" / (urdf.stem().string() + ".srdf");
  return fs::exists(srdf) ? srdf.string() : std::string{};
}

LoadOptions shared_robot_options() {
  LoadOptions options;
  options.package_paths = {test::shared_robots_dir()};
  options.require_meshes = true;
  return options;
}

int expected_dof(const std::string& stem) {
  if (stem.rfind("panda", 0) == 0) return 8;   // 7 arm joints + finger 1 (finger 2 mimics it)
  if (stem.rfind("kinova", 0) == 0) return 6;  // 3 continuous + 3 revolute; fingers are fixed
  if (stem.rfind("ur", 0) == 0) return 6;
  return -1;
}

TEST(SharedRobots, EveryUrdfLoadsWithItsMeshesAndSrdf) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto files = shared_urdfs();
  ASSERT_GE(files.size(), 10u);
  int loaded = 0;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::string stem = file.stem().string();
    if (stem == "ur3") {
      // ur3.urdf is a stub (a nameless <robot> with no links): a clear typed error naming it.
      const Error e = test::expect_error(
          [&] { load_robot_file(file.string(), "", "", shared_robot_options()); },
          ErrorCode::ParseError);
      EXPECT_THAT(e.message(), HasSubstr(file.string() + ":6"));
      EXPECT_THAT(e.message(), HasSubstr("no 'name'"));
      continue;
    }
    RobotModelPtr model;
    const std::string srdf = srdf_for(file);
    ASSERT_NO_THROW(model = load_robot_file(file.string(), srdf, "", shared_robot_options()));
    ++loaded;
    EXPECT_EQ(model->dof(), expected_dof(stem)) << stem;
    EXPECT_EQ(model->source_path(), file.lexically_normal().string());
    int meshes = 0;
    for (const Link& link : model->links()) {
      auto check = [&](const Geometry& g) {
        if (g.type != Geometry::Type::Mesh) return;
        ++meshes;
        EXPECT_FALSE(g.mesh_path.empty()) << g.mesh_uri;
        EXPECT_TRUE(fs::is_regular_file(g.mesh_path)) << g.mesh_path;
        EXPECT_THAT(g.mesh_uri, HasSubstr("package://example-robot-data/robots/"));
      };
      for (const auto& v : link.visuals) check(v.geometry);
      for (const auto& c : link.collisions) check(c.geometry);
    }
    EXPECT_GT(meshes, 0);
    for (const std::string& w : model->load_warnings())
      EXPECT_THAT(w, ::testing::Not(HasSubstr("mesh")));
    // Named poses (SRDF group states) are full, finite and within limits.
    for (const std::string& pose : model->named_pose_names()) {
      const JointVector q = model->named_pose(pose);
      EXPECT_NO_THROW(model->validate(q)) << pose;
    }
  }
  EXPECT_GE(loaded, 10);
}

TEST(SharedRobots, MeshesResolveThroughTheFileAncestorsWithoutSearchPaths) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  // The URDF lives inside example-robot-data/, so its ancestors hold the package.
  LoadOptions options;
  options.require_meshes = true;
  const auto model =
      load_robot_file(test::example_robot_data_dir() + "/robots/ur_description/urdf/ur5_robot.urdf",
                      "", "", options);
  EXPECT_EQ(model->dof(), 6);
  EXPECT_TRUE(model->load_warnings().empty());
}

TEST(SharedRobots, PandaStructureAndSrdf) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string dir = test::example_robot_data_dir() + "/robots/panda_description";
  const auto model = load_robot_file(dir + "/urdf/panda.urdf", dir + "/srdf/panda.srdf", "",
                                     shared_robot_options());
  EXPECT_EQ(model->name(), "panda");
  EXPECT_EQ(model->dof(), 8);
  EXPECT_EQ(model->variable_names(),
            (std::vector<std::string>{"panda_joint1", "panda_joint2", "panda_joint3",
                                      "panda_joint4", "panda_joint5", "panda_joint6",
                                      "panda_joint7", "panda_finger_joint1"}));
  EXPECT_EQ(model->links()[model->root_link()].name, "panda_link0");
  const Joint& finger2 = model->joint("panda_finger_joint2");
  EXPECT_EQ(finger2.type, JointType::Prismatic);
  ASSERT_TRUE(finger2.mimic.has_value());
  EXPECT_EQ(finger2.mimic->joint, "panda_finger_joint1");
  EXPECT_EQ(finger2.mimic_source_variable, 7);
  EXPECT_DOUBLE_EQ(finger2.mimic->effective_multiplier, 1.0);
  EXPECT_DOUBLE_EQ(model->joint("panda_joint4").limits.upper, -0.0698);
  EXPECT_DOUBLE_EQ(model->joint("panda_joint1").limits.velocity, 2.175);

  const SemanticModel& s = model->semantic();
  ASSERT_EQ(s.groups.size(), 3u);
  EXPECT_EQ(s.groups[0].name, "arm");
  EXPECT_EQ(s.groups[0].joints.size(), 7u);
  EXPECT_EQ(s.groups[1].name, "hand");
  EXPECT_EQ(s.groups[2].subgroups, (std::vector<std::string>{"arm", "hand"}));
  ASSERT_EQ(s.group_states.size(), 1u);
  EXPECT_EQ(s.group_states[0].name, "default");
  EXPECT_EQ(s.group_states[0].group, "arm_and_hand");
  EXPECT_DOUBLE_EQ(s.group_states[0].joint_values.at("panda_joint4"), -2.35619);
  ASSERT_EQ(s.end_effectors.size(), 1u);
  EXPECT_EQ(s.end_effectors[0].parent_link, "panda_hand_tcp");
  EXPECT_EQ(s.disabled_collisions.size(), 35u);
  EXPECT_EQ(s.disabled_collisions[0].link1, "panda_hand");
  EXPECT_EQ(s.disabled_collisions[0].link2, "panda_leftfinger");
  EXPECT_EQ(s.disabled_collisions[0].reason, "Adjacent");

  EXPECT_EQ(model->group_variables("arm"), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(model->group_variables("arm_and_hand").size(), 8u);
  const JointVector home = model->named_pose("default");
  EXPECT_DOUBLE_EQ(home[3], -2.35619);
  EXPECT_DOUBLE_EQ(home[7], 0.001);
  EXPECT_TRUE(model->within_limits(home));
  // Its SRDF's rest pose is where it starts, not the upright zero pose (joint 4 clamped to -4°).
  EXPECT_EQ(model->default_pose_name(), "default");
  EXPECT_EQ(model->default_configuration(), home);
}

// MoveIt's SRDFs give the arm as a joint list and the tool as an end effector: with no kinetic.toml
// that is the chain IK and planning use, from the base to the end effector's link.
TEST(SharedRobots, PandaSrdfJointListIsAChainToTheEndEffector) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string dir = test::example_robot_data_dir() + "/robots/panda_description";
  const auto model = load_robot_file(dir + "/urdf/panda.urdf", dir + "/srdf/panda.srdf", "",
                                     shared_robot_options());
  const GroupChain arm = group_chain(*model);
  EXPECT_EQ(arm.group, "arm");
  EXPECT_EQ(arm.base_link, "panda_link0");
  EXPECT_EQ(arm.tip_link, "panda_hand_tcp");
  const KinematicChain chain = KinematicChain::from_config(model, "arm");
  EXPECT_EQ(chain.dof(), 7);
  EXPECT_EQ(chain.tip_link(), "panda_hand_tcp");
  // A group made of subgroups (arm and hand branch at the hand) is no single chain: refused,
  // naming the known groups.
  const Error e =
      test::expect_error([&] { group_chain(*model, "arm_and_hand"); }, ErrorCode::InvalidModel);
  EXPECT_THAT(e.message(), HasSubstr("known groups: arm, hand, arm_and_hand"));
}

TEST(SharedRobots, KinovaContinuousJointsAndSrdfQuirks) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string dir = test::example_robot_data_dir() + "/robots/kinova_description";
  const auto model = load_robot_file(dir + "/robots/kinova.urdf", dir + "/srdf/kinova.srdf", "",
                                     shared_robot_options());
  EXPECT_EQ(model->dof(), 6);
  int continuous = 0;
  for (int v = 0; v < model->dof(); ++v)
    continuous += model->variable_joint(v).type == JointType::Continuous;
  EXPECT_EQ(continuous, 3);
  EXPECT_FALSE(model->joint("j2s6s200_joint_1").limits.has_position_limits);
  // The SRDF lists joint 5 twice and its group state names no group: both are load warnings.
  EXPECT_EQ(model->semantic().groups[0].joints.size(), 5u);
  EXPECT_FALSE(model->load_warnings().empty());
  EXPECT_DOUBLE_EQ(model->named_pose("arm_up")[model->variable_index("j2s6s200_joint_2")], 2.618);
  // Its joint 3 is written -1.5707, outside the URDF's [0.3316, 5.9516]: the same angle a turn on
  // is taken, and the load says so.
  EXPECT_NEAR(model->named_pose("arm_up")[model->variable_index("j2s6s200_joint_3")],
              -1.5707 + 2 * M_PI, 1e-12);
  EXPECT_TRUE(model->within_limits(model->named_pose("arm_up")));
  const auto& warnings = model->load_warnings();
  EXPECT_TRUE(std::any_of(warnings.begin(), warnings.end(), [](const std::string& w) {
    return w.find(
               "group_state 'arm_up': joint 'j2s6s200_joint_3' = -1.5707 is outside its limits") !=
               std::string::npos &&
           w.find("the same angle a whole number of turns on") != std::string::npos;
  }));
  // "arm_up" is not a rest-pose name: the arm starts at zero within its limits.
  EXPECT_EQ(model->default_pose_name(), "");
  EXPECT_EQ(model->default_configuration(), model->zero_configuration());
}

// A bare URDF (no SRDF, no kinetic.toml) whose movable joints form one chain is planned as that
// chain: from the root link to the last joint's child (the UR5's wrist_3_link has two fixed
// children, ee_link and tool0, so the chain stops there). Joints that branch are refused, saying
// how to name the arm's chain.
TEST(SharedRobots, BareUrdfWithOneChainIsItsOwnGroup) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string urdf =
      read_text_file(test::example_robot_data_dir() + "/robots/ur_description/urdf/ur5_robot.urdf");
  const auto model = load_robot_string(urdf);
  ASSERT_TRUE(model->group_names().empty());
  const GroupChain arm = group_chain(*model);
  EXPECT_EQ(arm.group, "");
  EXPECT_EQ(arm.base_link, "world");
  EXPECT_EQ(arm.tip_link, "wrist_3_link");
  EXPECT_EQ(KinematicChain::from_config(model).dof(), 6);

  // One line of fixed links past the last joint is followed to its end.
  const auto tooled =
      load_robot_string(R"(<robot name="r"><link name="a"/><link name="b"/><link name="flange"/>
    <link name="tool"/><joint name="j" type="revolute"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" velocity="1" effort="1"/></joint>
    <joint name="f" type="fixed"><parent link="b"/><child link="flange"/></joint>
    <joint name="t" type="fixed"><parent link="flange"/><child link="tool"/><origin xyz="0 0 0.1"/></joint></robot>)");
  EXPECT_EQ(group_chain(*tooled).tip_link, "tool");

  const auto two_arms =
      load_robot_string(R"(<robot name="twins"><link name="base"/><link name="left"/>
    <link name="right"/><joint name="l" type="revolute"><parent link="base"/><child link="left"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint>
    <joint name="r" type="revolute"><parent link="base"/><child link="right"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" velocity="1" effort="1"/></joint></robot>)");
  const Error e = test::expect_error([&] { group_chain(*two_arms); }, ErrorCode::InvalidModel);
  EXPECT_THAT(e.message(),
              HasSubstr("defines no planning group, and its movable joints do not form one chain"));
  EXPECT_THAT(e.hint(), HasSubstr("[planning_group.NAME]"));
}

}  // namespace
}  // namespace kinetic
