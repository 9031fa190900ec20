// Analytic IK (OPW and UR): every returned solution reproduces the pose, the original
// configuration is among the solutions, limits and the continuing mode behave, and the factory
// picks the right solver per robot.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <random>
#include <sstream>
#include <string>

#include "engine/core/error.hpp"
#include "engine/kinematics/ik_factory.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/opw_ik.hpp"
#include "engine/kinematics/ur_ik.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kPoseTolerance = 1e-9;  // m and rad
constexpr int kSamples = 1000;

// Published OPW parameter sets (the ROS opw_kinematics package's test robots and the
// manufacturers' data sheets), in metres and radians.
OpwParameters kuka_kr6_r700_sixx() {
  OpwParameters p;
  p.a1 = 0.025;
  p.a2 = -0.035;
  p.b = 0.0;
  p.c1 = 0.400;
  p.c2 = 0.315;
  p.c3 = 0.365;
  p.c4 = 0.080;
  p.offsets = {0.0, -kPi / 2, 0.0, 0.0, 0.0, 0.0};
  p.sign_corrections = {-1, 1, 1, -1, 1, -1};
  return p;
}

OpwParameters abb_irb2400() {
  OpwParameters p;
  p.a1 = 0.100;
  p.a2 = -0.135;
  p.b = 0.0;
  p.c1 = 0.615;
  p.c2 = 0.705;
  p.c3 = 0.755;
  p.c4 = 0.085;
  p.offsets = {0.0, 0.0, -kPi / 2, 0.0, 0.0, 0.0};
  return p;
}

OpwParameters fanuc_lr_mate_200id() {
  OpwParameters p;
  p.a1 = 0.050;
  p.a2 = -0.035;
  p.b = 0.0;
  p.c1 = 0.330;
  p.c2 = 0.330;
  p.c3 = 0.335;
  p.c4 = 0.080;
  p.offsets = {0.0, 0.0, -kPi / 2, 0.0, 0.0, 0.0};
  p.sign_corrections = {1, 1, -1, -1, -1, -1};
  return p;
}

// A non-zero lateral offset b exercises the shoulder geometry the three arms above don't.
OpwParameters offset_shoulder_arm() {
  OpwParameters p = abb_irb2400();
  p.b = 0.05;
  return p;
}

UrParameters ur3() {
  return {0.1519, -0.24365, -0.21325, 0.11235, 0.08535, 0.0819};
}
UrParameters ur5() {
  return {0.089159, -0.425, -0.39225, 0.10915, 0.09465, 0.0823};
}
UrParameters ur10() {
  return {0.1273, -0.612, -0.5723, 0.163941, 0.1157, 0.0922};
}

Vector6 random_configuration(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> angle(-kPi, kPi);
  Vector6 q;
  for (int j = 0; j < 6; ++j) q[j] = angle(rng);
  return q;
}

bool same_angles(const Vector6& a, const Vector6& b, double tolerance) {
  for (int j = 0; j < 6; ++j)
    if (std::abs(wrap_angle(a[j] - b[j])) > tolerance) return false;
  return true;
}

bool among(const AnalyticSolutions& solutions, const Vector6& q, double tolerance) {
  for (int s = 0; s < solutions.count; ++s)
    if (same_angles(solutions.q[static_cast<std::size_t>(s)], q, tolerance)) return true;
  return false;
}

// OPW singularities: wrist (sin theta5 = 0), elbow stretched/folded, wrist centre over J1's axis.
bool opw_well_conditioned(const OpwParameters& p, const Vector6& q) {
  const double theta3 = q[2] * p.sign_corrections[2] - p.offsets[2];
  const double theta5 = q[4] * p.sign_corrections[4] - p.offsets[4];
  const double elbow = theta3 + std::atan2(p.a2, p.c3);
  const Pose flange = opw_forward(p, q);
  const Vector3 centre = flange.translation() - p.c4 * flange.linear().col(2);
  return std::abs(std::sin(theta5)) > 0.05 && std::abs(std::sin(elbow)) > 0.05 &&
         std::hypot(centre.x(), centre.y()) > std::abs(p.b) + 0.05;
}

bool ur_well_conditioned(const UrParameters& p, const Vector6& q) {
  const Pose flange = ur_forward(p, q);
  const Vector3 wrist = flange.translation() - p.d6 * flange.linear().col(2);
  return std::abs(std::sin(q[4])) > 0.05 && std::abs(std::sin(q[2])) > 0.05 &&
         std::hypot(wrist.x(), wrist.y()) > std::abs(p.d4) + 0.02;
}

