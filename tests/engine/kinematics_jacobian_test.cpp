// Geometric Jacobians against central finite differences of FK (tip, any chain link and point,
// any model link including mimic joints), and manipulability / condition number on known cases.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

constexpr double kStep = 1e-6;
constexpr double kJacobianTolerance = 1e-7;

// d(pose)/dq_i as [linear velocity; angular velocity (base frame)] by central differences.
template <typename PoseOf>
Jacobian finite_difference_jacobian(const JointVector& q, PoseOf pose_of, const Vector3& point) {
  Jacobian result(6, q.size());
  for (int i = 0; i < q.size(); ++i) {
    JointVector plus = q, minus = q;
    plus[i] += kStep;
    minus[i] -= kStep;
    const Pose a = pose_of(plus), b = pose_of(minus);
    result.col(i).head<3>() = (a * point - b * point) / (2 * kStep);
    const Eigen::AngleAxisd rotation(Eigen::Matrix3d(a.linear() * b.linear().transpose()));
    result.col(i).tail<3>() = rotation.axis() * rotation.angle() / (2 * kStep);
  }
  return result;
}

JointVector random_within(const JointVector& lower, const JointVector& upper,
                          std::mt19937_64& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  JointVector q(lower.size());
  for (int i = 0; i < q.size(); ++i) q[i] = lower[i] + unit(random) * (upper[i] - lower[i]);
  return q;
}

std::string robot_file(const std::string& relative) {
  return test::example_robot_data_dir() + "/robots/" + relative;
}

struct ChainCase {
  std::string file, base, tip;
};

class JacobianOfSharedRobot : public ::testing::TestWithParam<ChainCase> {};

TEST_P(JacobianOfSharedRobot, MatchesFiniteDifferencesAtTipLinksAndPoints) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const ChainCase& c = GetParam();
  const RobotModelPtr model = load_robot_file(robot_file(c.file));
  const Pose tool = pose_from_xyz_rpy(Vector3(0.02, 0.01, 0.15), Vector3(0.3, -0.2, 0.1));
  const KinematicChain chain(model, c.base, c.tip, tool);
  std::mt19937_64 random(3);
  for (int n = 0; n < 100; ++n) {
    const JointVector q = random_within(chain.lower_limits(), chain.upper_limits(), random);
    const Jacobian expected = finite_difference_jacobian(
        q, [&](const JointVector& x) { return chain.fk(x); }, Vector3::Zero());
    EXPECT_LE((chain.jacobian(q) - expected).cwiseAbs().maxCoeff(), kJacobianTolerance);

    // Every link of the chain, at an off-axis point.
    const Vector3 point(0.05, -0.03, 0.02);
    for (const int j : model->chain_joints(c.base, c.tip)) {
      const std::string link = model->links()[model->joints()[j].child_link].name;
      const Jacobian at_link = chain.jacobian_at(q, link, point);
      const Jacobian fd = finite_difference_jacobian(
          q, [&](const JointVector& x) { return chain.link_pose(x, link); }, point);
      EXPECT_LE((at_link - fd).cwiseAbs().maxCoeff(), kJacobianTolerance) << link;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    SharedRobots, JacobianOfSharedRobot,
    ::testing::Values(ChainCase{"ur_description/urdf/ur5_robot.urdf", "base_link", "tool0"},
                      ChainCase{"panda_description/urdf/panda.urdf", "panda_link0", "panda_hand"},
                      ChainCase{"kinova_description/robots/kinova.urdf", "base",
                                "j2s6s200_end_effector"}));

TEST(ModelJacobian, MatchesFiniteDifferencesThroughMimicJoints) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load_robot_file(robot_file("panda_description/urdf/panda.urdf"));
  const ForwardKinematics fk(*model);
  const int finger = model->link_index("panda_rightfinger");  // moved by a mimic joint
  std::mt19937_64 random(5);
  const Vector3 point(0.0, 0.01, 0.04);
  for (int n = 0; n < 50; ++n) {
    const JointVector q = random_within(model->lower_limits(), model->upper_limits(), random);
    const Jacobian expected = finite_difference_jacobian(
        q, [&](const JointVector& x) { return fk.link_pose(x, finger); }, point);
    const Jacobian ours = fk.link_jacobian(q, finger, point);
    EXPECT_LE((ours - expected).cwiseAbs().maxCoeff(), kJacobianTolerance);
    // The finger's prismatic variable moves it: the mimic column is not empty.
    const int finger_variable = model->variable_index("panda_finger_joint1");
    EXPECT_GT(ours.col(finger_variable).head<3>().norm(), 0.5);
  }
}

