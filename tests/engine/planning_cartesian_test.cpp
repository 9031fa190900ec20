// Cartesian planning (lines and arcs by dense incremental IK, stopping with a reason) and
// constrained planning (orientation, position box, joint range kept along the whole path).
#include <gtest/gtest.h>

#include <cmath>

#include "builtin_arms.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/benchmark_scenes.hpp"
#include "engine/planning/output_gates.hpp"
#include "engine/planning/planner.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

RobotModelPtr ur5e() { return test::builtin_ur5e(); }
RobotModelPtr panda() { return test::builtin_panda(); }

// Distance of p from the segment a-b.
double off_line(const Vector3& p, const Vector3& a, const Vector3& b) {
  const Vector3 d = (b - a).normalized();
  const Vector3 v = p - a;
  return (v - v.dot(d) * d).norm();
}

TEST(CartesianPlanning, StraightLineIsFollowedInMillimetreSteps) {
  for (const RobotModelPtr& model : {ur5e(), panda()}) {
    SCOPED_TRACE(model->name());
    Planner planner(model);
    const JointVector start = model->named_pose("ready");
    const Pose from = planner.tcp_pose(start);
    Pose to = from;
    to.translation() += Vector3(0.0, 0.1, -0.1);
    const CartesianResult r = planner.plan_cartesian(start, {CartesianSegment::line_to(to)});
    EXPECT_TRUE(r.complete()) << r.stop_reason;
    EXPECT_DOUBLE_EQ(r.fraction, 1.0);
    EXPECT_TRUE(r.stop_reason.empty());
    EXPECT_GE(r.steps, 141);  // 0.1414 m in steps of at most 1 mm
    for (std::size_t i = 0; i < r.path.size(); ++i) {
      const Pose p = planner.tcp_pose(r.path[i]);
      EXPECT_LT(off_line(p.translation(), from.translation(), to.translation()), 2e-4);
      EXPECT_LT(Quaternion(p.linear()).angularDistance(Quaternion(from.linear())), 2e-3);
      if (i > 0) {
        EXPECT_LE((r.path[i] - r.path[i - 1]).cwiseAbs().maxCoeff(), CartesianOptions{}.jump_threshold);
        EXPECT_LE((p.translation() - planner.tcp_pose(r.path[i - 1]).translation()).norm(), 1.2e-3);
      }
    }
    EXPECT_LT((planner.tcp_pose(r.path.back()).translation() - to.translation()).norm(), 2e-4);
    EXPECT_FALSE(limits_gate(*model, r.path).has_value());
  }
}

TEST(CartesianPlanning, ArcKeepsItsRadius) {
  Planner planner(ur5e());
  const JointVector start = ur5e()->named_pose("ready");
  const Pose from = planner.tcp_pose(start);
  const Vector3 center = from.translation() + Vector3(0.08, 0.0, 0.0);
  const CartesianResult r =
      planner.plan_cartesian(start, {CartesianSegment::arc(center, Vector3::UnitZ(), M_PI / 2)});
  EXPECT_TRUE(r.complete()) << r.stop_reason;
  for (const auto& q : r.path) {
    const Vector3 p = planner.tcp_pose(q).translation();
    EXPECT_NEAR((p - center).head<2>().norm(), 0.08, 2e-4);
    EXPECT_NEAR(p.z(), center.z(), 2e-4);
  }
  const Vector3 end = planner.tcp_pose(r.path.back()).translation();
  EXPECT_NEAR(end.x(), center.x(), 2e-4);  // a quarter turn about +z from -x lands on -y
  EXPECT_NEAR(end.y(), center.y() - 0.08, 2e-4);
}

TEST(CartesianPlanning, OutOfReachStopsWithFractionAndReason) {
  Planner planner(ur5e());
  const JointVector start = ur5e()->named_pose("ready");
  Pose to = planner.tcp_pose(start);
  to.translation() += Vector3(1.5, 0.0, 0.0);
  const CartesianResult r = planner.plan_cartesian(start, {CartesianSegment::line_to(to)});
  EXPECT_FALSE(r.complete());
  EXPECT_GT(r.fraction, 0.0);
  EXPECT_LT(r.fraction, 1.0);
  EXPECT_FALSE(r.stop_reason.empty());
  EXPECT_EQ(static_cast<int>(r.path.size()), r.steps + 1);
}