struct OpwCase {
  const char* name;
  OpwParameters params;
};

class OpwRoundTrip : public ::testing::TestWithParam<OpwCase> {};

TEST_P(OpwRoundTrip, EverySolutionReproducesThePoseAndTheOriginalIsAmongThem) {
  const OpwParameters& p = GetParam().params;
  std::mt19937_64 rng(7);
  int tested = 0, total_solutions = 0;
  while (tested < kSamples) {
    const Vector6 q = random_configuration(rng);
    if (!opw_well_conditioned(p, q)) continue;
    ++tested;
    const Pose target = opw_forward(p, q);
    const AnalyticSolutions solutions = opw_inverse(p, target);
    ASSERT_GE(solutions.count, 2) << "q = " << q.transpose();
    ASSERT_EQ(solutions.count % 2, 0) << "wrist solutions come in flipped pairs";
    total_solutions += solutions.count;
    for (int s = 0; s < solutions.count; ++s) {
      const PoseDistance error = pose_distance(opw_forward(p, solutions.q[s]), target);
      ASSERT_LE(error.position, kPoseTolerance) << "solution " << s << " of q = " << q.transpose();
      ASSERT_LE(error.orientation, kPoseTolerance)
          << "solution " << s << " of q = " << q.transpose();
    }
    ASSERT_TRUE(among(solutions, q, 1e-7)) << "q = " << q.transpose();
  }
  // Most random poses of these arms have all 8 solutions (both shoulders reach).
  EXPECT_GT(total_solutions, 4 * kSamples);
}

INSTANTIATE_TEST_SUITE_P(PublishedArms, OpwRoundTrip,
                         ::testing::Values(OpwCase{"KukaKr6R700Sixx", kuka_kr6_r700_sixx()},
                                           OpwCase{"AbbIrb2400", abb_irb2400()},
                                           OpwCase{"FanucLrMate200iD", fanuc_lr_mate_200id()},
                                           OpwCase{"OffsetShoulder", offset_shoulder_arm()}),
                         [](const auto& case_info) { return std::string(case_info.param.name); });

TEST(OpwForward, MatchesTheKr6PublishedGeometryAtHome) {
  // KUKA home A2 = -90°, A3 = +90°: the upper arm up, the forearm horizontal, flange forward.
  const OpwParameters p = kuka_kr6_r700_sixx();
  Vector6 home;
  home << 0.0, -kPi / 2, kPi / 2, 0.0, 0.0, 0.0;
  const Pose flange = opw_forward(p, home);
  EXPECT_NEAR(flange.translation().x(), p.a1 + p.c3 + p.c4, 1e-12);
  EXPECT_NEAR(flange.translation().y(), 0.0, 1e-12);
  EXPECT_NEAR(flange.translation().z(), p.c1 + p.c2 - p.a2, 1e-12);
}

struct UrCase {
  const char* name;
  UrParameters params;
};

class UrRoundTrip : public ::testing::TestWithParam<UrCase> {};

TEST_P(UrRoundTrip, EverySolutionReproducesThePoseAndTheOriginalIsAmongThem) {
  const UrParameters& p = GetParam().params;
  std::mt19937_64 rng(11);
  int tested = 0, total_solutions = 0;
  while (tested < kSamples) {
    const Vector6 q = random_configuration(rng);
    if (!ur_well_conditioned(p, q)) continue;
    ++tested;
    const Pose target = ur_forward(p, q);
    const AnalyticSolutions solutions = ur_inverse(p, target);
    ASSERT_GE(solutions.count, 2) << "q = " << q.transpose();
    total_solutions += solutions.count;
    for (int s = 0; s < solutions.count; ++s) {
      const PoseDistance error = pose_distance(ur_forward(p, solutions.q[s]), target);
      ASSERT_LE(error.position, kPoseTolerance) << "solution " << s << " of q = " << q.transpose();
      ASSERT_LE(error.orientation, kPoseTolerance)
          << "solution " << s << " of q = " << q.transpose();
    }
    ASSERT_TRUE(among(solutions, q, 1e-7)) << "q = " << q.transpose();
  }
  EXPECT_GT(total_solutions, 4 * kSamples);
}

