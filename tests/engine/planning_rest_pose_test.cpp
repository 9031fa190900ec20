// rest_pose: where a robot starts when no pose is asked for. Its named rest pose (home, ready,
// default) as before; otherwise zeros, unless they fold the arm into itself and another named
// pose of the planning group is free: then the first such pose.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "engine/model/robot_loader.hpp"
#include "engine/planning/rest_pose.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

using ::testing::HasSubstr;

// A base plate and a 0.6 m bar on two joints. At zero the bar hangs down through the plate
// (base and bar are not adjacent: a turret with a small knob sits between them); at j2 = 1.57 it
// points sideways, at 3.1 up.
constexpr const char* kFoldingArm = R"(<robot name="folding">
  <link name="base"><collision><origin xyz="0 0 0.05"/><geometry><box size="0.3 0.3 0.1"/></geometry></collision></link>
  <link name="turret"><collision><origin xyz="0 0 0.2"/><geometry><sphere radius="0.02"/></geometry></collision></link>
  <link name="bar"><collision><origin xyz="0 0 -0.3"/><geometry><box size="0.05 0.05 0.6"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="turret"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" velocity="1" effort="1"/></joint>
  <joint name="j2" type="revolute"><parent link="turret"/><child link="bar"/><origin xyz="0 0 0.4"/>
    <axis xyz="0 1 0"/><limit lower="-3.2" upper="3.2" velocity="1" effort="1"/></joint>
</robot>)";

std::string srdf(const std::string& body) {
  return "<robot name=\"folding\"><group name=\"arm\"><chain base_link=\"base\" "
         "tip_link=\"bar\"/></group>" +
         body + "</robot>";
}
std::string state(const std::string& name, double j1, double j2) {
  return "<group_state name=\"" + name + "\" group=\"arm\"><joint name=\"j1\" value=\"" +
         std::to_string(j1) + "\"/><joint name=\"j2\" value=\"" + std::to_string(j2) +
         "\"/></group_state>";
}

RobotModelPtr folding_arm(const std::string& srdf_body, const std::string& toml = "") {
  return load_robot_string(kFoldingArm, srdf_body.empty() ? "" : srdf(srdf_body), toml);
}

TEST(RestPose, ZerosWhenTheRobotNamesNoPose) {
  const auto robot = folding_arm("");
  const RestPose rest = rest_pose(robot);
  EXPECT_EQ(rest.q, robot->zero_configuration());
  EXPECT_EQ(rest.pose, "");
  EXPECT_EQ(rest.zero_contacts, "");  // nothing to choose from: not even checked
  EXPECT_EQ(describe(rest), "zeros within the joint limits");
}

// Zeros fold the bar through the base: the first named pose that is within the limits, sets the
// whole planning group and is free is taken, in the order the poses are named.
TEST(RestPose, FirstFreeNamedPoseWhenZerosSelfCollide) {
  const std::string partial =
      R"(<group_state name="partial" group="arm"><joint name="j2" value="1.57"/></group_state>)";
  // "outside": j1 = 3.2 lies beyond its limit 3, and a turn back (-3.08) beyond -3.
  const auto robot =
      folding_arm(state("outside", 3.2, 1.57) + partial + state("through", 0.5, 0.1) +
                  state("sideways", 0.2, 1.57) + state("up", 0, 3.1));
  const RestPose rest = rest_pose(robot);
  EXPECT_EQ(rest.pose, "sideways");
  EXPECT_EQ(rest.q, robot->named_pose("sideways"));
  EXPECT_THAT(rest.zero_contacts, HasSubstr("'base'"));
  EXPECT_THAT(rest.zero_contacts, HasSubstr("'bar'"));
  EXPECT_THAT(describe(rest),
              HasSubstr("pose 'sideways' (zeros within the joint limits are in self-collision: "));
  // The same with the caller's checker.
  CollisionChecker checker(robot);
  const RestPose again = rest_pose(*robot, checker);
  EXPECT_EQ(again.pose, "sideways");
  EXPECT_EQ(again.q, rest.q);
}

