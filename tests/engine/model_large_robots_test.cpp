// Robots with more than 64 links (PR2 82, TIAGo 78, TIAGo dual 130) load, compute forward
// kinematics, check collisions and plan: past 64 links the whole-tree kernel keeps its scratch on
// the heap, which once lost the vector stores' alignment and crashed in Planner's constructor.
// The asan preset runs this with UBSan's alignment check.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/planner.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

// A dual-arm torso of `link_count` links: base -> torso, two 7-joint arms with box links, and the
// rest as fixed sensor links hanging off the torso in a fan (a tree, not a chain).
std::string dual_arm_tree_urdf(int link_count) {
  std::ostringstream urdf;
  urdf << "<robot name=\"tree" << link_count << "\">\n<link name=\"base\"/>\n";
  urdf << "<link name=\"torso\"><collision><geometry><box size=\"0.3 0.3 "
          "0.6\"/></geometry></collision></link>\n";
  urdf << "<joint name=\"lift\" type=\"prismatic\"><parent link=\"base\"/><child link=\"torso\"/>"
          "<origin xyz=\"0 0 0.3\"/><axis xyz=\"0 0 1\"/><limit lower=\"0\" upper=\"0.3\" "
          "effort=\"1\" velocity=\"0.1\"/></joint>\n";
  int links = 2;
  for (const char* side : {"left", "right"}) {
    const double y = std::string(side) == "left" ? 0.25 : -0.25;
    std::string parent = "torso";
    for (int j = 1; j <= 7; ++j, ++links) {
      const std::string link = std::string(side) + "_link" + std::to_string(j);
      urdf << "<link name=\"" << link
           << "\"><collision><origin xyz=\"0.08 0 0\"/><geometry><box size=\"0.12 0.05 0.05\"/>"
           << "</geometry></collision></link>\n";
      urdf << "<joint name=\"" << side << "_joint" << j << "\" type=\"revolute\"><parent link=\""
           << parent << "\"/><child link=\"" << link << "\"/><origin xyz=\""
           << (j == 1 ? 0.0 : 0.16) << " " << (j == 1 ? y : 0.0) << " " << (j == 1 ? 0.2 : 0.0)
           << "\" rpy=\"" << (j % 2 ? 1.5707963 : -1.5707963)
           << " 0 0\"/><axis xyz=\"0 0 1\"/><limit lower=\"-2.5\" upper=\"2.5\" effort=\"1\" "
              "velocity=\"1\"/></joint>\n";
      parent = link;
    }
  }
  for (int k = 0; links < link_count; ++k, ++links) {
    urdf << "<link name=\"sensor" << k << "\"/>\n<joint name=\"sensor" << k
         << "_mount\" type=\"fixed\"><parent link=\""
         << (k % 3 == 0 ? std::string("torso") : "sensor" + std::to_string(k - 1))
         << "\"/><child link=\"sensor" << k << "\"/><origin xyz=\"0 0 0.01\" rpy=\"0 0 " << 0.01 * k
         << "\"/></joint>\n";
  }
  urdf << "</robot>\n";
  return urdf.str();
}

constexpr const char* kLeftArmGroup = R"(format_version = 1
[planning_group.left_arm]
chain = ["torso", "left_link7"]
)";

TEST(LargeRobots, A130LinkTreeComputesFkChecksCollisionsAndPlans) {
  const RobotModelPtr model = load_robot_string(dual_arm_tree_urdf(130), "", kLeftArmGroup);
  ASSERT_EQ(model->links().size(), 130u);
  ForwardKinematics fk(*model);
  std::vector<Pose> poses;
  JointVector q = model->zero_configuration();
  q[model->variable_index("left_joint2")] = 0.4;  // any non-zero value exercises the rotations
  fk.compute(q, poses);
  ASSERT_EQ(poses.size(), 130u);
  for (const Pose& pose : poses) EXPECT_TRUE(pose.matrix().allFinite());

  Planner planner(model, {}, "left_arm");  // built the checker's solid plans (the crash site)
  const JointVector start = model->zero_configuration();
  JointVector goal = start;
  goal[model->variable_index("left_joint1")] = 1.0;
  goal[model->variable_index("left_joint4")] = -0.8;
  const PlanResult result = planner.plan(start, JointGoal{goal});
  ASSERT_GE(result.path.size(), 2u);
  EXPECT_LE((result.path.back() - goal).cwiseAbs().maxCoeff(), 1e-9);
}

TEST(LargeRobots, Pr2With82LinksLoadsAndChecksCollisions) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string urdf =
      test::shared_robots_dir() + "/moveit_resources/pr2_description/urdf/robot.xml";
  const RobotModelPtr model = load_robot_file(urdf);
  ASSERT_GT(model->links().size(), 64u);
  ForwardKinematics fk(*model);
  std::vector<Pose> poses;
  fk.compute(model->zero_configuration(), poses);
  for (const Pose& pose : poses) EXPECT_TRUE(pose.matrix().allFinite());
  CollisionChecker checker(model);  // builds the solid pair plans through the tree kernel
  const JointVector q = model->zero_configuration();
  EXPECT_FALSE(checker.in_collision(q) && checker.contacts(q).empty())
      << "a collision verdict must name its contacts";
}

// 2,000 moving links on one base (the adversarial run's robot: its pair tables would need 32 GB
// each): refused at once with what to do, not std::bad_alloc after 20 s; 200 such links load.
std::string star_urdf(int links) {
  std::ostringstream urdf;
  urdf << "<robot name=\"star\"><link name=\"base\"/>";
  for (int i = 0; i < links; ++i)
    urdf << "<link name=\"l" << i << "\"><collision><origin xyz=\"" << (i % 50) * 0.3 << " "
         << (i / 50) * 0.3
         << " 0\"/><geometry><box size=\"0.05 0.05 0.05\"/></geometry></collision></link><joint "
            "name=\"j"
         << i << "\" type=\"revolute\"><parent link=\"base\"/><child link=\"l" << i
         << "\"/><axis xyz=\"0 0 1\"/><limit lower=\"-1\" upper=\"1\" effort=\"1\" "
            "velocity=\"1\"/></joint>";
  urdf << "</robot>";
  return urdf.str();
}

TEST(LargeRobots, TwoThousandMovingLinksAreRefusedWithWhatToDo) {
  const RobotModelPtr model = load_robot_string(star_urdf(2000));
  ASSERT_EQ(model->dof(), 2000);
  try {
    CollisionChecker checker(model);
    FAIL() << "a checker of 2,000 links was made";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::InvalidModel);
    EXPECT_NE(error.message().find("2000 links with collision geometry: 1999000 pairs"),
              std::string::npos)
        << error.message();
    EXPECT_NE(error.hint().find("skip_pairs"), std::string::npos) << error.hint();
  }
  CollisionChecker checker(load_robot_string(star_urdf(200)));
  EXPECT_FALSE(checker.in_collision(checker.model().zero_configuration()));
}

}  // namespace
}  // namespace kinetic
