// Validation finds injected violations and names the joint, time, value and limit.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/core/error.hpp"
#include "engine/trajectory/cubic_spline.hpp"
#include "engine/trajectory/scurve.hpp"
#include "engine/trajectory/time_optimal.hpp"
#include "engine/trajectory/trapezoidal.hpp"
#include "engine/trajectory/validation.hpp"

namespace kinetic {
namespace {

TrajectoryLimits limits2() {
  TrajectoryLimits limits = TrajectoryLimits::uniform(2, 1.0, 2.0, 10.0);
  limits.joint_names = {"shoulder", "elbow"};
  limits.lower << -1.0, -2.0;
  limits.upper << 1.0, 2.0;
  return limits;
}

JointVector v2(double a, double b) {
  JointVector v(2);
  v << a, b;
  return v;
}

const TrajectoryViolation* find(const TrajectoryValidationReport& r, ViolationKind kind,
                                int joint) {
  for (const auto& v : r.violations)
    if (v.kind == kind && v.joint == joint) return &v;
  return nullptr;
}

TEST(Validation, CleanTrajectoryPasses) {
  const TrajectoryLimits limits = limits2();
  const Trajectory t = scurve({v2(0, 0), v2(0.8, -1.5), v2(-0.5, 1.0)}, limits);
  const auto report = validate_trajectory(t, limits);
  EXPECT_TRUE(report.ok()) << report.summary();
  EXPECT_GT(report.states_checked, 100u);
  EXPECT_EQ(report.summary(), "ok");
}

TEST(Validation, FindsInjectedVelocityAndPositionViolations) {
  const TrajectoryLimits limits = limits2();
  const JointVector z = v2(0, 0);
  // Elbow moves too fast around t = 1 s; shoulder leaves its range at t = 2 s.
  std::vector<TrajectorySample> samples{{0.0, z, z, z},
                                        {1.0, v2(0.0, 0.5), v2(0.0, 1.6), z},
                                        {2.0, v2(1.3, 1.0), z, z},
                                        {3.0, v2(0.5, 1.0), z, z}};
  const Trajectory t("test", limits.joint_names, {}, samples);
  TrajectoryValidationOptions options;
  options.check_acceleration = options.check_jerk = false;
  const auto report = validate_trajectory(t, limits, options);
  const auto* velocity = find(report, ViolationKind::Velocity, 1);
  ASSERT_NE(velocity, nullptr) << report.summary();
  EXPECT_EQ(velocity->joint_name, "elbow");
  EXPECT_NEAR(velocity->time, 1.0, 1e-9);
  EXPECT_NEAR(velocity->value, 1.6, 1e-9);
  EXPECT_DOUBLE_EQ(velocity->limit, 1.0);
  EXPECT_LE(velocity->start_time, 1.0);
  EXPECT_GE(velocity->end_time, 1.0);
  EXPECT_NE(velocity->message.find("elbow"), std::string::npos);
  const auto* position = find(report, ViolationKind::Position, 0);
  ASSERT_NE(position, nullptr) << report.summary();
  EXPECT_EQ(position->joint_name, "shoulder");
  EXPECT_NEAR(position->time, 2.0, 0.05);
  EXPECT_GT(position->value, 1.0);
  EXPECT_DOUBLE_EQ(position->limit, 1.0);
  EXPECT_EQ(find(report, ViolationKind::Position, 1), nullptr);
  // Safety factor: 0.5 makes a 0.6 rad/s motion a violation.
  options.safety_factor = 0.5;
  const Trajectory calm("test", limits.joint_names, {},
                        {{0.0, z, v2(0.6, 0.0), z}, {1.0, v2(0.6, 0.0), v2(0.6, 0.0), z}});
  const auto strict = validate_trajectory(calm, limits, options);
  ASSERT_NE(find(strict, ViolationKind::Velocity, 0), nullptr);
  EXPECT_DOUBLE_EQ(find(strict, ViolationKind::Velocity, 0)->limit, 0.5);
}

TEST(Validation, FindsAccelerationJerkAndJumps) {
  const TrajectoryLimits limits = limits2();
  const Trajectory trapezoid = trapezoidal({v2(0, 0), v2(0.5, 0.5)}, limits);
  const auto report = validate_trajectory(trapezoid, limits);
  // Trapezoidal acceleration steps are intentional: jerk is not applicable, nothing is wrong.
  EXPECT_TRUE(report.ok()) << report.summary();
  EXPECT_FALSE(report.jerk_checked);

  const JointVector z = v2(0, 0);
  const Trajectory jumpy(
      "test", limits.joint_names, {},
      {{0.0, z, z, z}, {0.05, v2(0.0, 0.3), z, v2(0.0, 5.0)}, {1.0, v2(0.0, 0.3), z, z}});
  TrajectoryValidationOptions options;
  options.check_velocity = options.check_jerk = false;
  const auto found = validate_trajectory(jumpy, limits, options);
  const auto* jump = find(found, ViolationKind::PositionJump, 1);
  ASSERT_NE(jump, nullptr) << found.summary();
  EXPECT_DOUBLE_EQ(jump->time, 0.05);
  EXPECT_DOUBLE_EQ(jump->value, 0.3);
  EXPECT_NEAR(jump->limit, 1.0 * 0.05 + 1e-3,
              1e-12);  // what the velocity limit allows, plus tolerance
  const auto* acceleration = find(found, ViolationKind::Acceleration, 1);
  ASSERT_NE(acceleration, nullptr);
  EXPECT_GE(acceleration->time, 0.0);
  EXPECT_LE(acceleration->time, 1.0);
  EXPECT_GE(std::abs(acceleration->value), 5.0);  // the worst value in the run
  EXPECT_DOUBLE_EQ(acceleration->limit, 2.0);
  EXPECT_EQ(acceleration->joint_name, "elbow");
  EXPECT_EQ(find(found, ViolationKind::PositionJump, 0), nullptr);
}

TEST(Validation, FindsCollisionsAlongTheMotionWithNames) {
  const TrajectoryLimits limits = limits2();
  const Trajectory t = trapezoidal({v2(-0.9, 0), v2(0.9, 0)}, limits);
  TrajectoryValidationOptions options;
  options.check_jerk = false;
  // An obstacle between shoulder = 0.1 and 0.2: only reachable between samples.
  options.in_collision = [](const JointVector& q) { return q[0] > 0.1 && q[0] < 0.2; };
  options.collision_names = [](const JointVector&) { return std::string("forearm - table"); };
  const auto report = validate_trajectory(t, limits, options);
  ASSERT_EQ(report.violations.size(), 1u) << report.summary();
  const auto& hit = report.violations[0];
  EXPECT_EQ(hit.kind, ViolationKind::Collision);
  EXPECT_EQ(hit.detail, "forearm - table");
  const double q_at_hit = t.sample(hit.time).position[0];
  EXPECT_GT(q_at_hit, 0.1);
  EXPECT_LT(q_at_hit, 0.2);
  EXPECT_LT(t.sample(hit.time - 0.02).position[0], 0.1 + 0.01);
  EXPECT_NE(hit.message.find("forearm - table"), std::string::npos);
}

// A straight line at full acceleration: q̈ equals the limit up to the last bit.
Trajectory on_the_limit(double acceleration_factor) {
  const TrajectoryLimits limits = limits2();
  const double a = 2.0 * acceleration_factor, h = 0.5;
  const JointVector z = v2(0, 0);
  return Trajectory(
      "test", limits.joint_names, {},
      {{0.0, z, z, v2(a, 0.0)}, {h, v2(0.5 * a * h * h, 0.0), v2(a * h, 0.0), v2(a, 0.0)}});
}

TEST(Validation, ProfilesExactlyOnTheirLimitsPass) {
  const TrajectoryLimits limits = limits2();
  EXPECT_TRUE(validate_trajectory(on_the_limit(1.0), limits).ok());
  EXPECT_TRUE(validate_trajectory(on_the_limit(1.0 + 1e-12), limits).ok());  // rounding
  // Time-optimal and trapezoidal profiles ride on their acceleration (and velocity) limits.
  TrajectoryLimits arm =
      TrajectoryLimits::uniform(6, 3.14159265358979, 6.28318530717959, 62.8318530717959);
  JointPath path{JointVector::Zero(6)};
  for (int i = 1; i < 8; ++i)
    path.push_back(path.back() + JointVector::LinSpaced(6, 0.3, -0.2 * i));
  for (const Trajectory& t : {time_optimal(path, arm), trapezoidal(path, arm)}) {
    double peak = 0.0;
    for (const auto& s : t.samples()) peak = std::max(peak, s.acceleration.cwiseAbs().maxCoeff());
    EXPECT_NEAR(peak, arm.acceleration[0], 1e-9);  // really on the limit
    const auto report = validate_trajectory(t, arm);
    EXPECT_TRUE(report.ok()) << report.summary();
  }
}

TEST(Validation, RealOvershootStillFailsWithReadableNumbers) {
  const TrajectoryLimits limits = limits2();
  const auto report = validate_trajectory(on_the_limit(1.0 + 1e-5), limits);
  const auto* over = find(report, ViolationKind::Acceleration, 0);
  ASSERT_NE(over, nullptr) << report.summary();
  EXPECT_GT(over->value, over->limit);
  EXPECT_NE(over->message.find("2.00002"), std::string::npos) << over->message;
  EXPECT_NE(find(validate_trajectory(on_the_limit(1.01), limits), ViolationKind::Acceleration, 0),
            nullptr);
}

TEST(Validation, JerkIsNotApplicableToSteppedProfiles) {
  const TrajectoryLimits limits = limits2();
  const Trajectory stepped = trapezoidal({v2(0, 0), v2(0.5, 0.5), v2(-0.3, 0.9)}, limits);
  const auto report = validate_trajectory(stepped, limits);
  EXPECT_TRUE(report.ok()) << report.summary();
  EXPECT_EQ(find(report, ViolationKind::Jerk, 0), nullptr);
  EXPECT_FALSE(report.jerk_checked);
  ASSERT_EQ(report.notes.size(), 1u);
  EXPECT_NE(report.notes[0].find("jerk-limited profiles"), std::string::npos) << report.notes[0];
  // Jerk-limited profiles are checked.
  for (const Trajectory& smooth :
       {scurve({v2(0, 0), v2(0.5, 0.5)}, limits), cubic_spline({v2(0, 0), v2(0.5, 0.5)}, limits)}) {
    const auto checked = validate_trajectory(smooth, limits);
    EXPECT_TRUE(checked.jerk_checked);
    EXPECT_TRUE(checked.notes.empty());
    EXPECT_TRUE(checked.ok()) << checked.summary();
  }
  TrajectoryValidationOptions off;
  off.check_jerk = false;
  const auto unchecked = validate_trajectory(stepped, limits, off);
  EXPECT_FALSE(unchecked.jerk_checked);
  EXPECT_TRUE(unchecked.notes.empty());
}

TEST(Validation, FindsFiniteJerkOnContinuousProfiles) {
  const TrajectoryLimits limits = limits2();  // jerk limit 10
  // Constant jerk 38 from rest over 50 ms: acceleration 1.9 stays under its limit of 2.
  const double j = 38.0, h = 0.05;
  const JointVector z = v2(0, 0);
  const Trajectory ramp(
      "test", limits.joint_names, {},
      {{0.0, z, z, z}, {h, v2(j * h * h * h / 6, 0), v2(j * h * h / 2, 0), v2(j * h, 0)}});
  const auto report = validate_trajectory(ramp, limits);
  EXPECT_TRUE(report.jerk_checked);
  const auto* jerk = find(report, ViolationKind::Jerk, 0);
  ASSERT_NE(jerk, nullptr) << report.summary();
  EXPECT_TRUE(std::isfinite(jerk->value));
  EXPECT_NEAR(jerk->value, j, 1e-6);
  EXPECT_DOUBLE_EQ(jerk->limit, 10.0);
  EXPECT_EQ(find(report, ViolationKind::Acceleration, 0), nullptr);
  EXPECT_EQ(find(report, ViolationKind::Jerk, 1), nullptr);
}

TEST(Validation, RejectsMismatchedJoints) {
  const Trajectory t = trapezoidal({JointVector::Zero(3), JointVector::Ones(3)},
                                   TrajectoryLimits::uniform(3, 1, 1, 1));
  EXPECT_THROW(validate_trajectory(t, limits2()), Error);
}

// A trajectory read from a file may span any finite time: validating one of 1e300 s cast its step
// count to long (undefined behaviour), one of 1e7 s checked 1e10 states (hours). Both are refused
// at once, naming the option to change; so is a joint travelling 1e300 rad for the collision check.
TEST(Validation, RefusesToCheckMoreStatesThanItsBound) {
  const TrajectoryLimits limits = limits2();
  const auto two_samples = [&](double end, double travel) {
    return Trajectory(
        "r", limits.joint_names, limits.units,
        {{0.0, v2(0, 0), v2(0, 0), v2(0, 0)}, {end, v2(travel, 0), v2(0, 0), v2(0, 0)}});
  };
  for (double end : {1e7, 1e300}) {
    try {
      validate_trajectory(two_samples(end, 0.0), limits);
      ADD_FAILURE() << "no error for a trajectory of " << end << " s";
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
      EXPECT_NE(e.hint().find("time_resolution"), std::string::npos) << e.hint();
    }
  }
  TrajectoryValidationOptions options;
  options.time_resolution = 100.0;  // 1e5 states: checked
  EXPECT_NO_THROW(validate_trajectory(two_samples(1e7, 0.0), limits, options));
  options = {};
  options.in_collision = [](const JointVector&) { return false; };
  try {
    validate_trajectory(two_samples(1.0, 1e300), limits, options);
    ADD_FAILURE() << "no error for a travel of 1e300";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    EXPECT_NE(e.hint().find("collision_resolution"), std::string::npos) << e.hint();
  }
}

}  // namespace
}  // namespace kinetic