INSTANTIATE_TEST_SUITE_P(PublishedArms, UrRoundTrip,
                         ::testing::Values(UrCase{"UR3", ur3()}, UrCase{"UR5", ur5()},
                                           UrCase{"UR10", ur10()}),
                         [](const auto& case_info) { return std::string(case_info.param.name); });

// ---- Solver behaviour (bare analytic models) ----

TEST(OpwIkSolver, ReturnsAllSolutionsSortedByDistanceFromTheSeedWithTheSeedFirst) {
  const OpwIkSolver solver(kuka_kr6_r700_sixx());
  Vector6 q;
  q << 0.3, -1.2, 1.1, 0.4, 0.9, -0.5;
  const IkResult result = solver.solve(opw_forward(solver.parameters(), q), q);
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_EQ(result.solutions.size(), 8u);
  EXPECT_LT((result.q - q).norm(), 1e-9);
  EXPECT_LE(result.position_error, kPoseTolerance);
  EXPECT_LE(result.orientation_error, kPoseTolerance);
  EXPECT_GT(result.condition_number, 1.0);
  for (std::size_t s = 1; s < result.solutions.size(); ++s)
    EXPECT_LE((result.solutions[s - 1] - q).norm(), (result.solutions[s] - q).norm());
  for (const JointVector& solution : result.solutions)
    for (int j = 0; j < 6; ++j) {
      EXPECT_GT(solution[j], -kPi - 1e-12);
      EXPECT_LE(solution[j], kPi + 1e-12);
    }
}

TEST(OpwIkSolver, UnreachablePoseFailsWithAMessage) {
  const OpwIkSolver solver(abb_irb2400());
  Pose far_away = Pose::Identity();
  far_away.translation() << 5.0, 0.0, 1.0;
  const IkResult result = solver.solve(far_away, JointVector::Zero(6));
  EXPECT_FALSE(result.converged);
  EXPECT_TRUE(result.solutions.empty());
  EXPECT_NE(result.message.find("out of reach"), std::string::npos) << result.message;
}

TEST(OpwIkSolver, RejectsBadSeedsAndTargets) {
  const OpwIkSolver solver(abb_irb2400());
  EXPECT_THROW(solver.solve(Pose::Identity(), JointVector::Zero(5)), Error);
  JointVector nan_seed = JointVector::Zero(6);
  nan_seed[2] = std::nan("");
  EXPECT_THROW(solver.solve(Pose::Identity(), nan_seed), Error);
  Pose bad = Pose::Identity();
  bad.translation().x() = std::numeric_limits<double>::infinity();
  EXPECT_THROW(solver.solve(bad, JointVector::Zero(6)), Error);
}

TEST(OpwIkSolver, LimitFilteringDropsSolutionsOutsideTheLimits) {
  const OpwParameters p = abb_irb2400();
  Vector6 q;
  q << 0.2, 0.3, 0.4, 0.5, 0.6, 0.7;
  const Pose target = opw_forward(p, q);
  const IkResult unlimited = OpwIkSolver(p).solve(target, q);
  ASSERT_EQ(unlimited.solutions.size(), 8u);

  // J1 within ±1 rad removes the four backward-reaching solutions.
  JointVector lower = JointVector::Constant(6, -kPi), upper = JointVector::Constant(6, kPi);
  lower[0] = -1.0;
  upper[0] = 1.0;
  const IkResult limited = OpwIkSolver(p, lower, upper).solve(target, q);
  ASSERT_TRUE(limited.converged) << limited.message;
  EXPECT_EQ(limited.solutions.size(), 4u);
  for (const JointVector& solution : limited.solutions) {
    EXPECT_GE(solution[0], -1.0);
    EXPECT_LE(solution[0], 1.0);
  }
  // respect_limits = false brings them back.
  IkOptions options;
  options.respect_limits = false;
  EXPECT_EQ(OpwIkSolver(p, lower, upper).solve(target, q, options).solutions.size(), 8u);

  // Limits no solution satisfies: a clear failure.
  lower[0] = 2.0;
  upper[0] = 2.5;
  const IkResult none = OpwIkSolver(p, lower, upper).solve(target, q);
  EXPECT_FALSE(none.converged);
  EXPECT_NE(none.message.find("outside the joint limits"), std::string::npos) << none.message;
}

