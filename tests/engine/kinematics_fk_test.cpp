// Forward kinematics against Orocos KDL (kdl_parser on the same file): chain FK and every link's
// pose for 1,000 random configurations of each real robot, plus the consistency of all-link,
// single-link, batched and chain FK with each other.
#include <gtest/gtest.h>

#include <cmath>
#include <kdl/chain.hpp>
#include <kdl/chainfksolverpos_recursive.hpp>
#include <kdl/tree.hpp>
#include <kdl_parser/kdl_parser.hpp>
#include <limits>
#include <random>

#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

struct RobotCase {
  std::string name, file, base, tip;
};

const std::vector<RobotCase>& shared_robots() {
  static const std::vector<RobotCase> robots = {
      {"ur3", "robots/ur_description/urdf/ur3_robot.urdf", "base_link", "tool0"},
      {"ur5", "robots/ur_description/urdf/ur5_robot.urdf", "base_link", "tool0"},
      {"ur10", "robots/ur_description/urdf/ur10_robot.urdf", "base_link", "tool0"},
      {"panda", "robots/panda_description/urdf/panda.urdf", "panda_link0", "panda_hand"},
      {"kinova", "robots/kinova_description/robots/kinova.urdf", "base", "j2s6s200_end_effector"},
  };
  return robots;
}

std::string robot_path(const RobotCase& robot) {
  return test::example_robot_data_dir() + "/" + robot.file;
}

KDL::Tree kdl_tree(const RobotCase& robot) {
  KDL::Tree tree;
  if (!kdl_parser::treeFromFile(robot_path(robot), tree))
    throw std::runtime_error("kdl_parser could not read " + robot_path(robot));
  return tree;
}

Pose from_kdl(const KDL::Frame& frame) {
  Pose pose = Pose::Identity();
  for (int r = 0; r < 3; ++r) {
    pose.translation()[r] = frame.p[r];
    for (int c = 0; c < 3; ++c) pose.linear()(r, c) = frame.M(r, c);
  }
  return pose;
}

double rotation_difference(const Pose& a, const Pose& b) {
  return Eigen::AngleAxisd(Eigen::Matrix3d(a.linear().transpose() * b.linear())).angle();
}

JointVector random_configuration(const RobotModel& model, std::mt19937_64& random) {
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  JointVector q(model.dof());
  for (int i = 0; i < q.size(); ++i) q[i] = lower[i] + unit(random) * (upper[i] - lower[i]);
  return q;
}

// Value of a KDL chain joint, by name, from a model joint vector (mimic joints follow their
// source).
double kdl_joint_value(const RobotModel& model, const std::string& joint_name,
                       const JointVector& q) {
  const Joint& joint = model.joint(joint_name);
  if (joint.is_active()) return q[joint.variable_index];
  if (joint.mimic)
    return joint.mimic->effective_multiplier * q[joint.mimic_source_variable] +
           joint.mimic->effective_offset;
  return 0.0;
}

KDL::JntArray kdl_joints(const RobotModel& model, const KDL::Chain& chain, const JointVector& q) {
  KDL::JntArray values(chain.getNrOfJoints());
  unsigned k = 0;
  for (const auto& segment : chain.segments)
    if (segment.getJoint().getType() != KDL::Joint::None)
      values(k++) = kdl_joint_value(model, segment.getJoint().getName(), q);
  return values;
}

constexpr int kConfigurations = 1000;
constexpr double kFkTolerance = 1e-9;

class FkAgainstKdl : public ::testing::TestWithParam<RobotCase> {};