TEST(CartesianPlanning, ObstacleStopsWithTheLinksAtFault) {
  const RobotModelPtr model = ur5e();
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  const Pose from = planner.tcp_pose(start);
  PlanningScene scene;
  Pose wall = Pose::Identity();
  wall.translation() = from.translation() + Vector3(0.0, 0.0, -0.15);
  scene.add_obstacle("plate", Shape::box({0.3, 0.3, 0.02}), wall);
  planner.set_scene(scene);
  Pose to = from;
  to.translation() += Vector3(0.0, 0.0, -0.25);
  const CartesianResult r = planner.plan_cartesian(start, {CartesianSegment::line_to(to)});
  EXPECT_FALSE(r.complete());
  EXPECT_GT(r.fraction, 0.2);
  EXPECT_LT(r.fraction, 0.7);
  EXPECT_NE(r.stop_reason.find("collision"), std::string::npos) << r.stop_reason;
  EXPECT_NE(std::find(r.links_at_fault.begin(), r.links_at_fault.end(), "plate"), r.links_at_fault.end());
  EXPECT_FALSE(collision_gate(planner.checker(), r.path).has_value());
}

TEST(CartesianPlanning, JumpThresholdNamesTheJoint) {
  Planner planner(ur5e());
  const JointVector start = ur5e()->named_pose("ready");
  Pose to = planner.tcp_pose(start);
  to.translation() += Vector3(0.0, 0.0, -0.05);
  CartesianOptions options;
  options.jump_threshold = 1e-5;  // far below what a 1 mm step needs
  const CartesianResult r = planner.plan_cartesian(start, {CartesianSegment::line_to(to)}, options);
  EXPECT_EQ(r.steps, 0);
  EXPECT_DOUBLE_EQ(r.fraction, 0.0);
  EXPECT_FALSE(r.joint_at_fault.empty());
  EXPECT_NE(r.stop_reason.find(r.joint_at_fault), std::string::npos) << r.stop_reason;
}

TEST(CartesianPlanning, AJointAtItsLimitIsNamed) {
  // Turning the UR5e's tool about its own axis, 3 rad per segment: the wrist's last joint (limit
  // 2 pi) runs out during the third turn.
  const RobotModelPtr model = ur5e();
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  std::vector<CartesianSegment> turns;
  Pose at = planner.tcp_pose(start);
  for (int k = 0; k < 3; ++k) {
    at.linear() = at.linear() * Eigen::AngleAxisd(3.0, Vector3::UnitZ()).toRotationMatrix();
    turns.push_back(CartesianSegment::line_to(at));
  }
  const CartesianResult r = planner.plan_cartesian(start, turns);
  ASSERT_FALSE(r.complete());
  EXPECT_GT(r.fraction, 0.6);
  EXPECT_LT(r.fraction, 0.8);
  EXPECT_EQ(r.joint_at_fault, "joint6") << r.stop_reason;
  EXPECT_NE(r.stop_reason.find("limit"), std::string::npos) << r.stop_reason;
  EXPECT_NEAR(r.path.back()[5], model->upper_limits()[5], 2e-3);
  EXPECT_FALSE(limits_gate(*model, r.path).has_value());
}

TEST(ConstrainedPlanning, OrientationKeptAlongThePath) {
  for (const RobotModelPtr& model : {ur5e(), panda()}) {
    SCOPED_TRACE(model->name());
    Planner planner(model, benchmark_scene("table", model));
    const JointVector start = model->named_pose("ready");
    const Pose from = planner.tcp_pose(start);
    PathConstraints constraints;
    constraints.orientation = OrientationConstraint{Quaternion(from.linear()), 0.05};
    constraints.position = PositionConstraint{Vector3(-1, -1, 0.25), Vector3(1, 1, 1.2)};
    Pose target = from;  // same orientation, swung 0.8 rad about the base's z axis
    target.translation() = Eigen::AngleAxisd(0.8, Vector3::UnitZ()) * from.translation();
    PlannerOptions options = default_preset();
    options.timeout_ms = test::generous_ms(3000.0);
    const PlanResult r = planner.plan_constrained(start, PoseGoal{target}, constraints, options);
    ASSERT_GE(r.path.size(), 2u);
    for (const auto& q : r.path) {
      const Pose p = planner.tcp_pose(q);
      EXPECT_LE(Quaternion(p.linear()).angularDistance(constraints.orientation->orientation), 0.05 + 1e-4);
      EXPECT_GE(p.translation().z(), 0.25 - 1e-4);
    }
    // Dense: consecutive states close enough that the constraint holds between them too.
    for (std::size_t i = 1; i < r.path.size(); ++i)
      EXPECT_LE((r.path[i] - r.path[i - 1]).norm(), 3 * options.resolution);
    EXPECT_FALSE(collision_gate(planner.checker(), r.path).has_value());
    EXPECT_LT((planner.tcp_pose(r.path.back()).translation() - target.translation()).norm(), 1e-3);
  }
}