TEST(OpwIkSolver, ShiftsBy2PiTowardTheSeedWhereTheLimitsAllow) {
  const OpwParameters p = abb_irb2400();
  JointVector lower = JointVector::Constant(6, -kPi), upper = JointVector::Constant(6, kPi);
  lower[5] = -2 * kPi;
  upper[5] = 2 * kPi;
  Vector6 q;
  q << 0.2, 0.3, 0.4, 0.5, 0.6, 4.0;  // J6 beyond pi: reachable only through the wide limit
  const IkResult result = OpwIkSolver(p, lower, upper).solve(opw_forward(p, q), q);
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_LT((result.q - q).norm(), 1e-9);
}

// At J5 = 0 only J4 + J6 (OPW angles) is determined: continuing mode keeps both near the
// previous values instead of putting the whole turn into one of them.
TEST(OpwIkSolver, ContinuingModeKeepsJ4AndJ6NearThePreviousValuesAtTheWristSingularity) {
  const OpwParameters p = kuka_kr6_r700_sixx();
  const OpwIkSolver solver(p);
  Vector6 previous;
  previous << 0.3, -1.4, 1.2, 1.1, 0.05, -0.9;  // approaching the singularity
  Vector6 singular = previous;
  singular[3] += 0.04;  // the pose at J5 = 0 with J4 + J6 turned a little
  singular[4] = 0.0;
  singular[5] -= 0.02;
  const Pose target = opw_forward(p, singular);
  const IkResult result = solver.solve_continuing(target, previous);
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_LE(result.position_error, kPoseTolerance);
  EXPECT_LE(result.orientation_error, kPoseTolerance);
  EXPECT_NEAR(result.q[4], 0.0, 1e-9);
  EXPECT_LT(std::abs(result.q[3] - previous[3]), 0.1) << result.q.transpose();
  EXPECT_LT(std::abs(result.q[5] - previous[5]), 0.1) << result.q.transpose();

  // Without the previous values the split is arbitrary (here J4 = 0): far from the previous J4.
  const AnalyticSolutions unhinted = opw_inverse(p, target);
  ASSERT_GE(unhinted.count, 1);
  EXPECT_GT(std::abs(wrap_angle(unhinted.q[0][3] - previous[3])), 0.5);

  // J5 = ±pi is the same kind of singularity.
  Vector6 flipped = singular;
  flipped[4] = kPi;
  const IkResult at_pi = solver.solve_continuing(opw_forward(p, flipped), flipped);
  ASSERT_TRUE(at_pi.converged) << at_pi.message;
  EXPECT_LE(at_pi.position_error, kPoseTolerance);
  EXPECT_LE(at_pi.orientation_error, kPoseTolerance);
  EXPECT_LT(std::abs(wrap_angle(at_pi.q[3] - flipped[3])), 1e-9);
  EXPECT_LT(std::abs(wrap_angle(at_pi.q[5] - flipped[5])), 1e-9);
}

TEST(UrIkSolver, KeepsJ6AtTheWristSingularityAndReproducesThePose) {
  const UrParameters p = ur5();
  const UrIkSolver solver(p);
  Vector6 q;
  q << 0.4, -1.2, 1.3, -0.7, 0.0, 0.8;
  const IkResult result = solver.solve_continuing(ur_forward(p, q), q);
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_LE(result.position_error, kPoseTolerance);
  EXPECT_LE(result.orientation_error, kPoseTolerance);
  EXPECT_LT((result.q - q).norm(), 1e-9);
}

TEST(UrIkSolver, AtTheWristSingularityNearFullReachJ6TurnsSoTheArmReaches) {
  // Stretched out at zero (J5 = 0: the wrist is singular), the TCP lifted 5 cm: with J6 kept at
  // the seed's 0 joint 4 sits where the arm falls short, though the pose is reachable.
  const UrParameters p = ur5();
  const UrIkSolver solver(p);
  const Vector6 zero = Vector6::Zero();
  Pose lifted = ur_forward(p, zero);
  lifted.translation().z() += 0.05;
  const IkResult result = solver.solve(lifted, JointVector::Zero(6));
  ASSERT_TRUE(result.converged) << result.message;
  EXPECT_LE(result.position_error, kPoseTolerance);
  EXPECT_LE(result.orientation_error, kPoseTolerance);
  // The nearest reaching J6 (a degree or so), not a far wrist: every joint moves little.
  EXPECT_LT(result.q.cwiseAbs().maxCoeff(), 0.3) << result.q.transpose();
  // Beyond the arm's reach whatever J6 is: still unreachable, with the reason.
  Pose beyond = ur_forward(p, zero);
  beyond.translation().x() += (beyond.translation().x() > 0 ? 0.2 : -0.2);  // more than d5 farther
  const IkResult out = solver.solve(beyond, JointVector::Zero(6));
  EXPECT_FALSE(out.converged);
  EXPECT_NE(out.message.find("out of reach"), std::string::npos) << out.message;
}