TEST_P(FkAgainstKdl, ChainFkMatchesKdl) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotCase& robot = GetParam();
  const RobotModelPtr model = load_robot_file(robot_path(robot));
  const KinematicChain chain(model, robot.base, robot.tip);
  KDL::Chain kdl_chain;
  ASSERT_TRUE(kdl_tree(robot).getChain(robot.base, robot.tip, kdl_chain));
  ASSERT_EQ(static_cast<int>(kdl_chain.getNrOfJoints()), chain.dof());
  KDL::ChainFkSolverPos_recursive kdl_fk(kdl_chain);

  std::mt19937_64 random(7);
  double worst_position = 0, worst_rotation = 0;
  for (int n = 0; n < kConfigurations; ++n) {
    const JointVector q_model = random_configuration(*model, random);
    const JointVector q = chain.to_chain(q_model);
    KDL::Frame expected;
    ASSERT_GE(kdl_fk.JntToCart(kdl_joints(*model, kdl_chain, q_model), expected), 0);
    const Pose ours = chain.fk(q);
    const Pose theirs = from_kdl(expected);
    worst_position = std::max(worst_position, (ours.translation() - theirs.translation()).norm());
    worst_rotation = std::max(worst_rotation, rotation_difference(ours, theirs));
  }
  EXPECT_LE(worst_position, kFkTolerance) << robot.name;
  EXPECT_LE(worst_rotation, kFkTolerance) << robot.name;
}

TEST_P(FkAgainstKdl, EveryLinkMatchesKdl) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotCase& robot = GetParam();
  const RobotModelPtr model = load_robot_file(robot_path(robot));
  const ForwardKinematics fk(*model);
  const KDL::Tree tree = kdl_tree(robot);
  const std::string root = model->links()[model->root_link()].name;

  struct LinkChain {
    int link;
    KDL::Chain chain;
  };
  std::vector<LinkChain> chains;
  for (const Link& link : model->links()) {
    if (link.index == model->root_link()) continue;
    LinkChain entry{link.index, {}};
    ASSERT_TRUE(tree.getChain(root, link.name, entry.chain)) << link.name;
    chains.push_back(std::move(entry));
  }

  std::mt19937_64 random(11);
  std::vector<Pose> poses;
  double worst_position = 0, worst_rotation = 0;
  for (int n = 0; n < kConfigurations; ++n) {
    const JointVector q = random_configuration(*model, random);
    fk.compute(q, poses);
    ASSERT_EQ(poses.size(), model->links().size());
    EXPECT_TRUE(poses[model->root_link()].isApprox(Pose::Identity()));
    for (const LinkChain& entry : chains) {
      KDL::ChainFkSolverPos_recursive kdl_fk(entry.chain);
      KDL::Frame expected;
      ASSERT_GE(kdl_fk.JntToCart(kdl_joints(*model, entry.chain, q), expected), 0);
      const Pose theirs = from_kdl(expected);
      worst_position =
          std::max(worst_position, (poses[entry.link].translation() - theirs.translation()).norm());
      worst_rotation = std::max(worst_rotation, rotation_difference(poses[entry.link], theirs));
    }
  }
  EXPECT_LE(worst_position, kFkTolerance) << robot.name;
  EXPECT_LE(worst_rotation, kFkTolerance) << robot.name;
}

