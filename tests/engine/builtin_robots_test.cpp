// The built-in robot library (robot_configs/): every robot loads by name with the expected number
// of joints, its named poses lie within limits, FK at "home" reproduces the tool position the
// manufacturer publishes, IK round-trips the "ready" pose, the analytic IK parameters of
// kinetic.toml describe the same arm as the URDF, every link carries sensible geometry, and the UR
// arms' upper arm passes beside the base.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/opw_ik.hpp"
#include "engine/kinematics/ur_ik.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/time_budget.hpp"

namespace kinetic {
namespace {

// What the library must hold (issue 3), with each arm's number of joints.
const std::map<std::string, int>& expected_dof() {
  static const std::map<std::string, int> table{
      {"ur3e", 6},        {"ur5e", 6},   {"ur10e", 6},         {"ur16e", 6},   {"panda", 7},
      {"iiwa7", 7},       {"iiwa14", 7}, {"kr6_r700_sixx", 6}, {"irb2400", 6}, {"irb4600", 6},
      {"lrmate200id", 6}, {"xarm6", 6},  {"xarm7", 7},         {"gen3", 7}};
  return table;
}

std::vector<std::string> library_names() {
  std::vector<std::string> names;
  for (const BuiltinRobotInfo& info : builtin_robots()) names.push_back(info.name);
  return names;
}

double orientation_error(const Pose& a, const Pose& b) {
  return Eigen::AngleAxisd(a.linear().transpose() * b.linear()).angle();
}

TEST(BuiltinRobotLibrary, HoldsEveryArmOfTheIssue) {
  const std::vector<std::string> names = library_names();
  for (const auto& [name, dof] : expected_dof())
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name << " is missing";
  for (const BuiltinRobotInfo& info : builtin_robots()) {
    EXPECT_FALSE(info.manufacturer.empty()) << info.name;
    EXPECT_FALSE(info.model.empty()) << info.name;
  }
}

TEST(BuiltinRobotLibrary, UnknownNameSuggestsCloseNames) {
  try {
    (void)load_builtin_robot("ur5f");
    FAIL() << "an unknown robot name must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::UnknownRobot);
    const std::string text = e.message() + " " + e.hint();
    EXPECT_NE(text.find("ur5e"), std::string::npos) << text;
  }
}

class BuiltinRobot : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { model_ = load_builtin_robot(GetParam()); }
  RobotModelPtr model_;
};

TEST_P(BuiltinRobot, LoadsWithTheExpectedJoints) {
  const auto expected = expected_dof().find(GetParam());
  ASSERT_NE(expected, expected_dof().end())
      << "robot_configs/" << GetParam() << " is not in this test's table: add its expected DOF";
  EXPECT_EQ(model_->dof(), expected->second);
  EXPECT_EQ(model_->config().name, GetParam());
  const KinematicChain chain = KinematicChain::from_config(model_);
  EXPECT_EQ(chain.dof(), expected->second);
  for (int v = 0; v < model_->dof(); ++v) {
    const JointLimits& limits = model_->variable_joint(v).limits;
    EXPECT_GT(limits.velocity, 0.0) << model_->variable_joint(v).name;
    if (limits.has_position_limits) {
      EXPECT_LT(limits.lower, limits.upper) << model_->variable_joint(v).name;
    }
  }
}

TEST_P(BuiltinRobot, NamedPosesExistWithinLimits) {
  for (const char* pose : {"home", "zero", "ready"}) {
    const JointVector q = model_->named_pose(pose);
    ASSERT_EQ(q.size(), model_->dof()) << pose;
    EXPECT_TRUE(model_->within_limits(q)) << pose << " = " << q.transpose();
  }
  EXPECT_LT((model_->named_pose("zero") - model_->zero_configuration()).norm(), 1e-12)
      << "'zero' should be all zeros, clamped into the limits";
}

// The poses a user starts from and plans to: planning from or to a pose in self-collision fails
// out of the box. ('zero' is all zeros clamped into the limits by definition: on the Panda it folds
// the hand, joint 6 at 0, against link4.)
TEST_P(BuiltinRobot, HomeAndReadyAreFreeOfSelfCollision) {
  CollisionChecker checker(model_);
  for (const char* pose : {"home", "ready"}) {
    const std::vector<Contact> contacts = checker.contacts(model_->named_pose(pose));
    EXPECT_TRUE(contacts.empty()) << pose << ": '" << contacts.front().body_a << "' with '"
                                  << contacts.front().body_b << "', " << contacts.front().depth
                                  << " m deep";
  }
}

TEST_P(BuiltinRobot, HomeMatchesThePublishedToolPosition) {
  const ValidationConfig& validation = model_->config().validation;
  ASSERT_TRUE(validation.home_tcp_position.has_value())
      << "kinetic.toml needs [validation] home_tcp_xyz";
  const KinematicChain chain = KinematicChain::from_config(model_);
  const Pose tool = chain.fk(chain.to_chain(model_->named_pose("home")));
  EXPECT_LE((tool.translation() - *validation.home_tcp_position).norm(), validation.tolerance)
      << "FK at home: " << tool.translation().transpose()
      << ", published: " << validation.home_tcp_position->transpose();
}

TEST_P(BuiltinRobot, IkRoundTripsTheReadyPose) {
  const KinematicChain chain = KinematicChain::from_config(model_);
  const JointVector ready = chain.to_chain(model_->named_pose("ready"));
  const Pose target = chain.fk(ready);
  // The solver the studio picks for this robot (kinetic.toml [ik]).
  const IkSolverPtr solver = make_ik_solver(model_);
  ASSERT_EQ(solver->dof(), chain.dof());
  const IkConfig& ik = model_->config().ik;
  if (ik.opw) {
    EXPECT_EQ(solver->name(), "opw");
  } else if (ik.ur) {
    EXPECT_EQ(solver->name(), "ur");
  }
  IkOptions options;
  options.timeout_ms = test::generous_ms(200.0);
  const IkResult result =
      solver->solve(target, chain.to_chain(model_->named_pose("home")), options);
  ASSERT_TRUE(result.converged) << solver->name() << ": " << result.message;
  const Pose reached = chain.fk(result.q);
  EXPECT_LE((reached.translation() - target.translation()).norm(), 1e-4) << solver->name();
  EXPECT_LE(orientation_error(reached, target), 1e-3) << solver->name();
  JointVector q_model = model_->zero_configuration();
  chain.to_model(result.q, q_model);
  EXPECT_TRUE(model_->within_limits(q_model, 1e-6)) << result.q.transpose();
}

// The OPW / UR parameters in kinetic.toml must describe the URDF's arm exactly: every analytic
// solution reproduces the URDF pose, and the configuration that made the pose is among them.
TEST_P(BuiltinRobot, AnalyticIkParametersMatchTheUrdf) {
  const IkConfig& ik = model_->config().ik;
  if (!ik.opw && !ik.ur) GTEST_SKIP() << GetParam() << " has no analytic IK parameters";
  const KinematicChain chain = KinematicChain::from_config(model_, ik.group);
  std::unique_ptr<IkSolver> solver;
  if (ik.opw)
    solver = std::make_unique<OpwIkSolver>(*ik.opw, chain);
  else
    solver = std::make_unique<UrIkSolver>(*ik.ur, chain);

  std::mt19937_64 rng(7);
  const JointVector lower = chain.lower_limits(), upper = chain.upper_limits();
  int checked = 0;
  for (int sample = 0; sample < 200; ++sample) {
    JointVector q(chain.dof());
    for (int i = 0; i < chain.dof(); ++i) {
      // Stay within ±pi so the solver's normalised solutions compare directly.
      const double lo = std::max(lower[i], -3.0), hi = std::min(upper[i], 3.0);
      q[i] = std::uniform_real_distribution<double>(lo, hi)(rng);
    }
    if (std::abs(std::sin(q[4])) < 0.05) continue;  // wrist singularity: J4/J6 split is arbitrary
    const Pose target = chain.fk(q);
    const IkResult result = solver->solve(target, q);
    ASSERT_TRUE(result.converged) << result.message << " at q = " << q.transpose();
    ASSERT_FALSE(result.solutions.empty());
    double nearest = 1e9;
    for (const JointVector& s : result.solutions) {
      const Pose reached = chain.fk(s);
      EXPECT_LE((reached.translation() - target.translation()).norm(), 1e-9) << s.transpose();
      EXPECT_LE(orientation_error(reached, target), 1e-9) << s.transpose();
      JointVector d = s - q;
      for (int i = 0; i < d.size(); ++i) d[i] = std::remainder(d[i], 2.0 * std::numbers::pi);
      nearest = std::min(nearest, d.cwiseAbs().maxCoeff());
    }
    EXPECT_LE(nearest, 1e-6) << "the original configuration is not among the solutions: "
                             << q.transpose();
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

double smallest_extent(const Geometry& g) {
  switch (g.type) {
    case Geometry::Type::Box:
      return g.box_size.minCoeff();
    case Geometry::Type::Cylinder:
      return std::min(g.radius, g.length);
    case Geometry::Type::Sphere:
      return g.radius;
    case Geometry::Type::Mesh:
      return g.mesh_scale.minCoeff();
  }
  return 0.0;
}

TEST_P(BuiltinRobot, GeometryIsPrimitivePositiveAndCoversEveryMovingLink) {
  for (const Link& link : model_->links()) {
    for (const VisualShape& v : link.visuals) {
      EXPECT_NE(v.geometry.type, Geometry::Type::Mesh)
          << link.name << ": the library uses primitives only";
      EXPECT_GT(smallest_extent(v.geometry), 0.0) << link.name << " visual";
      EXPECT_TRUE(v.material.has_value()) << link.name << " visual has no colour";
    }
    for (const CollisionShape& c : link.collisions) {
      EXPECT_NE(c.geometry.type, Geometry::Type::Mesh) << link.name;
      EXPECT_GT(smallest_extent(c.geometry), 0.0) << link.name << " collision";
    }
  }
  for (const Joint& joint : model_->joints()) {
    if (!joint.is_moving()) continue;
    const Link& child = model_->links()[static_cast<std::size_t>(joint.child_link)];
    EXPECT_FALSE(child.collisions.empty())
        << child.name << " (moved by " << joint.name << ") has no collision geometry";
    EXPECT_FALSE(child.visuals.empty()) << child.name << " has no visual geometry";
  }
  EXPECT_GE(model_->find_link("tool0"), 0) << "every built-in arm names its flange frame tool0";
}

// UR arms carry the upper arm beside the base by the shoulder offset, so the shoulder turns fully
// round with the arm straight, and the upper arm (link2) never touches the base in any pose. A
// model that kept the upper arm in the DH plane refused 43% of the UR5e's joint space as "link2 in
// the base".
TEST(BuiltinUrArm, UpperArmPassesBesideTheBase) {
  for (const char* name : {"ur3e", "ur5e", "ur10e", "ur16e"}) {
    const RobotModelPtr model = load_builtin_robot(name);
    CollisionChecker checker(model);
    std::mt19937_64 rng(3);
    const JointVector lo = model->lower_limits(), hi = model->upper_limits();
    int draws = 0, free = 0;
    for (double shoulder = -std::numbers::pi; shoulder <= std::numbers::pi; shoulder += 0.05) {
      JointVector straight = JointVector::Zero(6);
      straight[1] = shoulder;
      straight[3] = -std::numbers::pi / 2;
      EXPECT_FALSE(checker.in_collision(straight))
          << name << ", straight arm at shoulder " << shoulder;
      for (int k = 0; k < test::cases(50, 10); ++k, ++draws) {
        JointVector q(6);
        for (int j = 0; j < 6; ++j)
          q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
        q[1] = shoulder;
        const std::vector<Contact> contacts = checker.contacts(q);
        free += contacts.empty();
        for (const Contact& c : contacts)
          EXPECT_FALSE((c.body_a == "base_link" && c.body_b == "link2") ||
                       (c.body_a == "link2" && c.body_b == "base_link"))
              << name << " at " << q.transpose();
      }
    }
    EXPECT_GT(free, draws * 6 / 10) << name << ": most random poses are free of self-collision";
  }
}

INSTANTIATE_TEST_SUITE_P(Library, BuiltinRobot, ::testing::ValuesIn(library_names()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           return param.param;
                         });

}  // namespace
}  // namespace kinetic