// A kinetic.toml pose is a pose of the planning group by definition.
TEST(RestPose, KineticTomlPosesCount) {
  const auto robot = folding_arm("", "[named_poses]\nlifted = [0.0, 3.1]\n");
  const RestPose rest = rest_pose(robot);
  EXPECT_EQ(rest.pose, "lifted");
  EXPECT_DOUBLE_EQ(rest.q[1], 3.1);
}

// Free zeros stay the start, named poses or not (here the SRDF disables the base–bar pair).
TEST(RestPose, ZerosWhenTheyAreFree) {
  const auto robot = folding_arm(
      state("up", 0, 3.1) + R"(<disable_collisions link1="base" link2="bar" reason="Never"/>)");
  const RestPose rest = rest_pose(robot);
  EXPECT_EQ(rest.pose, "");
  EXPECT_EQ(rest.q, robot->zero_configuration());
  EXPECT_EQ(rest.zero_contacts, "");
}

// Every named pose collides too: zeros, and the words say so.
TEST(RestPose, ZerosWhenEveryNamedPoseCollides) {
  const auto robot = folding_arm(state("through", 0.5, 0.1) + state("also_through", 0.0, -0.1));
  const RestPose rest = rest_pose(robot);
  EXPECT_EQ(rest.pose, "");
  EXPECT_EQ(rest.q, robot->zero_configuration());
  EXPECT_THAT(describe(rest), HasSubstr("zeros within the joint limits, in self-collision ('"));
  EXPECT_THAT(describe(rest),
              HasSubstr("no named pose of the planning group within the limits is free either"));
}

// A named rest pose is taken as the robot's package gives it, as before (no check).
TEST(RestPose, NamedRestPoseWins) {
  const auto robot = folding_arm(state("up", 0, 3.1) + state("ready", 0.3, 0.2));
  const RestPose rest = rest_pose(robot);
  EXPECT_EQ(rest.pose, "ready");
  EXPECT_EQ(rest.q, robot->default_configuration());
  EXPECT_EQ(describe(rest), "pose 'ready'");
}

// The shared robots with their SRDFs: the Panda rests in "default"; the UR5 names no pose. The
// Kinova's zero pose (clamped into its limits) has link 4 touching link 6; its one state "arm_up"
// is free, and its joint 3, written -1.5707 against the URDF's limits [0.33, 5.95], is loaded a
// turn on (4.71, the same posture), so the arm starts there.
TEST(RestPose, SharedRobots) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string robots = test::example_robot_data_dir() + "/robots/";
  LoadOptions options;
  options.package_paths = {test::shared_robots_dir()};
  const auto panda = load_robot_file(robots + "panda_description/urdf/panda.urdf",
                                     robots + "panda_description/srdf/panda.srdf", "", options);
  EXPECT_EQ(rest_pose(panda).pose, "default");

  const auto kinova = load_robot_file(robots + "kinova_description/robots/kinova.urdf",
                                      robots + "kinova_description/srdf/kinova.srdf", "", options);
  CheckOptions self_only;
  self_only.scene = false;
  CollisionChecker checker(kinova);
  EXPECT_TRUE(checker.in_collision(kinova->zero_configuration(), self_only));
  const JointVector arm_up = kinova->named_pose("arm_up");
  EXPECT_FALSE(checker.in_collision(arm_up, self_only));
  EXPECT_TRUE(kinova->within_limits(arm_up));
  const RestPose kinova_rest = rest_pose(kinova);
  EXPECT_EQ(kinova_rest.pose, "arm_up");
  EXPECT_EQ(kinova_rest.q, arm_up);
  EXPECT_THAT(describe(kinova_rest), HasSubstr("are in self-collision"));

  const auto ur5 = load_robot_file(robots + "ur_description/urdf/ur5_gripper.urdf",
                                   robots + "ur_description/srdf/ur5_gripper.srdf", "", options);
  EXPECT_EQ(rest_pose(ur5).pose, "");
  EXPECT_EQ(rest_pose(ur5).q, ur5->zero_configuration());
}

}  // namespace
}  // namespace kinetic