// Around a box with the TCP kept pointing down: the search's walk wanders (2-6x the final length
// before shortcutting); the shortcuts are walks on the constraint set, so the path gets shorter
// and stays dense, constrained and collision-free.
TEST(ConstrainedPlanning, ShortcuttingShortensAroundAnObstacle) {
  const RobotModelPtr model = ur5e();
  PlanningScene scene;
  scene.add_obstacle("box", Shape::box({0.2, 0.2, 0.3}), Pose(Eigen::Translation3d(0.5, 0.0, 0.15)));
  Planner planner(model, scene);
  const Quaternion down(rotation_from_rpy(M_PI, 0.0, 0.0));
  Pose over = Pose::Identity(), beyond = Pose::Identity();
  over.linear() = beyond.linear() = down.toRotationMatrix();
  over.translation() = Vector3(0.5, -0.35, 0.1);
  beyond.translation() = Vector3(0.5, 0.35, 0.1);
  const JointVector start = planner.resolve_goal(model->named_pose("home"), PoseGoal{over}).front();
  PathConstraints constraints;
  constraints.orientation = OrientationConstraint{down, 0.1};
  double before = 0.0, after = 0.0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    PlannerOptions options = default_preset();
    options.seed = seed;
    options.timeout_ms = test::generous_ms(2000.0);
    const PlanResult r = planner.plan_constrained(start, PoseGoal{beyond}, constraints, options);
    ASSERT_GE(r.path.size(), 2u);
    EXPECT_LE(r.length_after, r.length_before + 1e-9);
    before += r.length_before;
    after += r.length_after;
    for (const auto& q : r.path)
      EXPECT_LE(Quaternion(planner.tcp_pose(q).linear()).angularDistance(down), 0.1 + 1e-4);
    for (std::size_t i = 1; i < r.path.size(); ++i)
      EXPECT_LE((r.path[i] - r.path[i - 1]).norm(), 3 * options.resolution);
    EXPECT_FALSE(collision_gate(planner.checker(), r.path).has_value());
    EXPECT_LT((planner.tcp_pose(r.path.back()).translation() - beyond.translation()).norm(), 1e-3);
  }
  EXPECT_LT(after, 0.7 * before) << "shortcutting left the constrained paths nearly as long";
}

TEST(ConstrainedPlanning, JointRangeKeptAndViolationsReported) {
  const RobotModelPtr model = ur5e();
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  JointVector goal = start;
  goal[0] += 1.2;
  goal[2] -= 0.5;
  PathConstraints constraints;
  const std::string joint = model->variable_joint(1).name;
  constraints.joints.push_back({joint, start[1] - 0.05, start[1] + 0.05});
  const PlanResult r = planner.plan_constrained(start, JointGoal{goal}, constraints);
  for (const auto& q : r.path) {
    EXPECT_GE(q[1], start[1] - 0.05 - 1e-9);
    EXPECT_LE(q[1], start[1] + 0.05 + 1e-9);
  }
  EXPECT_LT((r.path.back() - goal).norm(), 1e-9);

  JointVector outside = goal;
  outside[1] += 0.5;
  try {
    planner.plan_constrained(start, JointGoal{outside}, constraints);
    FAIL() << "a goal outside the joint range must be refused";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    EXPECT_NE(e.message().find(joint), std::string::npos) << e.message();
  }
}

}  // namespace
