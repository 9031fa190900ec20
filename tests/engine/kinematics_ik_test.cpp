// Numeric IK (Levenberg–Marquardt with restarts) and the 7-DOF redundant sweep on real robots:
// convergence on reachable poses, limits, position-only, null-space objectives, reproducibility
// and typed errors.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "engine/core/error.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/kinematics/numeric_ik.hpp"
#include "engine/kinematics/sweep_ik.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

namespace kinetic {
namespace {

KinematicChain panda_chain() {
  return KinematicChain(
      load_robot_file(test::example_robot_data_dir() + "/robots/panda_description/urdf/panda.urdf"),
      "panda_link0", "panda_hand");
}

KinematicChain ur5_chain() {
  return KinematicChain(load_robot_file(test::example_robot_data_dir() +
                                        "/robots/ur_description/urdf/ur5_robot.urdf"),
                        "base_link", "tool0");
}

JointVector random_configuration(const KinematicChain& chain, std::mt19937_64& random) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const JointVector lower = chain.lower_limits(), upper = chain.upper_limits();
  JointVector q(chain.dof());
  for (int i = 0; i < q.size(); ++i) q[i] = lower[i] + unit(random) * (upper[i] - lower[i]);
  return q;
}

bool within_limits(const KinematicChain& chain, const JointVector& q) {
  return (q.array() >= chain.lower_limits().array() - 1e-12).all() &&
         (q.array() <= chain.upper_limits().array() + 1e-12).all();
}

double rotation_error(const Pose& a, const Pose& b) {
  return Eigen::AngleAxisd(Eigen::Matrix3d(a.linear().transpose() * b.linear())).angle();
}

IkOptions tight_options() {
  IkOptions options;
  options.position_tolerance = 1e-6;
  options.orientation_tolerance = 1e-6;
  options.timeout_ms = test::generous_ms(50.0);
  return options;
}

void expect_converges_on_reachable_poses(const KinematicChain& chain) {
  const NumericIkSolver solver(chain);
  const IkOptions options = tight_options();
  std::mt19937_64 random(21);
  constexpr int kPoses = 100;
  int successes = 0;
  for (int n = 0; n < kPoses; ++n) {
    const Pose target = chain.fk(random_configuration(chain, random));
    const IkResult result = solver.solve(target, chain.mid_configuration(), options);
    if (!result.converged) {
      ADD_FAILURE() << "pose " << n << ": " << result.message;
      continue;
    }
    ++successes;
    const Pose reached = chain.fk(result.q);
    EXPECT_LE((reached.translation() - target.translation()).norm(), 1e-6);
    EXPECT_LE(rotation_error(reached, target), 1e-6);
    EXPECT_LE(result.position_error, 1e-6);
    EXPECT_LE(result.orientation_error, 1e-6);
    EXPECT_TRUE(within_limits(chain, result.q));
    EXPECT_GT(result.iterations, 0);
    EXPECT_GE(result.condition_number, 1.0);
  }
  EXPECT_GE(successes, kPoses * 99 / 100);
}

TEST(NumericIk, ConvergesOnRandomReachablePosesPanda) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  expect_converges_on_reachable_poses(panda_chain());
}

TEST(NumericIk, ConvergesOnRandomReachablePosesUr5) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  expect_converges_on_reachable_poses(ur5_chain());
}

TEST(NumericIk, PositionOnlyReachesThePositionWhateverTheOrientation) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const KinematicChain chain = ur5_chain();
  const NumericIkSolver solver(chain);
  IkOptions options = tight_options();
  options.position_only = true;
  std::mt19937_64 random(4);
  int large_orientation_errors = 0;
  for (int n = 0; n < 20; ++n) {
    Pose target = chain.fk(random_configuration(chain, random));
    // An orientation no configuration near the solution has: ignored in position-only mode.
    target.linear() = rotation_from_rpy(1.0 * n, -0.5 * n, 0.3 * n);
    const IkResult result = solver.solve(target, chain.mid_configuration(), options);
    ASSERT_TRUE(result.converged) << result.message;
    EXPECT_LE((chain.fk(result.q).translation() - target.translation()).norm(), 1e-6);
    EXPECT_TRUE(within_limits(chain, result.q));
    if (result.orientation_error > 1e-3) ++large_orientation_errors;
  }
  EXPECT_GT(large_orientation_errors, 10);  // orientation was reported, not enforced
}