TEST_P(FkAgainstKdl, AllLinkSingleLinkBatchedAndChainAgree) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotCase& robot = GetParam();
  const RobotModelPtr model = load_robot_file(robot_path(robot));
  const ForwardKinematics fk(*model);
  const KinematicChain chain(model, robot.base, robot.tip);
  const int base = model->link_index(robot.base), tip = model->link_index(robot.tip);

  std::mt19937_64 random(13);
  constexpr int kBatch = 50;
  Eigen::MatrixXd configurations(model->dof(), kBatch);
  for (int c = 0; c < kBatch; ++c) configurations.col(c) = random_configuration(*model, random);
  std::vector<std::vector<Pose>> batch;
  fk.compute_batch(configurations, batch);
  ASSERT_EQ(batch.size(), static_cast<std::size_t>(kBatch));
  Eigen::MatrixXd chain_configurations(chain.dof(), kBatch);
  for (int c = 0; c < kBatch; ++c)
    chain_configurations.col(c) = chain.to_chain(configurations.col(c));
  const std::vector<Pose> chain_batch = chain.fk_batch(chain_configurations);

  for (int c = 0; c < kBatch; ++c) {
    const JointVector q = configurations.col(c);
    const std::vector<Pose> poses = compute_link_poses(*model, q);
    for (const Link& link : model->links()) {
      EXPECT_TRUE(batch[c][link.index].isApprox(poses[link.index], 1e-12)) << link.name;
      EXPECT_TRUE(fk.link_pose(q, link.index).isApprox(poses[link.index], 1e-12)) << link.name;
    }
    EXPECT_TRUE(compute_link_pose(*model, q, robot.tip).isApprox(poses[tip], 1e-12));
    const Pose tip_in_base = poses[base].inverse() * poses[tip];
    const Pose from_chain = chain.fk(chain.to_chain(q));
    EXPECT_LE((from_chain.translation() - tip_in_base.translation()).norm(), 1e-12);
    EXPECT_LE(rotation_difference(from_chain, tip_in_base), 1e-12);
    EXPECT_TRUE(chain_batch[c].isApprox(from_chain, 1e-14));
    // Every link on the chain, through the chain's own link poses.
    for (const int j : model->chain_joints(robot.base, robot.tip)) {
      const Link& link = model->links()[model->joints()[j].child_link];
      const Pose expected = poses[base].inverse() * poses[link.index];
      EXPECT_TRUE(chain.link_pose(chain.to_chain(q), link.name).isApprox(expected, 1e-12))
          << link.name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(SharedRobots, FkAgainstKdl, ::testing::ValuesIn(shared_robots()),
                         [](const auto& robot_info) { return robot_info.param.name; });

TEST(KinematicChain, ToolOffsetAndConversions) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load_robot_file(robot_path(shared_robots()[3]));  // panda
  const Pose offset = pose_from_xyz_rpy(Vector3(0.01, -0.02, 0.1034), Vector3(0.1, 0.2, -0.3));
  const KinematicChain plain(model, "panda_link0", "panda_hand");
  const KinematicChain tool(model, "panda_link0", "panda_hand", offset);
  EXPECT_EQ(plain.dof(), 7);
  EXPECT_EQ(plain.joint_names().front(), "panda_joint1");
  const JointVector q = plain.mid_configuration();
  EXPECT_TRUE(tool.fk(q).isApprox(plain.fk(q) * offset, 1e-12));

  JointVector q_model;
  plain.to_model(q, q_model);
  ASSERT_EQ(q_model.size(), model->dof());
  EXPECT_TRUE(plain.to_chain(q_model).isApprox(q));
  for (int i = 0; i < plain.dof(); ++i) {
    EXPECT_LE(plain.lower_limits()[i], plain.upper_limits()[i]);
    EXPECT_EQ(model->variable_joint(plain.variable_indices()[i]).name, plain.joint_names()[i]);
  }
}

TEST(KinematicChain, BadInputGivesTypedErrors) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load_robot_file(robot_path(shared_robots()[1]));  // ur5
  const KinematicChain chain(model, "base_link", "tool0");
  const auto code_of = [](auto&& call) {
    try {
      call();
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::Cancelled;  // nothing thrown
  };
  EXPECT_EQ(code_of([&] { chain.fk(JointVector::Zero(5)); }), ErrorCode::DimensionMismatch);
  JointVector nan = JointVector::Zero(6);
  nan[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(code_of([&] { chain.fk(nan); }), ErrorCode::InvalidValue);
  EXPECT_EQ(code_of([&] { chain.jacobian(nan); }), ErrorCode::InvalidValue);
  EXPECT_EQ(code_of([&] { KinematicChain(model, "base_link", "no_such_link"); }),
            ErrorCode::MissingLink);
  EXPECT_EQ(code_of([&] { KinematicChain(model, "tool0", "base_link"); }), ErrorCode::InvalidModel);
  EXPECT_EQ(code_of([&] { chain.link_pose(JointVector::Zero(6), "world"); }),
            ErrorCode::MissingLink);
  const ForwardKinematics fk(*model);
  std::vector<Pose> poses;
  EXPECT_EQ(code_of([&] { fk.compute(JointVector::Zero(3), poses); }),
            ErrorCode::DimensionMismatch);
  EXPECT_EQ(code_of([&] { KinematicChain::from_config(model, "arm"); }), ErrorCode::InvalidModel);
}

}  // namespace
}  // namespace kinetic
