// The robot packages of ../shared/robots as a MoveIt user has them (URDF, or ROS's own xacro
// expansion in expected/, with the package's SRDF): each opens as RViz with MoveIt opens it, plans
// a joint-space motion in every one of its groups, and matches KDL (kdl_parser on the same URDF)
// for every link on 1,000 configurations. Also the SRDF cases that used to refuse a whole robot: a
// planar virtual joint in a group (PR2), unknown names (skipped, said), groups that are not one
// chain (two arms), continuous joints without <limit>, and group goals that keep the other joints
// where they start. Skipped, with a message, when ../shared/robots is absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/collision/acm_generator.hpp"
#include "engine/core/error.hpp"
#include "engine/group_planning.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model_test_helpers.hpp"
#include "engine/planning/planner.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

struct PackageFiles {
  std::string name, urdf, srdf;  // paths under ../shared/robots ("" srdf: none)
  // The SRDF lists too few disable_collisions to plan with (moveit_resources' PR2, a test SRDF of
  // two pairs: the casters touch the base and the fingertips each other at every pose): the pairs
  // are generated first, as MoveIt's Setup Assistant does (kinetic.toml skip_pairs).
  bool generate_skip_pairs = false;
};

// One description and the package's own SRDF for each robot of the corpus; xacro descriptions as
// ROS's xacro expanded them (expected/), so this test does not depend on the xacro expander.
const std::vector<PackageFiles>& packages() {
  static const std::vector<PackageFiles> list = {
      {"erd_ur5", "example-robot-data/robots/ur_description/urdf/ur5_robot.urdf",
       "example-robot-data/robots/ur_description/srdf/ur5.srdf"},
      {"erd_ur5_gripper", "example-robot-data/robots/ur_description/urdf/ur5_gripper.urdf",
       "example-robot-data/robots/ur_description/srdf/ur5_gripper.srdf"},
      {"erd_panda", "example-robot-data/robots/panda_description/urdf/panda.urdf",
       "example-robot-data/robots/panda_description/srdf/panda.srdf"},
      {"erd_kinova", "example-robot-data/robots/kinova_description/robots/kinova.urdf",
       "example-robot-data/robots/kinova_description/srdf/kinova.srdf"},
      {"moveit_panda", "moveit_resources/panda_description/urdf/panda.urdf",
       "moveit_resources/panda_moveit_config/config/panda.srdf"},
      {"moveit_fanuc", "moveit_resources/fanuc_description/urdf/fanuc.urdf",
       "moveit_resources/fanuc_moveit_config/config/fanuc.srdf"},
      {"moveit_pr2", "moveit_resources/pr2_description/urdf/robot.xml",
       "moveit_resources/pr2_description/srdf/robot.xml", true},
      {"moveit_dual_arm_panda", "expected/dual_arm_panda_moveit_config/config/panda.urdf",
       "moveit_resources/dual_arm_panda_moveit_config/config/panda.srdf"},
      {"abb_irb2400", "abb/abb_irb2400_support/urdf/irb2400.urdf",
       "abb/abb_irb2400_moveit_config/config/abb_irb2400.srdf"},
      {"abb_irb6640", "abb/abb_irb6600_support/urdf/irb6640.urdf",
       "abb/abb_irb6640_moveit_config/config/abb_irb6640_185_280.srdf"},
      {"fanuc_lrmate200id", "expected/fanuc_lrmate200id_support/urdf/lrmate200id.urdf",
       "fanuc/moveit_cfgs/fanuc_lrmate200id_moveit_config/config/fanuc_lrmate200id.srdf"},
      {"fanuc_m10ia", "expected/fanuc_m10ia_support/urdf/m10ia.urdf",
       "fanuc/moveit_cfgs/fanuc_m10ia_moveit_config/config/fanuc_m10ia.srdf"},
      {"fanuc_cr7ia", "expected/fanuc_cr7ia_support/urdf/cr7ia.urdf", ""},
      {"kortex_gen3_7dof_2f85",
       "expected/kortex_description/robots/kinova--gen3-dof7-robotiq_2f_85.urdf",
       "ros2_kortex/kortex_moveit_config/kinova_gen3_7dof_robotiq_2f_85_moveit_config/config/"
       "gen3.srdf"},
      {"kortex_gen3_6dof_2f85", "expected/kortex_description/robots/gen3--dof6-robotiq_2f_85.urdf",
       "ros2_kortex/kortex_moveit_config/kinova_gen3_6dof_robotiq_2f_85_moveit_config/config/"
       "gen3.srdf"},
      {"kortex_gen3_lite", "expected/kinova_gen3_lite_moveit_config/config/gen3_lite.urdf",
       "ros2_kortex/kortex_moveit_config/kinova_gen3_lite_moveit_config/config/gen3_lite.srdf"},
  };
  return list;
}