TEST(NumericIk, JointCenteringMovesTowardMidLimits) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const KinematicChain chain = panda_chain();
  const NumericIkSolver solver(chain);
  const JointVector mid = chain.mid_configuration();
  const JointVector range = chain.upper_limits() - chain.lower_limits();
  const auto off_centre = [&](const JointVector& q) {
    return (q - mid).cwiseQuotient(range).norm();
  };
  std::mt19937_64 random(8);
  int improved = 0;
  for (int n = 0; n < 10; ++n) {
    const JointVector truth = random_configuration(chain, random);
    const Pose target = chain.fk(truth);
    IkOptions options = tight_options();
    const IkResult plain = solver.solve(target, truth, options);  // starts converged at the seed
    options.objective = NullSpaceObjective::JointCentering;
    const IkResult centred = solver.solve(target, truth, options);
    ASSERT_TRUE(plain.converged && centred.converged) << centred.message;
    EXPECT_LE((chain.fk(centred.q).translation() - target.translation()).norm(), 1e-6);
    EXPECT_LE(rotation_error(chain.fk(centred.q), target), 1e-6);
    EXPECT_LE(off_centre(centred.q), off_centre(plain.q) + 1e-12);
    if (off_centre(centred.q) < off_centre(plain.q) - 1e-3) ++improved;
  }
  EXPECT_GE(improved, 8);
}

TEST(NumericIk, MinimalDisplacementStaysNearTheSeed) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const KinematicChain chain = panda_chain();
  const NumericIkSolver solver(chain);
  std::mt19937_64 random(10);
  std::normal_distribution<double> noise(0.0, 0.2);
  for (int n = 0; n < 10; ++n) {
    const JointVector truth = random_configuration(chain, random);
    JointVector seed = truth;
    for (int i = 0; i < seed.size(); ++i) seed[i] += noise(random);
    seed = seed.cwiseMax(chain.lower_limits()).cwiseMin(chain.upper_limits());
    const Pose target = chain.fk(truth);
    IkOptions options = tight_options();
    options.objective = NullSpaceObjective::JointCentering;  // pulls away from the seed
    const IkResult centred = solver.solve(target, seed, options);
    options.objective = NullSpaceObjective::MinimalDisplacement;
    const IkResult near = solver.solve(target, seed, options);
    options.objective = NullSpaceObjective::None;
    const IkResult plain = solver.solve(target, seed, options);
    ASSERT_TRUE(near.converged && plain.converged && centred.converged) << near.message;
    EXPECT_LE(rotation_error(chain.fk(near.q), target), 1e-6);
    EXPECT_LE((near.q - seed).norm(), (plain.q - seed).norm() + 1e-12);
    EXPECT_LE((near.q - seed).norm(), (centred.q - seed).norm() + 1e-12);
  }
}

TEST(NumericIk, ManipulabilityObjectiveIncreasesManipulability) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const KinematicChain chain = panda_chain();
  const NumericIkSolver solver(chain);
  std::mt19937_64 random(12);
  int improved = 0;
  for (int n = 0; n < 5; ++n) {
    const JointVector truth = random_configuration(chain, random);
    IkOptions options = tight_options();
    const IkResult plain = solver.solve(chain.fk(truth), truth, options);
    options.objective = NullSpaceObjective::Manipulability;
    const IkResult dexterous = solver.solve(chain.fk(truth), truth, options);
    ASSERT_TRUE(dexterous.converged) << dexterous.message;
    EXPECT_GE(chain.manipulability(dexterous.q), chain.manipulability(plain.q) - 1e-12);
    if (chain.manipulability(dexterous.q) > 1.01 * chain.manipulability(plain.q)) ++improved;
  }
  EXPECT_GE(improved, 4);
}