TEST(UrIkSolver, UnreachablePoseFailsWithAMessage) {
  const UrIkSolver solver(ur5());
  Pose far_away = Pose::Identity();
  far_away.translation() << 2.0, 0.5, 0.3;
  const IkResult result = solver.solve(far_away, JointVector::Zero(6));
  EXPECT_FALSE(result.converged);
  EXPECT_NE(result.message.find("out of reach"), std::string::npos) << result.message;
}

// ---- On URDF chains: the real UR3/UR5/UR10 files and the built-in library ----

std::string ur_description_file(const std::string& name) {
  return test::example_robot_data_dir() + "/robots/ur_description/urdf/" + name;
}

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

JointVector random_within(std::mt19937_64& rng, const KinematicChain& chain) {
  const JointVector lower = chain.lower_limits(), upper = chain.upper_limits();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  JointVector q(chain.dof());
  for (int j = 0; j < q.size(); ++j) q[j] = lower[j] + unit(rng) * (upper[j] - lower[j]);
  return q;
}

// The chain-level contract: for random non-singular configurations within the limits, every
// solution reproduces the chain's own FK ≤ 1e-9, the original is found (exactly when it seeds the
// solver, modulo 2π from a zero seed), and every solution is within the limits.
template <typename WellConditioned>
void expect_round_trips_on_chain(const IkSolver& solver, const KinematicChain& chain,
                                 WellConditioned well_conditioned, int samples) {
  std::mt19937_64 rng(13);
  const JointVector lower = chain.lower_limits(), upper = chain.upper_limits();
  int tested = 0;
  while (tested < samples) {
    const JointVector q = random_within(rng, chain);
    if (!well_conditioned(q)) continue;
    ++tested;
    const Pose target = chain.fk(q);
    const IkResult seeded = solver.solve(target, q);
    ASSERT_TRUE(seeded.converged) << seeded.message << " q = " << q.transpose();
    ASSERT_LT((seeded.q - q).cwiseAbs().maxCoeff(), 1e-7) << "q = " << q.transpose();
    for (const JointVector& solution : seeded.solutions) {
      const PoseDistance error = pose_distance(chain.fk(solution), target);
      ASSERT_LE(error.position, kPoseTolerance) << "q = " << q.transpose();
      ASSERT_LE(error.orientation, kPoseTolerance) << "q = " << q.transpose();
      ASSERT_TRUE(
          ((solution.array() >= lower.array() - 1e-9) && (solution.array() <= upper.array() + 1e-9))
              .all());
    }
    const IkResult from_zero = solver.solve(target, JointVector::Zero(6));
    ASSERT_TRUE(from_zero.converged) << from_zero.message;
    bool found = false;
    for (const JointVector& solution : from_zero.solutions)
      found = found || same_angles(solution, q, 1e-7);
    ASSERT_TRUE(found) << "q = " << q.transpose();
  }
}

struct UrUrdfCase {
  const char* file;
  UrParameters published;
};

class UrOnUrdf : public ::testing::TestWithParam<UrUrdfCase> {};

TEST_P(UrOnUrdf, DerivesTheDhParametersAndSolvesOnTheChain) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const RobotModelPtr model = load_robot_file(ur_description_file(GetParam().file));
  const KinematicChain chain(model, "base_link", "tool0");
  std::string why;
  const auto derived = derive_ur_parameters(chain, &why);
  ASSERT_TRUE(derived) << why;
  const UrParameters& p = GetParam().published;
  EXPECT_NEAR(derived->d1, p.d1, 1e-9);
  EXPECT_NEAR(derived->a2, p.a2, 1e-9);
  EXPECT_NEAR(derived->a3, p.a3, 1e-9);
  EXPECT_NEAR(derived->d4, p.d4, 1e-9);
  EXPECT_NEAR(derived->d5, p.d5, 1e-9);
  EXPECT_NEAR(derived->d6, p.d6, 1e-9);

  const UrIkSolver solver(*derived, chain);
  // The URDF's base_link is turned by pi about z against the DH base frame: the adapter says so.
  EXPECT_NEAR(std::abs(Eigen::AngleAxisd(solver.frames().base.linear()).angle()), kPi, 1e-9);
  expect_round_trips_on_chain(
      solver, chain, [&](const JointVector& q) { return ur_well_conditioned(*derived, q); },
      kSamples);
}

