// Trapezoidal, S-curve and cubic-spline time parameterizations, limits from a robot model, and
// sampling of the Trajectory value type.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/trajectory/cubic_spline.hpp"
#include "engine/trajectory/scurve.hpp"
#include "engine/trajectory/trapezoidal.hpp"
#include "engine/trajectory/validation.hpp"

namespace kinetic {
namespace {

TrajectoryLimits limits3() {
  TrajectoryLimits limits = TrajectoryLimits::uniform(3, 1.0, 2.0, 10.0);
  limits.velocity << 1.0, 2.0, 0.5;
  limits.acceleration << 2.0, 3.0, 1.0;
  limits.jerk << 10.0, 20.0, 8.0;
  return limits;
}

JointPath path3() {
  JointPath path;
  for (auto [a, b, c] : {std::array{0.0, 0.0, 0.0},
                         {0.6, -0.4, 0.2},
                         {0.7, 0.9, 0.25},
                         {-0.5, 1.0, 0.9},
                         {-0.5, 1.0, 0.9},
                         {0.05, 0.95, 0.9}}) {
    JointVector q(3);
    q << a, b, c;
    path.push_back(q);
  }
  return path;
}

TrajectoryValidationReport check(const Trajectory& t, const TrajectoryLimits& limits, bool jerk) {
  TrajectoryValidationOptions options;
  options.check_jerk = jerk;
  options.time_resolution = 5e-4;
  return validate_trajectory(t, limits, options);
}

TEST(Trapezoidal, SynchronisedStopsAtWaypointsWithinLimits) {
  const TrajectoryLimits limits = limits3();
  const JointPath path = path3();
  const Trajectory t = trapezoidal(path, limits);
  ASSERT_EQ(t.waypoint_times().size(), path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    const TrajectoryState s = t.sample(t.waypoint_times()[i]);
    EXPECT_TRUE(s.position.isApprox(path[i], 1e-12) || (s.position - path[i]).norm() < 1e-12) << i;
    EXPECT_LT(s.velocity.norm(), 1e-12) << "waypoint " << i;
  }
  // Straight segments: every joint is at the same fraction of its segment at any time.
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    const double t0 = t.waypoint_times()[i], t1 = t.waypoint_times()[i + 1];
    if (t1 == t0) continue;
    const JointVector delta = path[i + 1] - path[i];
    const JointVector moved = t.sample(0.3 * t0 + 0.7 * t1).position - path[i];
    double lo = 1e9, hi = -1e9;
    for (Eigen::Index j = 0; j < delta.size(); ++j) {
      if (delta[j] == 0.0) {
        EXPECT_EQ(moved[j], 0.0);
        continue;
      }
      lo = std::min(lo, moved[j] / delta[j]);
      hi = std::max(hi, moved[j] / delta[j]);
    }
    EXPECT_NEAR(lo, hi, 1e-9) << "segment " << i;
    EXPECT_GT(lo, 0.0);
  }
  EXPECT_TRUE(check(t, limits, false).ok()) << check(t, limits, false).summary();
  // Tight: each segment's limiting joint reaches its velocity or acceleration limit.
  double peak_ratio = 0.0;
  for (const auto& s : t.samples())
    peak_ratio =
        std::max(peak_ratio, (s.velocity.array().abs() / limits.velocity.array()).maxCoeff());
  EXPECT_GT(peak_ratio, 0.99);
}

TEST(Trapezoidal, SingleSegmentMatchesTheAnalyticProfile) {
  TrajectoryLimits limits = TrajectoryLimits::uniform(1, 1.0, 2.0, 10.0);
  JointVector a(1), b(1);
  a << 0.0;
  b << 3.0;  // ramp 0.5 s over 0.25, cruise 2.5 s, ramp 0.5 s
  const Trajectory t = trapezoidal({a, b}, limits);
  EXPECT_NEAR(t.duration(), 3.5, 1e-12);
  EXPECT_NEAR(t.sample(0.25).position[0], 0.5 * 2.0 * 0.25 * 0.25, 1e-12);
  EXPECT_NEAR(t.sample(0.25).velocity[0], 0.5, 1e-12);
  EXPECT_NEAR(t.sample(0.25).acceleration[0], 2.0, 1e-12);
  EXPECT_NEAR(t.sample(2.0).velocity[0], 1.0, 1e-12);
  EXPECT_NEAR(t.sample(2.0).acceleration[0], 0.0, 1e-12);
  EXPECT_NEAR(t.sample(3.25).acceleration[0], -2.0, 1e-12);
  EXPECT_NEAR(t.sample(3.25).position[0], 3.0 - 0.0625, 1e-12);
  limits.velocity_scaling = 0.5;
  EXPECT_GT(trapezoidal({a, b}, limits).duration(), 6.0);
}

TEST(SCurve, RespectsJerkVelocityAccelerationEverywhere) {
  const TrajectoryLimits limits = limits3();
  const JointPath path = path3();
  const Trajectory t = scurve(path, limits);
  const auto report = check(t, limits, true);
  EXPECT_TRUE(report.ok()) << report.summary();
  // Acceleration is continuous: no step samples.
  for (std::size_t i = 1; i < t.samples().size(); ++i)
    EXPECT_LT(t.samples()[i - 1].t, t.samples()[i].t);
  for (std::size_t i = 0; i < path.size(); ++i)
    EXPECT_LT((t.sample(t.waypoint_times()[i]).position - path[i]).norm(), 1e-12);
  // Jerk-limited is slower than trapezoidal, but not by much here.
  const double trapezoid = trapezoidal(path, limits).duration();
  EXPECT_GT(t.duration(), trapezoid);
  EXPECT_LT(t.duration(), 1.6 * trapezoid);
  // Reaches the jerk limit somewhere (the profile is the fastest one).
  double jerk_ratio = 0.0;
  for (double time = 0.0; time < t.duration(); time += 1e-3)
    jerk_ratio =
        std::max(jerk_ratio, (t.jerk(time).array().abs() / limits.jerk.array()).maxCoeff());
  EXPECT_GT(jerk_ratio, 0.99);
  EXPECT_LE(jerk_ratio, 1.0 + 1e-9);
}

TEST(SCurve, ShortMoveNeverReachesCruiseSpeed) {
  const TrajectoryLimits limits = TrajectoryLimits::uniform(1, 1.0, 2.0, 10.0);
  JointVector a = JointVector::Zero(1), b = JointVector::Constant(1, 0.01);
  const Trajectory t = scurve({a, b}, limits);
  EXPECT_TRUE(check(t, limits, true).ok());
  EXPECT_NEAR(t.samples().back().position[0], 0.01, 1e-15);
  // Pure jerk phases: 4 * (d / (2 j))^(1/3).
  EXPECT_NEAR(t.duration(), 4.0 * std::cbrt(0.01 / 20.0), 1e-9);
}

TEST(CubicSpline, PassesThroughWaypointsAtGivenTimes) {
  const TrajectoryLimits limits = limits3();
  const JointPath path = path3();
  const std::vector<double> durations{1.0, 0.5, 2.0, 0.25, 1.5};
  const Trajectory t = cubic_spline(path, durations, limits);
  double time = 0.0;
  for (std::size_t i = 0; i < path.size(); ++i) {
    EXPECT_NEAR(t.waypoint_times()[i], time, 1e-12);
    EXPECT_LT((t.sample(time).position - path[i]).norm(), 1e-12) << i;
    if (i < durations.size()) time += durations[i];
  }
  EXPECT_LT(t.samples().front().velocity.norm(), 1e-15);
  EXPECT_LT(t.samples().back().velocity.norm(), 1e-12);
  // C2 at the knots: no jump in velocity or acceleration.
  for (std::size_t i = 1; i + 1 < path.size(); ++i) {
    const double k = t.waypoint_times()[i];
    EXPECT_LT((t.sample(k - 1e-8).acceleration - t.sample(k + 1e-8).acceleration).norm(), 1e-5);
    EXPECT_LT((t.sample(k - 1e-8).velocity - t.sample(k + 1e-8).velocity).norm(), 1e-6);
  }
  EXPECT_THROW(cubic_spline(path, {1.0, 2.0}, limits), Error);
  EXPECT_THROW(cubic_spline(path, {1.0, 0.0, 1.0, 1.0, 1.0}, limits), Error);
}

TEST(CubicSpline, FittedToLimitsIsWithinThemAndTight) {
  const TrajectoryLimits limits = limits3();
  const Trajectory t = cubic_spline(path3(), limits);
  EXPECT_TRUE(check(t, limits, true).ok()) << check(t, limits, true).summary();
  TrajectoryLimits tighter = limits;
  tighter.velocity *= 0.98;
  tighter.acceleration *= 0.98;
  tighter.jerk *= 0.98;
  EXPECT_FALSE(check(t, tighter, true).ok());  // some limit is reached: the fit is not slack
}

TEST(Profiles, ContinuousSampling) {
  const TrajectoryLimits limits = limits3();
  for (const Trajectory& t :
       {trapezoidal(path3(), limits), scurve(path3(), limits), cubic_spline(path3(), limits)}) {
    const double eps = 1e-8;
    for (double time = eps; time < t.duration(); time += t.duration() / 501.0) {
      EXPECT_LT((t.sample(time + eps).position - t.sample(time - eps).position).norm(), 1e-6);
      EXPECT_LT((t.sample(time + eps).velocity - t.sample(time - eps).velocity).norm(), 1e-5);
    }
    EXPECT_EQ(t.sample(-1.0).t, 0.0);
    EXPECT_EQ(t.sample(1e9).t, t.duration());
    EXPECT_THROW(t.sample(std::nan("")), Error);
  }
}

TEST(Profiles, BadInputIsRejected) {
  const TrajectoryLimits limits = limits3();
  JointVector nan_q = JointVector::Zero(3);
  nan_q[1] = std::nan("");
  for (auto* generator : {&trapezoidal, &scurve}) {
    EXPECT_THROW(generator({}, limits), Error);
    EXPECT_THROW(generator({JointVector::Zero(3), nan_q}, limits), Error);
    EXPECT_THROW(generator({JointVector::Zero(3), JointVector::Zero(4)}, limits), Error);
    TrajectoryLimits bad = limits;
    bad.acceleration_scaling = 0.0;
    EXPECT_THROW(generator({JointVector::Zero(3), JointVector::Ones(3)}, bad), Error);
    const Trajectory still = generator({JointVector::Ones(3)}, limits);
    EXPECT_EQ(still.duration(), 0.0);
    EXPECT_EQ(still.samples().size(), 1u);
  }
  // Standing still (one waypoint, or the same one repeated: a goal where the robot already is).
  for (const JointPath& still_path :
       {JointPath{JointVector::Ones(3)}, JointPath(3, JointVector::Ones(3))}) {
    for (const Trajectory& still : {cubic_spline(still_path, limits),
                                    trapezoidal(still_path, limits), scurve(still_path, limits)}) {
      EXPECT_EQ(still.duration(), 0.0);
      ASSERT_EQ(still.samples().size(), 1u);
      EXPECT_EQ(still.sample(0.0).position, JointVector::Ones(3));
      EXPECT_EQ(still.sample(0.0).velocity, JointVector::Zero(3));
      EXPECT_EQ(still.sample(0.0).acceleration, JointVector::Zero(3));
    }
  }
  EXPECT_EQ(cubic_spline({JointVector::Ones(3)}, {}, limits).duration(), 0.0);
  TrajectoryLimits bad = limits;
  bad.jerk[2] = -1.0;
  try {
    bad.check();
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("joint_3"), std::string::npos) << e.what();
  }
}