std::string shared_package_file(const std::string& relative) {
  return relative.empty() ? std::string() : test::shared_robots_dir() + "/" + relative;
}

LoadOptions shared_package_options() {
  LoadOptions options;
  options.package_paths = {test::shared_robots_dir()};
  return options;
}

RobotModelPtr load_uncached(const PackageFiles& package) {
  RobotModelPtr model =
      load_robot_file(shared_package_file(package.urdf), shared_package_file(package.srdf), "",
                      shared_package_options());
  if (!package.generate_skip_pairs) return model;
  AcmGeneratorOptions options;
  options.samples = test::cases(300, 100);  // (PR2's 82 links: seconds under the sanitizers)
  const fs::path toml = fs::temp_directory_path() / ("kinetic_packages_" + package.name + "_" +
                                                     std::to_string(::getpid()) + ".toml");
  std::ofstream(toml) << skip_pairs_toml(generate_allowed_collisions(model, options));
  model = load_robot_file(shared_package_file(package.urdf), shared_package_file(package.srdf),
                          toml.string(), shared_package_options());
  fs::remove(toml);
  return model;
}

// Each package loaded once for all the tests here (a model is immutable; PR2's pairs take seconds).
RobotModelPtr load(const PackageFiles& package) {
  static std::map<std::string, RobotModelPtr> loaded;
  RobotModelPtr& model = loaded[package.name];
  if (!model) model = load_uncached(package);
  return model;
}

const PackageFiles& package_named(const std::string& name) {
  const auto& list = packages();
  return *std::find_if(list.begin(), list.end(),
                       [&](const PackageFiles& p) { return p.name == name; });
}