TEST(ModelJacobian, AgreesWithChainJacobian) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load_robot_file(robot_file("ur_description/urdf/ur5_robot.urdf"));
  const ForwardKinematics fk(*model);
  const KinematicChain chain(model, "world", "tool0");
  std::mt19937_64 random(9);
  for (int n = 0; n < 20; ++n) {
    const JointVector q = random_within(model->lower_limits(), model->upper_limits(), random);
    const Jacobian whole = fk.link_jacobian(q, model->link_index("tool0"));
    const Jacobian of_chain = chain.jacobian(chain.to_chain(q));
    for (int i = 0; i < chain.dof(); ++i)
      EXPECT_LE((whole.col(chain.variable_indices()[i]) - of_chain.col(i)).cwiseAbs().maxCoeff(),
                1e-12);
  }
}

TEST(Manipulability, VanishesAtUrSingularitiesAndMatchesYoshikawa) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load_robot_file(robot_file("ur_description/urdf/ur5_robot.urdf"));
  const KinematicChain chain(model, "base_link", "tool0");
  JointVector wrist_singular(6), elbow_singular(6), regular(6);
  wrist_singular << 0.3, -1.0, 1.2, -0.4, 0.0, 0.7;  // joint 5 at zero: joints 4 and 6 aligned
  elbow_singular << 0.3, -1.0, 0.0, -0.4, 1.1, 0.7;  // arm stretched
  regular << 0.3, -1.0, 1.2, -0.4, 1.1, 0.7;
  EXPECT_LT(chain.manipulability(wrist_singular), 1e-10);
  EXPECT_GT(chain.condition_number(wrist_singular), 1e8);
  EXPECT_LT(chain.manipulability(elbow_singular), 1e-10);
  EXPECT_GT(chain.condition_number(elbow_singular), 1e8);

  const Jacobian j = chain.jacobian(regular);
  const double yoshikawa = std::sqrt((j * j.transpose()).determinant());
  EXPECT_GT(yoshikawa, 1e-3);
  EXPECT_NEAR(chain.manipulability(regular), yoshikawa, 1e-9 * yoshikawa);
  EXPECT_GT(chain.condition_number(regular), 1.0);
  EXPECT_LT(chain.condition_number(regular), 1e3);
}

// A planar two-link arm, where the Jacobian is known in closed form.
constexpr const char* kPlanarArm = R"(<?xml version="1.0"?>
<robot name="planar_2r">
  <link name="base"/><link name="upper"/><link name="lower"/><link name="tip"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
  </joint>
  <joint name="elbow" type="revolute">
    <parent link="upper"/><child link="lower"/><origin xyz="0.5 0 0"/><axis xyz="0 0 1"/>
    <limit lower="-3" upper="3" effort="10" velocity="1"/>
  </joint>
  <joint name="tool" type="fixed"><parent link="lower"/><child link="tip"/><origin xyz="0.3 0 0"/></joint>
</robot>)";

TEST(Manipulability, BelowSixDofIsTheProductOfSingularValues) {
  const RobotModelPtr model = load_robot_string(kPlanarArm);
  const KinematicChain chain(model, "base", "tip");
  constexpr double l1 = 0.5, l2 = 0.3;
  for (const double q1 : {-1.0, 0.2, 2.5}) {
    for (const double q2 : {-2.0, 0.0, 0.7}) {
      Jacobian expected = Jacobian::Zero(6, 2);
      expected.col(0) << -l1 * std::sin(q1) - l2 * std::sin(q1 + q2),
          l1 * std::cos(q1) + l2 * std::cos(q1 + q2), 0, 0, 0, 1;
      expected.col(1) << -l2 * std::sin(q1 + q2), l2 * std::cos(q1 + q2), 0, 0, 0, 1;
      const JointVector q = (JointVector(2) << q1, q2).finished();
      EXPECT_LE((chain.jacobian(q) - expected).cwiseAbs().maxCoeff(), 1e-12);
      const double product = std::sqrt((expected.transpose() * expected).determinant());
      EXPECT_NEAR(chain.manipulability(q), product, 1e-12);
    }
  }
}

}  // namespace
}  // namespace kinetic