TEST(NumericIk, ReproducibleWithASeed) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const KinematicChain chain = panda_chain();
  const NumericIkSolver solver(chain);
  std::mt19937_64 random(14);
  IkOptions options = tight_options();
  options.random_seed = 1234;
  for (int n = 0; n < 10; ++n) {
    const Pose target = chain.fk(random_configuration(chain, random));
    const JointVector seed = random_configuration(chain, random);
    const IkResult first = solver.solve(target, seed, options);
    const IkResult second = solver.solve(target, seed, options);
    ASSERT_TRUE(first.converged);
    EXPECT_EQ(first.q, second.q);
    EXPECT_EQ(first.iterations, second.iterations);
  }
}

TEST(NumericIk, BadRequestsThrowAndUnreachableTargetsFailWithAMessage) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const KinematicChain chain = ur5_chain();
  const NumericIkSolver solver(chain);
  const JointVector seed = chain.mid_configuration();
  Pose nan_target = Pose::Identity();
  nan_target.translation().x() = std::numeric_limits<double>::quiet_NaN();
  try {
    solver.solve(nan_target, seed);
    ADD_FAILURE() << "a NaN target must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
  }
  try {
    solver.solve(Pose::Identity(), JointVector::Zero(4));
    ADD_FAILURE() << "a wrong-size seed must throw";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::DimensionMismatch);
  }
  Pose far = Pose::Identity();
  far.translation() << 4.0, 0.0, 0.5;  // the UR5 reaches about 0.85 m
  IkOptions options;
  options.timeout_ms = 2.0;
  const IkResult result = solver.solve(far, seed, options);
  EXPECT_FALSE(result.converged);
  EXPECT_FALSE(result.message.empty());
  EXPECT_GT(result.position_error, 3.0);
  EXPECT_TRUE(within_limits(chain, result.q));
}

TEST(SweepIk, ReturnsSeveralDistinctValidSolutionsForPanda) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const KinematicChain chain = panda_chain();
  const RedundantSweepIkSolver solver(chain);
  EXPECT_EQ(solver.dof(), 7);
  std::mt19937_64 random(16);
  IkOptions options = tight_options();
  // Out of reach: the sweep ends when its sub-solves converge. 100 ms found one solution of the
  // third target on a machine that stalled the process for hundreds of ms, 1000 ms four.
  options.timeout_ms = test::generous_ms(1000.0);
  for (int n = 0; n < 3; ++n) {
    const Pose target = chain.fk(random_configuration(chain, random));
    const JointVector seed = chain.mid_configuration();
    const IkResult result = solver.solve(target, seed, options);
    ASSERT_TRUE(result.converged) << result.message;
    EXPECT_GE(result.solutions.size(), 3U);
    for (std::size_t a = 0; a < result.solutions.size(); ++a) {
      const JointVector& q = result.solutions[a];
      EXPECT_LE((chain.fk(q).translation() - target.translation()).norm(), 1e-6);
      EXPECT_LE(rotation_error(chain.fk(q), target), 1e-6);
      EXPECT_TRUE(within_limits(chain, q));
      for (std::size_t b = 0; b < a; ++b)
        EXPECT_GT((q - result.solutions[b]).cwiseAbs().maxCoeff(), 0.05);
      EXPECT_LE((result.q - seed).norm(), (q - seed).norm() + 1e-12);
    }
    EXPECT_LE(result.position_error, 1e-6);
  }
}

TEST(SweepIk, RejectsNonRedundantChainsAndUnknownJoints) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  try {
    RedundantSweepIkSolver solver(ur5_chain());
    ADD_FAILURE() << "a 6-DOF chain must be rejected";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidModel);
  }
  SweepIkSettings settings;
  settings.redundant_joint = "no_such_joint";
  try {
    RedundantSweepIkSolver solver(panda_chain(), settings);
    ADD_FAILURE() << "an unknown joint must be rejected";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MissingJoint);
  }
  settings.redundant_joint = "panda_joint7";
  EXPECT_EQ(RedundantSweepIkSolver(panda_chain(), settings).redundant_index(), 6);
}

}  // namespace
}  // namespace kinetic