std::string shared_package_text(const std::string& path) {
  std::ifstream file(path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

bool any_warning(const RobotModel& model, const std::vector<std::string>& parts) {
  return std::any_of(
      model.load_warnings().begin(), model.load_warnings().end(), [&](const std::string& w) {
        return std::all_of(parts.begin(), parts.end(),
                           [&](const std::string& p) { return w.find(p) != std::string::npos; });
      });
}

// --- every package ------------------------------------------------------------------------------

class SharedPackage : public ::testing::TestWithParam<PackageFiles> {};

TEST_P(SharedPackage, OpensAndPlansAJointMotionInEveryGroup) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const PackageFiles& package = GetParam();
  RobotModelPtr model;
  ASSERT_NO_THROW(model = load(package)) << package.urdf;
  std::vector<std::string> groups = model->group_names();
  if (groups.empty()) groups.push_back("");  // a bare URDF: its one chain
  std::mt19937_64 random(3);
  std::string planned, failed;
  for (const std::string& group : groups) {
    SCOPED_TRACE("group '" + group + "'");
    std::string why;
    try {
      why = plan_group(model, group, random);
    } catch (const Error& error) {
      why = error.message();
    }
    // A group of only passive or mimic joints has nothing to plan (a gripper's linkage): said, not
    // failed.
    if (why.empty() || why == "no joint to plan")
      (why.empty() ? planned : failed) +=
          (group.empty() ? "(chain)" : group) + (why.empty() ? " " : "(nothing to plan) ");
    else
      ADD_FAILURE() << why;
  }
  std::vector<std::string> srdf_warnings;
  for (const std::string& w : model->load_warnings())
    if (w.find(".srdf") != std::string::npos || w.find("srdf/") != std::string::npos ||
        w.find("velocity limit") != std::string::npos)
      srdf_warnings.push_back(w.rfind(test::shared_robots_dir(), 0) == 0
                                  ? w.substr(test::shared_robots_dir().size() + 1)
                                  : w);
  std::cout << "| " << package.name << " | yes | " << planned << failed << "| "
            << srdf_warnings.size() << (srdf_warnings.empty() ? "" : ": " + srdf_warnings.front())
            << " |\n";
}

// Every link against KDL on the same URDF, 1,000 configurations (100 under the sanitizers) (a
// planar base's joints included: links are compared in the URDF root's frame).
TEST_P(SharedPackage, EveryLinkMatchesKdl) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const PackageFiles& package = GetParam();
  const RobotModelPtr model = load(package);
  KDL::Tree tree;
  ASSERT_TRUE(
      kdl_parser::treeFromString(shared_package_text(shared_package_file(package.urdf)), tree))
      << package.urdf;
  const std::string root = tree.getRootSegment()->first;
  const int root_link = model->link_index(root);
  const ForwardKinematics fk(*model);

  struct LinkChain {
    int link;
    KDL::Chain chain;
    std::vector<int> sources;  // per KDL joint: its model joint
  };
  std::vector<LinkChain> chains;
  for (const auto& [name, element] : tree.getSegments()) {
    if (name == root) continue;
    LinkChain entry{model->link_index(name), {}, {}};
    ASSERT_TRUE(tree.getChain(root, name, entry.chain)) << name;
    for (const auto& segment : entry.chain.segments)
      if (segment.getJoint().getType() != KDL::Joint::None)
        entry.sources.push_back(model->joint_index(segment.getJoint().getName()));
    chains.push_back(std::move(entry));
  }
  std::vector<int> all(static_cast<std::size_t>(model->dof()));
  for (int v = 0; v < model->dof(); ++v) all[static_cast<std::size_t>(v)] = v;

  std::mt19937_64 random(11);
  std::vector<Pose> poses;
  double worst_position = 0, worst_rotation = 0;
  for (int n = 0; n < test::cases(1000, 100); ++n) {
    const JointVector q = random_in_group(*model, all, model->zero_configuration(), random);
    fk.compute(q, poses);
    const Pose root_inverse = poses[static_cast<std::size_t>(root_link)].inverse();
    for (const LinkChain& entry : chains) {
      KDL::JntArray values(entry.chain.getNrOfJoints());
      for (std::size_t k = 0; k < entry.sources.size(); ++k) {
        const Joint& joint = model->joints()[static_cast<std::size_t>(entry.sources[k])];
        values(static_cast<unsigned>(k)) =
            joint.is_active() ? q[joint.variable_index]
            : joint.mimic     ? joint.mimic->effective_multiplier * q[joint.mimic_source_variable] +
                                joint.mimic->effective_offset
                          : 0.0;
      }
      KDL::ChainFkSolverPos_recursive kdl_fk(entry.chain);
      KDL::Frame expected;
      ASSERT_GE(kdl_fk.JntToCart(values, expected), 0);
      const Pose ours = root_inverse * poses[static_cast<std::size_t>(entry.link)];
      Eigen::Matrix3d theirs;
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) theirs(r, c) = expected.M(r, c);
      worst_position = std::max(
          worst_position,
          (ours.translation() - Vector3(expected.p.x(), expected.p.y(), expected.p.z())).norm());
      worst_rotation =
          std::max(worst_rotation,
                   Eigen::AngleAxisd(Eigen::Matrix3d(ours.linear().transpose() * theirs)).angle());
    }
  }
  EXPECT_LE(worst_position, 1e-9) << package.name;
  EXPECT_LE(worst_rotation, 1e-9) << package.name;
}

INSTANTIATE_TEST_SUITE_P(SharedRobots, SharedPackage, ::testing::ValuesIn(packages()),
                         [](const auto& package_info) { return package_info.param.name; });

// --- the cases that refused a whole robot -------------------------------------------------------

// PR2's MoveIt SRDF puts the robot on a planar virtual joint and plans it as the group `base`: the
// base becomes three planned joints (MoveIt's world_joint/x, /y, /theta) above the URDF's root.
TEST(SharedPackages, Pr2PlanarVirtualJointIsAPlannedBase) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  RobotModelPtr model;
  ASSERT_NO_THROW(model = load(package_named("moveit_pr2")));
  EXPECT_EQ(model->links()[model->root_link()].name, "odom_combined");
  EXPECT_EQ(model->joint("world_joint/x").type, JointType::Prismatic);
  EXPECT_EQ(model->joint("world_joint/theta").type, JointType::Continuous);
  EXPECT_EQ(model->links()[model->joint("world_joint/theta").child_link].name, "base_footprint");
  const std::vector<int> base = model->group_variables("base");
  ASSERT_EQ(base.size(), 3u);
  EXPECT_EQ(model->variable_joint(base[0]).name, "world_joint/x");
  EXPECT_EQ(model->variable_joint(base[2]).name, "world_joint/theta");
  EXPECT_TRUE(
      any_warning(*model, {"robot.xml:5: planar virtual_joint 'world_joint'", "group 'base'"}));
  // whole_body = arms + base + torso.
  const std::vector<int> whole = model->group_variables("whole_body");
  EXPECT_EQ(whole.size(), base.size() + model->group_variables("arms").size() + 1);

  std::mt19937_64 random(5);
  EXPECT_EQ(plan_group(model, "base", random), "");
  EXPECT_EQ(plan_group(model, "whole_body", random), "");
}