INSTANTIATE_TEST_SUITE_P(RealRobots, UrOnUrdf,
                         ::testing::Values(UrUrdfCase{"ur3_robot.urdf", ur3()},
                                           UrUrdfCase{"ur5_robot.urdf", ur5()},
                                           UrUrdfCase{"ur10_robot.urdf", ur10()}),
                         [](const auto& case_info) {
                           const std::string file = case_info.param.file;
                           return file.substr(0, file.find('_'));
                         });

TEST(UrOnUrdf, ToolOffsetOfTheEndEffectorIsPartOfTheSolvedPose) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string toml = R"(
[planning_group.arm]
chain = ["base_link", "tool0"]
[end_effector.gripper]
group = "arm"
parent_link = "tool0"
tcp_xyz = [0.0, 0.02, 0.15]
tcp_rpy = [0.0, 0.3, 0.0]
)";
  const std::string urdf = ur_description_file("ur5_robot.urdf");
  const RobotModelPtr model =
      load_robot_string(read_text(urdf), "", toml, test::example_robot_data_dir());
  const IkSolverPtr solver = make_ik_solver(model);
  EXPECT_EQ(solver->name(), "ur");
  const KinematicChain chain = KinematicChain::from_config(model);
  expect_round_trips_on_chain(
      *solver, chain, [&](const JointVector& q) { return ur_well_conditioned(ur5(), q); }, 200);
}

class BuiltinOpw : public ::testing::TestWithParam<std::string> {};

TEST_P(BuiltinOpw, FactoryBuildsOpwAndItRoundTripsOnTheChain) {
  const RobotModelPtr model = load_builtin_robot(GetParam());
  ASSERT_TRUE(model->config().ik.opw);
  const IkSolverPtr solver = make_ik_solver(model);
  ASSERT_EQ(solver->name(), "opw");
  const KinematicChain chain = KinematicChain::from_config(model);
  const OpwParameters p = *model->config().ik.opw;
  expect_round_trips_on_chain(
      *solver, chain, [&](const JointVector& q) { return opw_well_conditioned(p, q); }, kSamples);
}

INSTANTIATE_TEST_SUITE_P(Library, BuiltinOpw,
                         ::testing::Values("kr6_r700_sixx", "irb2400", "irb4600", "lrmate200id"));

class BuiltinUr : public ::testing::TestWithParam<std::string> {};

TEST_P(BuiltinUr, FactoryBuildsUrAndTheTableMatchesTheUrdf) {
  const RobotModelPtr model = load_builtin_robot(GetParam());
  ASSERT_TRUE(model->config().ik.ur);
  const IkSolverPtr solver = make_ik_solver(model);
  ASSERT_EQ(solver->name(), "ur");
  const KinematicChain chain = KinematicChain::from_config(model);
  std::string why;
  const auto derived = derive_ur_parameters(chain, &why);
  ASSERT_TRUE(derived) << why;
  const UrParameters& table = *model->config().ik.ur;
  EXPECT_NEAR(derived->a2, table.a2, 1e-9);
  EXPECT_NEAR(derived->a3, table.a3, 1e-9);
  EXPECT_NEAR(derived->d4, table.d4, 1e-9);
  EXPECT_NEAR(derived->d5, table.d5, 1e-9);
  expect_round_trips_on_chain(
      *solver, chain, [&](const JointVector& q) { return ur_well_conditioned(table, q); },
      kSamples);
}

INSTANTIATE_TEST_SUITE_P(Library, BuiltinUr, ::testing::Values("ur3e", "ur5e", "ur10e", "ur16e"));

// ---- Factory ----

RobotModelPtr ur5_with(const std::string& ik_toml) {
  const std::string toml = "[planning_group.arm]\nchain = [\"base_link\", \"tool0\"]\n" + ik_toml;
  return load_robot_string(read_text(ur_description_file("ur5_robot.urdf")), "", toml,
                           test::example_robot_data_dir());
}

template <typename Call>
Error expect_error(Call call) {
  try {
    call();
  } catch (const Error& error) {
    return error;
  }
  ADD_FAILURE() << "no kinetic::Error thrown";
  return Error(ErrorCode::InvalidValue, "");
}

