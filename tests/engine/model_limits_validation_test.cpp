// Robot files that loaded but failed later, far from the cause: a planning group listing a joint
// twice (every named pose shifted by one joint), solver = "opw" without [ik.opw] (failed at the
// first pose goal), a velocity limit of 1e-300 (failed as "trajectory sample 1: time is not
// finite"). Each is refused at load, naming the joint or key.
#include <gtest/gtest.h>

#include <string>

#include "engine/model/config_loader.hpp"
#include "engine/model/robot_loader.hpp"
#include "model_test_helpers.hpp"

namespace kinetic::test {
namespace {

std::string two_joint_urdf(const std::string& velocity = "1") {
  return R"(<robot name="arm"><link name="base"/><link name="upper"/><link name="tip"/>
    <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" velocity=")" +
         velocity + R"(" effort="1"/></joint>
    <joint name="j2" type="revolute"><parent link="upper"/><child link="tip"/><origin xyz="0 0 0.3"/><axis xyz="0 1 0"/>
      <limit lower="-1" upper="1" velocity="1" effort="1"/></joint></robot>)";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(ModelLimitsValidation, AGroupListingAJointTwiceIsRefusedNamingIt) {
  const Error error = expect_error(
      [] {
        load_robot_string(two_joint_urdf(), "",
                          "[planning_group.arm]\njoints = [\"j1\", \"j2\", \"j1\"]\n");
      },
      ErrorCode::InvalidValue);
  EXPECT_TRUE(contains(error.message(), "planning_group.arm.joints")) << error.message();
  EXPECT_TRUE(contains(error.message(), "lists joint 'j1' twice")) << error.message();
}

TEST(ModelLimitsValidation, OpwWithoutItsTableIsRefusedAtLoad) {
  const Error error =
      expect_error([] { parse_robot_config("[ik]\nsolver = \"opw\"\n", "kinetic.toml"); },
                   ErrorCode::InvalidValue);
  EXPECT_TRUE(contains(error.message(), "kinetic.toml:2")) << error.message();
  EXPECT_TRUE(contains(error.message(), "'ik.solver' is 'opw', which needs an [ik.opw] table"))
      << error.message();
}

TEST(ModelLimitsValidation, AVelocityLimitTooSmallToTimeIsRefusedNamingTheJoint) {
  const Error error =
      expect_error([] { load_robot_string(two_joint_urdf("1e-300")); }, ErrorCode::InvalidValue);
  EXPECT_TRUE(contains(error.message(), "joint 'j1' has velocity limit 1e-300")) << error.message();
  EXPECT_FALSE(error.hint().empty());
  // 0 stays "no limit" (a warning), and small real limits load.
  EXPECT_NO_THROW(load_robot_string(two_joint_urdf("0")));
  EXPECT_NO_THROW(load_robot_string(two_joint_urdf("0.001")));
}

TEST(ModelLimitsValidation, AHugeRobotNameIsRefusedQuotingAFewDozenCharacters) {
  const std::string name(10 * 1024 * 1024, 'r');
  std::string urdf = two_joint_urdf();
  urdf.replace(urdf.find("name=\"arm\""), 10, "name=\"" + name + "\"");
  const Error error = expect_error([&] { load_robot_string(urdf); }, ErrorCode::InvalidModel);
  EXPECT_LT(error.message().size() + error.hint().size(), 300u);
  EXPECT_TRUE(contains(error.message(), "the robot's name 'rrrr"))
      << error.message().substr(0, 300);
  EXPECT_TRUE(contains(error.message(), "is 10485760 characters long; names may have at most 256"))
      << error.message().substr(0, 300);
}

}  // namespace
}  // namespace kinetic::test