// A floating virtual joint that a group names is held fixed, said; the group plans its other
// joints.
TEST(SharedPackages, FloatingVirtualJointInAGroupIsHeldFixed) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string urdf =
      shared_package_file("moveit_resources/panda_description/urdf/panda.urdf");
  std::string srdf = shared_package_text(
      shared_package_file("moveit_resources/panda_moveit_config/config/panda.srdf"));
  srdf.insert(srdf.rfind("</robot>"),
              "<group name=\"floating_arm\"><joint name=\"virtual_joint\"/><group "
              "name=\"panda_arm\"/></group>\n");
  test::TempDir dir;
  const fs::path file = dir.path() / "panda.srdf";
  std::ofstream(file) << srdf;
  const RobotModelPtr model = load_robot_file(urdf, file.string(), "", shared_package_options());
  EXPECT_EQ(model->group_variables("floating_arm"), model->group_variables("panda_arm"));
  EXPECT_TRUE(any_warning(
      *model, {"floating virtual_joint 'virtual_joint'", "held fixed", "floating_arm"}));
}

// One unknown name skips its element, with a warning naming the file, line and name, as srdfdom
// does; the rest of the SRDF stays. The dual-arm Panda's end effectors name groups it never
// defines.
TEST(SharedPackages, UnknownNamesSkipTheirElementNotTheSrdf) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  RobotModelPtr model;
  ASSERT_NO_THROW(model = load(package_named("moveit_dual_arm_panda")));
  EXPECT_EQ(model->group_names(), (std::vector<std::string>{"left_panda_arm", "right_panda_arm"}));
  EXPECT_TRUE(model->semantic().end_effectors.empty());
  EXPECT_TRUE(any_warning(*model, {"panda.srdf:42: group 'left_hand' is not defined in the SRDF",
                                   "end_effector 'left_hand' is skipped"}));
  EXPECT_FALSE(model->semantic().disabled_collisions.empty());

  // Talos-like: a group state's value for a joint the robot lacks, a stray link and joint in a
  // group.
  test::TempDir dir;
  const fs::path file = dir.write(
      "talos_like.srdf",
      "<robot name=\"panda\">\n"
      "<group name=\"arm\"><chain base_link=\"panda_link0\" tip_link=\"panda_link8\"/>\n"
      "<joint name=\"torso_1_joint\"/><link name=\"torso_2_link\"/></group>\n"
      "<group_state name=\"half_sitting\" group=\"arm\">\n"
      "<joint name=\"root_joint\" value=\"0 0 1.02 0 0 0 1\"/>\n"
      "<joint name=\"panda_joint4\" value=\"-1.5\"/>\n"
      "</group_state>\n"
      "<disable_collisions link1=\"panda_link0\" link2=\"leg_left_1_link\" reason=\"Never\"/>\n"
      "</robot>\n");
  const RobotModelPtr panda =
      load_robot_file(shared_package_file("moveit_resources/panda_description/urdf/panda.urdf"),
                      file.string(), "", shared_package_options());
  EXPECT_EQ(panda->group_variables("arm").size(), 7u);
  EXPECT_DOUBLE_EQ(panda->named_pose("half_sitting")[panda->variable_index("panda_joint4")], -1.5);
  EXPECT_TRUE(any_warning(*panda, {"talos_like.srdf:5: joint 'root_joint' is not in robot 'panda'",
                                   "its value in group_state 'half_sitting' is skipped"}));
  EXPECT_TRUE(any_warning(*panda, {"talos_like.srdf:3: joint 'torso_1_joint'",
                                   "this <joint> of group 'arm' is skipped"}));
  EXPECT_TRUE(any_warning(
      *panda, {"talos_like.srdf:3: link 'torso_2_link'", "this <link> of group 'arm' is skipped"}));
  EXPECT_TRUE(any_warning(
      *panda, {"talos_like.srdf:8: link 'leg_left_1_link'", "disable_collisions pair is skipped"}));
  EXPECT_TRUE(panda->semantic().disabled_collisions.empty());
}