TEST(IkFactory, PicksTheSolverPerBuiltinRobot) {
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"kr6_r700_sixx", "opw"}, {"irb4600", "opw"}, {"ur5e", "ur"},    {"ur16e", "ur"},
      {"panda", "sweep"},       {"iiwa7", "sweep"}, {"gen3", "sweep"}, {"xarm6", "numeric"}};
  for (const auto& [robot, solver] : expected) {
    const IkSolverPtr built = make_ik_solver(load_builtin_robot(robot));
    EXPECT_EQ(built->name(), solver) << robot;
    EXPECT_EQ(built->dof(), solver == "sweep" ? 7 : 6) << robot;
  }
}

TEST(IkFactory, AutoDetectsAUrShapedUrdfAndFallsBackToNumericOrSweep) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  EXPECT_EQ(make_ik_solver(ur5_with(""))->name(), "ur");
  EXPECT_EQ(make_ik_solver(ur5_with("[ik]\nsolver = \"numeric\"\n"))->name(), "numeric");
  const std::string panda =
      test::example_robot_data_dir() + "/robots/panda_description/urdf/panda.urdf";
  const RobotModelPtr panda_model = load_robot_string(
      read_text(panda), "", "[planning_group.arm]\nchain = [\"panda_link0\", \"panda_link8\"]\n",
      test::example_robot_data_dir());
  EXPECT_EQ(make_ik_solver(panda_model)->name(), "sweep");
  // A 6-DOF chain that is not UR-shaped (the Panda without its last joint): numeric.
  const RobotModelPtr panda6 = load_robot_string(
      read_text(panda), "", "[planning_group.arm]\nchain = [\"panda_link0\", \"panda_link6\"]\n",
      test::example_robot_data_dir());
  EXPECT_EQ(make_ik_solver(panda6)->name(), "numeric");
  const Error not_ur = expect_error([&] {
    make_ik_solver(load_robot_string(read_text(panda), "",
                                     "[planning_group.arm]\nchain = [\"panda_link0\", "
                                     "\"panda_link6\"]\n[ik]\nsolver = \"ur\"\n",
                                     test::example_robot_data_dir()));
  });
  EXPECT_EQ(not_ur.code(), ErrorCode::InvalidValue);
  EXPECT_NE(not_ur.message().find("not UR-shaped"), std::string::npos) << not_ur.message();
}

TEST(IkFactory, RejectsSolversTheRobotCannotUse) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const Error no_opw = expect_error([] { make_ik_solver(ur5_with("[ik]\nsolver = \"opw\"\n")); });
  EXPECT_EQ(no_opw.code(), ErrorCode::InvalidValue);
  EXPECT_NE(no_opw.message().find("[ik.opw]"), std::string::npos) << no_opw.message();
  EXPECT_FALSE(no_opw.hint().empty());

  const Error sweep6 = expect_error([] { make_ik_solver(ur5_with("[ik]\nsolver = \"sweep\"\n")); });
  EXPECT_EQ(sweep6.code(), ErrorCode::InvalidValue);
  EXPECT_NE(sweep6.message().find("7-joint"), std::string::npos) << sweep6.message();

  // OPW parameters that do not describe this robot: caught when the frames are measured.
  const Error mismatch = expect_error([] {
    make_ik_solver(
        ur5_with("[ik]\nsolver = \"opw\"\n[ik.opw]\na1 = 0.1\na2 = -0.135\nb = 0.0\nc1 = 0.615\n"
                 "c2 = 0.705\nc3 = 0.755\nc4 = 0.085\n"));
  });
  EXPECT_EQ(mismatch.code(), ErrorCode::InvalidModel);
  EXPECT_NE(mismatch.message().find("differs from the analytic model"), std::string::npos)
      << mismatch.message();

  // Wrong UR lengths are caught the same way.
  const Error wrong_ur = expect_error([] {
    make_ik_solver(
        ur5_with("[ik]\nsolver = \"ur\"\n[ik.ur]\nd1 = 0.089159\na2 = -0.425\n"
                 "a3 = -0.39225\nd4 = 0.2\nd5 = 0.09465\nd6 = 0.0823\n"));
  });
  EXPECT_EQ(wrong_ur.code(), ErrorCode::InvalidModel);
}

TEST(IkFactory, RejectsANullModel) {
  EXPECT_THROW(make_ik_solver(nullptr), Error);
}

}  // namespace
}  // namespace kinetic