TEST(Profiles, SlowestScalingStaysWithinItsOwnLimits) {
  // At the slowest scaling accepted, motions last a thousand times longer and the jerk phases of
  // S-curves are microseconds long, thousands of seconds in: rounding must not break a limit.
  TrajectoryLimits slow = limits3();
  slow.velocity_scaling = slow.acceleration_scaling = kMinScaling;
  for (const Trajectory& t :
       {trapezoidal(path3(), slow), scurve(path3(), slow), cubic_spline(path3(), slow)}) {
    EXPECT_GT(t.duration(), 100.0);
    TrajectoryValidationOptions options;
    options.time_resolution = t.duration() / 4000.0;
    const TrajectoryValidationReport report = validate_trajectory(t, slow, options);
    EXPECT_TRUE(report.ok()) << report.summary();
  }
  TrajectoryLimits slower = slow;
  slower.velocity_scaling = kMinScaling / 2;
  EXPECT_THROW(scurve(path3(), slower), Error);
}

TEST(TrajectoryLimitsFromModel, ReadsLimitsUnitsAndDefaults) {
  const std::string urdf = R"(<robot name="slider_arm">
    <link name="base"/><link name="a"/><link name="b"/><link name="c"/>
    <joint name="lift" type="prismatic"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
      <limit lower="0" upper="0.5" velocity="0.2" effort="10"/></joint>
    <joint name="turn" type="continuous"><parent link="a"/><child link="b"/><axis xyz="0 0 1"/>
      <limit velocity="1.5" effort="10"/></joint>
    <joint name="bend" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 1 0"/>
      <limit lower="-1" upper="1" velocity="2" effort="10"/></joint>
  </robot>)";
  const RobotModelPtr model = load_robot_string(urdf);
  const TrajectoryLimits limits = TrajectoryLimits::from_model(*model);
  ASSERT_EQ(limits.dof(), 3);
  EXPECT_EQ(limits.robot, "slider_arm");
  EXPECT_EQ(limits.joint_names, (std::vector<std::string>{"lift", "turn", "bend"}));
  EXPECT_EQ(limits.units[0], PositionUnit::Metre);
  EXPECT_EQ(limits.units[2], PositionUnit::Radian);
  EXPECT_DOUBLE_EQ(limits.velocity[2], 2.0);
  EXPECT_DOUBLE_EQ(limits.acceleration[2], kDefaultAccelerationFactor * 2.0);
  EXPECT_DOUBLE_EQ(limits.jerk[2], kDefaultJerkFactor * kDefaultAccelerationFactor * 2.0);
  EXPECT_TRUE(std::isinf(limits.upper[1]));
  EXPECT_DOUBLE_EQ(limits.upper[0], 0.5);
  const TrajectoryLimits group = TrajectoryLimits::from_model(*model, {2, 0});
  EXPECT_EQ(group.joint_names, (std::vector<std::string>{"bend", "lift"}));
  const Trajectory t = trapezoidal({JointVector::Zero(3), JointVector::Constant(3, 0.4)}, limits);
  EXPECT_EQ(t.robot(), "slider_arm");
  EXPECT_EQ(t.units()[0], PositionUnit::Metre);
}

}  // namespace
}  // namespace kinetic