// The dual-arm Panda's two arms as one group (MoveIt configs call it both_arms), with the hands as
// end effectors: joint goals for the whole group, pose goals for each hand; no single TCP.
TEST(SharedPackages, DualArmGroupPlansJointGoalsAndEachHandsPose) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  std::string srdf = shared_package_text(
      shared_package_file("moveit_resources/dual_arm_panda_moveit_config/config/panda.srdf"));
  srdf.insert(srdf.rfind("</robot>"),
              "<group name=\"both_arms\"><group name=\"left_panda_arm\"/><group "
              "name=\"right_panda_arm\"/></group>\n"
              "<group name=\"left_hand\"><link name=\"left_panda_hand\"/><joint "
              "name=\"left_panda_finger_joint1\"/></group>\n"
              "<group name=\"right_hand\"><link name=\"right_panda_hand\"/><joint "
              "name=\"right_panda_finger_joint1\"/></group>\n");
  test::TempDir dir;
  const fs::path file = dir.path() / "panda.srdf";
  std::ofstream(file) << srdf;
  const RobotModelPtr model = load_robot_file(
      shared_package_file("expected/dual_arm_panda_moveit_config/config/panda.urdf"), file.string(),
      "", shared_package_options());
  ASSERT_EQ(model->semantic().end_effectors.size(), 2u);

  Planner planner(model, PlanningScene(), "both_arms");
  EXPECT_EQ(planner.group_variables().size(), 14u);
  EXPECT_FALSE(planner.has_chain());
  EXPECT_EQ(planner.end_effectors(), (std::vector<std::string>{"left_hand", "right_hand"}));
  const Error e = test::expect_error([&] { (void)planner.chain(); }, ErrorCode::Unsupported);
  EXPECT_THAT(e.message(), HasSubstr("planning group 'both_arms' is not one chain"));
  EXPECT_THAT(e.hint(), HasSubstr("left_hand, right_hand"));

  std::mt19937_64 random(9);
  EXPECT_EQ(plan_group(model, "both_arms", random), "");

  // A pose goal for the left hand: reached by the left arm, the right arm stays where it starts.
  JointVector start = model->named_pose("ready", model->zero_configuration(), "left_panda_arm");
  start = model->named_pose("ready", start, "right_panda_arm");
  ASSERT_FALSE(planner.checker().in_collision(start));
  JointVector moved = start;
  moved[model->variable_index("left_panda_joint1")] += 0.3;
  moved[model->variable_index("left_panda_joint4")] += 0.3;
  const KinematicChain left = KinematicChain::from_config(model, "left_panda_arm");
  const Pose target = left.fk(left.to_chain(moved));
  PlanResult result;
  ASSERT_NO_THROW(result = planner.plan(start, PoseGoal{target, "left_hand"}));
  const JointVector end = result.path.back();
  EXPECT_TRUE(left.fk(left.to_chain(end)).isApprox(target, 1e-3));
  for (const int v : model->group_variables("right_panda_arm")) EXPECT_EQ(end[v], start[v]);
  test::expect_error(
      [&] {
        planner.plan(start, PoseGoal{target, "left_hnd"});
      },
      ErrorCode::InvalidValue);
}

// PR2's screw joints are continuous without <limit>: a stated velocity limit, a warning naming the
// joint; kinetic.toml [limits] velocity sets any joint's.
TEST(SharedPackages, ContinuousJointsWithoutLimitGetAStatedVelocity) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string urdf = shared_package_file("moveit_resources/pr2_description/urdf/robot.xml");
  const RobotModelPtr model = load_robot_file(urdf, "", "", shared_package_options());
  const Joint& screw = model->joint("torso_lift_motor_screw_joint");
  EXPECT_EQ(screw.type, JointType::Continuous);
  EXPECT_DOUBLE_EQ(screw.limits.velocity, kDefaultAngularVelocity);
  EXPECT_DOUBLE_EQ(screw.limits.acceleration, kDefaultAccelerationFactor * kDefaultAngularVelocity);
  EXPECT_TRUE(any_warning(
      *model,
      {"joint 'torso_lift_motor_screw_joint' has no velocity limit (no <limit>); 1 rad/s is taken",
       "kinetic.toml [limits] velocity"}));

  test::TempDir dir;
  const fs::path toml = dir.write(
      "kinetic.toml",
      "[limits]\nvelocity = { torso_lift_motor_screw_joint = 4.0, r_shoulder_pan_joint = 0.5 }\n"
      "acceleration = { r_shoulder_pan_joint = 0.7 }\n");
  const RobotModelPtr tuned = load_robot_file(urdf, "", toml.string(), shared_package_options());
  EXPECT_DOUBLE_EQ(tuned->joint("torso_lift_motor_screw_joint").limits.velocity, 4.0);
  EXPECT_DOUBLE_EQ(tuned->joint("torso_lift_motor_screw_joint").limits.acceleration, 8.0);
  EXPECT_DOUBLE_EQ(tuned->joint("r_shoulder_pan_joint").limits.velocity, 0.5);
  EXPECT_DOUBLE_EQ(tuned->joint("r_shoulder_pan_joint").limits.acceleration, 0.7);
  const fs::path bad = dir.write("bad.toml", "[limits]\nvelocity = { no_such_joint = 1.0 }\n");
  const Error e =
      test::expect_error([&] { load_robot_file(urdf, "", bad.string(), shared_package_options()); },
                         ErrorCode::MissingJoint);
  EXPECT_THAT(e.message(), HasSubstr("limits.velocity.no_such_joint"));
}

// Passive joints are in their group but never planned (the Kinova Gen3's Robotiq linkage).
TEST(SharedPackages, PassiveJointsAreNotPlanned) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load(package_named("kortex_gen3_7dof_2f85"));
  EXPECT_EQ(model->semantic().passive_joints.size(), 5u);
  for (const int v : model->group_variables("gripper"))
    EXPECT_THAT(model->semantic().passive_joints,
                ::testing::Not(::testing::Contains(model->variable_joint(v).name)));
}

// A goal for one group keeps the robot's other joints where the motion starts: a named state of
// the right arm leaves the left arm as it was (it used to take the left arm to zero).
TEST(SharedPackages, GroupGoalsKeepTheOtherJointsAtTheStart) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load(package_named("moveit_dual_arm_panda"));
  Planner planner(model, PlanningScene(), "right_panda_arm");
  JointVector start = model->named_pose("ready", model->zero_configuration(), "left_panda_arm");
  start[model->variable_index("left_panda_joint1")] = 0.4;
  start[model->variable_index("right_panda_joint1")] = -0.4;
  const std::vector<JointVector> goals = planner.resolve_goal(start, NamedGoal{"ready"});
  ASSERT_EQ(goals.size(), 1u);
  for (const int v : model->group_variables("left_panda_arm")) EXPECT_EQ(goals[0][v], start[v]);
  EXPECT_DOUBLE_EQ(goals[0][model->variable_index("right_panda_joint4")],
                   -2.356);  // the right arm's "ready"
  EXPECT_DOUBLE_EQ(goals[0][model->variable_index("right_panda_joint1")], 0.0);
}

// Each arm's "ready" is one pose of the whole robot: both arms take theirs when no group is asked
// (the pose the dual-arm Panda opens in), and a group of the two arms takes both; the right arm's
// own group takes only its own.
TEST(SharedPackages, AStateNamedInEachArmIsOnePoseOfTheWholeRobot) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load(package_named("moveit_dual_arm_panda"));
  const int left4 = model->variable_index("left_panda_joint4"),
            right4 = model->variable_index("right_panda_joint4");
  const JointVector both = model->named_pose("ready");
  EXPECT_DOUBLE_EQ(both[left4], -2.356);
  EXPECT_DOUBLE_EQ(both[right4], -2.356);
  JointVector start = model->zero_configuration();
  start[left4] = -1.0;
  const JointVector right_only = model->named_pose("ready", start, "right_panda_arm");
  EXPECT_DOUBLE_EQ(right_only[left4], -1.0);
  EXPECT_DOUBLE_EQ(right_only[right4], -2.356);
  EXPECT_EQ(model->default_configuration(), both);
}

}  // namespace
}  // namespace kinetic
