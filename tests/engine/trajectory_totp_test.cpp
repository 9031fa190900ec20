// Time-optimal path parameterization: limits at every instant, optimality against an analytic
// optimum (straight line) and a brute-force fine-grid phase-plane solver (multi-waypoint paths),
// blending without stopping.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/core/error.hpp"
#include "engine/trajectory/blended_path.hpp"
#include "engine/trajectory/blending.hpp"
#include "engine/trajectory/clear_time_optimal.hpp"
#include "engine/trajectory/phase_plane_reference.hpp"
#include "engine/trajectory/time_optimal.hpp"
#include "engine/trajectory/validation.hpp"

namespace kinetic {
namespace {

TrajectoryLimits arm_limits() {
  TrajectoryLimits limits = TrajectoryLimits::uniform(6, 1.0, 2.0, 20.0);
  limits.velocity << 2.0, 2.0, 3.0, 3.2, 3.2, 3.2;
  limits.acceleration << 4.0, 3.0, 5.0, 6.0, 6.0, 8.0;
  return limits;
}

JointPath random_path(int waypoints, unsigned seed, double step = 0.4) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> delta(-step, step);
  JointPath path{JointVector::Zero(6)};
  for (int i = 1; i < waypoints; ++i) {
    JointVector next = path.back();
    for (Eigen::Index j = 0; j < 6; ++j) next[j] += delta(rng);
    path.push_back(next);
  }
  return path;
}

// Every 0.5 ms: |q̇| ≤ v and |q̈| ≤ a (to rounding).
void expect_within_limits(const Trajectory& t, const TrajectoryLimits& limits) {
  const JointVector v = limits.scaled_velocity(), a = limits.scaled_acceleration();
  int checked = 0;
  for (double time = 0.0; time <= t.duration(); time += 5e-4, ++checked) {
    const TrajectoryState s = t.sample(time);
    for (Eigen::Index j = 0; j < v.size(); ++j) {
      ASSERT_LE(std::abs(s.velocity[j]), v[j] * (1 + 1e-9)) << "joint " << j << " at t = " << time;
      ASSERT_LE(std::abs(s.acceleration[j]), a[j] * (1 + 1e-9))
          << "joint " << j << " at t = " << time;
    }
  }
  for (const auto& s : t.samples())
    for (Eigen::Index j = 0; j < v.size(); ++j) {
      ASSERT_LE(std::abs(s.velocity[j]), v[j] * (1 + 1e-9)) << "joint " << j << " at t = " << s.t;
      ASSERT_LE(std::abs(s.acceleration[j]), a[j] * (1 + 1e-9))
          << "joint " << j << " at t = " << s.t;
    }
  EXPECT_GT(checked, 10);
}

TEST(TimeOptimal, StraightLineMatchesAnalyticBangBang) {
  const TrajectoryLimits limits = arm_limits();
  for (double length : {0.05, 0.5, 3.0}) {  // triangle and trapezoid profiles
    JointVector goal(6);
    goal << 1.0, -0.5, 0.3, 0.8, -0.2, 0.1;
    goal *= length / goal.norm();
    const Trajectory t = time_optimal({JointVector::Zero(6), goal}, limits);
    // Along the unit direction d: |ṡ| ≤ min v_j/|d_j|, |s̈| ≤ min a_j/|d_j|.
    const JointVector d = goal / length;
    const double vs = (limits.velocity.array() / d.array().abs()).minCoeff();
    const double as = (limits.acceleration.array() / d.array().abs()).minCoeff();
    const double optimum =
        length >= vs * vs / as ? length / vs + vs / as : 2.0 * std::sqrt(length / as);
    EXPECT_NEAR(t.duration(), optimum, 1e-9 * optimum) << "length " << length;
    EXPECT_TRUE(t.samples().back().position.isApprox(goal, 1e-12));
    EXPECT_LT(t.samples().back().velocity.norm(), 1e-12);
    expect_within_limits(t, limits);
  }
}

TEST(TimeOptimal, RespectsLimitsAtEverySampleOnMultiWaypointPaths) {
  const TrajectoryLimits limits = arm_limits();
  for (unsigned seed : {1u, 2u, 3u}) {
    const Trajectory t = time_optimal(random_path(12, seed), limits);
    expect_within_limits(t, limits);
    TrajectoryValidationOptions options;
    options.check_jerk = false;
    options.time_resolution = 2e-4;
    const auto report = validate_trajectory(t, limits, options);
    EXPECT_TRUE(report.ok()) << report.summary();
  }
}

TEST(TimeOptimal, WithinOnePercentOfFineGridOptimum) {
  const TrajectoryLimits limits = arm_limits();
  const TimeOptimalOptions options;
  for (unsigned seed : {4u, 5u, 6u}) {
    const JointPath path = random_path(8, seed);
    const Trajectory t = time_optimal(path, limits, options);
    const BlendedPath blended(path, options.max_deviation);
    const PhasePlaneReference reference = phase_plane_reference(blended, limits, 2e-5);
    EXPECT_GT(reference.grid_points, 10000u);
    EXPECT_LE(t.duration(), reference.duration * 1.01) << "seed " << seed;
    EXPECT_GE(t.duration(), reference.duration * 0.99) << "seed " << seed;
  }
}

TEST(TimeOptimal, PassesEveryWaypointWithinTheDeviation) {
  const TrajectoryLimits limits = arm_limits();
  const JointPath path = random_path(10, 7);
  TimeOptimalOptions options;
  options.max_deviation = 0.02;
  const Trajectory t = time_optimal(path, limits, options);
  ASSERT_EQ(t.waypoint_times().size(), path.size());
  for (std::size_t i = 0; i < path.size(); ++i)
    EXPECT_LE((t.sample(t.waypoint_times()[i]).position - path[i]).norm(),
              options.max_deviation * (1 + 1e-9))
        << "waypoint " << i;
  EXPECT_DOUBLE_EQ(t.waypoint_times().back(), t.duration());
}

TEST(TimeOptimal, ScalingSlowsDownAndScalesTheLimits) {
  TrajectoryLimits limits = arm_limits();
  const JointPath path = random_path(6, 8);
  const double full = time_optimal(path, limits).duration();
  limits.velocity_scaling = 0.5;
  limits.acceleration_scaling = 0.25;
  const Trajectory slow = time_optimal(path, limits);
  EXPECT_NEAR(slow.duration(), 2.0 * full, 1e-6 * full);  // v/2, a/4: exactly twice as long
  expect_within_limits(slow, limits);
}

// Waypoints along one line, as constrained planning and interpolation give them: rounding makes
// their directions differ in the last bits, which acos read as 2e-8 rad turns, and the blend arcs
// made for them (bisectors from rounding noise) stalled the parameterization.
TEST(TimeOptimal, CollinearWaypointsTimeAsOneStraightLine) {
  const TrajectoryLimits limits = arm_limits();
  JointVector from(6), to(6);
  from << 0.0, -1.5708, 0.0, -1.5708, 0.0, 0.0;
  to << 0.0, -0.89184, -0.85035, -1.3994, 0.0, 0.0;
  JointPath dense{from};
  for (int i = 1; i <= 23; ++i) dense.push_back(from + (to - from) * (i / 23.0));
  const Trajectory straight = time_optimal({from, to}, limits);
  Trajectory timed;
  ASSERT_NO_THROW(timed = time_optimal(dense, limits));
  EXPECT_NEAR(timed.duration(), straight.duration(), 1e-6 * straight.duration());
  EXPECT_LT((timed.sample(timed.duration()).position - to).norm(), 1e-9);
  expect_within_limits(timed, limits);
}

TEST(TimeOptimal, StopsWhereThePathTurnsBack) {
  const TrajectoryLimits limits = arm_limits();
  JointVector a = JointVector::Zero(6), b = JointVector::Constant(6, 0.5);
  const Trajectory t = time_optimal({a, b, a}, limits);
  ASSERT_EQ(t.waypoint_times().size(), 3u);
  const TrajectoryState turn = t.sample(t.waypoint_times()[1]);
  EXPECT_LT(turn.velocity.norm(), 1e-9);
  EXPECT_TRUE(turn.position.isApprox(b, 1e-12));
  expect_within_limits(t, limits);
}

TEST(TimeOptimal, SamplingIsContinuous) {
  const Trajectory t = time_optimal(random_path(8, 9), arm_limits());
  const double eps = 1e-7;
  for (double time = eps; time < t.duration() - eps; time += t.duration() / 997.0) {
    const TrajectoryState before = t.sample(time - eps), after = t.sample(time + eps);
    EXPECT_LT((after.position - before.position).cwiseAbs().maxCoeff(), 10 * eps) << time;
    EXPECT_LT((after.velocity - before.velocity).cwiseAbs().maxCoeff(), 100 * eps) << time;
  }
}

TEST(TimeOptimal, DegenerateAndBadInput) {
  const TrajectoryLimits limits = arm_limits();
  const JointVector q = JointVector::Constant(6, 0.3);
  const Trajectory still = time_optimal({q, q, q}, limits);
  EXPECT_EQ(still.samples().size(), 1u);
  EXPECT_EQ(still.duration(), 0.0);
  EXPECT_EQ(still.waypoint_times().size(), 3u);

  const auto code_of = [&](const JointPath& path, const TrajectoryLimits& l) {
    try {
      time_optimal(path, l);
    } catch (const Error& e) {
      return e.code();
    }
    return ErrorCode::Timeout;  // "no error"
  };
  EXPECT_EQ(code_of({}, limits), ErrorCode::InvalidValue);
  JointVector bad = q;
  bad[2] = std::nan("");
  EXPECT_EQ(code_of({q, bad}, limits), ErrorCode::InvalidValue);
  EXPECT_EQ(code_of({q, JointVector::Zero(5)}, limits), ErrorCode::DimensionMismatch);
  for (double scaling :
       {0.0, -0.5, 1.5, std::nan(""), 1e-6}) {  // 1e-6: a 2 s motion lasting 23 days
    TrajectoryLimits scaled = limits;
    scaled.velocity_scaling = scaling;
    EXPECT_EQ(code_of({q, JointVector::Zero(6)}, scaled), ErrorCode::InvalidValue) << scaling;
  }
  try {
    TrajectoryLimits scaled = limits;
    scaled.acceleration_scaling = 2.0;
    time_optimal({q, JointVector::Zero(6)}, scaled);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("acceleration scaling"), std::string::npos) << e.what();
  }
}

TEST(Blending, KeepsMovingThroughTheJunctionAndRespectsLimits) {
  const TrajectoryLimits limits = arm_limits();
  JointVector a = JointVector::Zero(6), b(6), c(6);
  b << 0.8, 0.4, -0.3, 0.5, 0.2, 0.1;
  c << 1.2, 1.0, -0.1, 0.2, 0.6, 0.4;
  const Trajectory first = time_optimal({a, b}, limits), second = time_optimal({b, c}, limits);
  const Trajectory blended = blend_paths({{a, b}, {b, c}}, limits);
  ASSERT_EQ(blended.waypoint_times().size(), 3u);
  const TrajectoryState junction = blended.sample(blended.waypoint_times()[1]);
  const double peak = std::max(first.sample(first.duration() / 2).velocity.norm(),
                               second.sample(second.duration() / 2).velocity.norm());
  EXPECT_GT(junction.velocity.norm(), 0.2 * peak);
  // Never stops in between.
  for (double t = 0.05 * blended.duration(); t < 0.95 * blended.duration(); t += 1e-3)
    ASSERT_GT(blended.sample(t).velocity.norm(), 1e-3) << t;
  EXPECT_LT(blended.duration(), first.duration() + second.duration());
  expect_within_limits(blended, limits);

  const Trajectory from_trajectories = blend_trajectories({first, second}, limits);
  EXPECT_NEAR(from_trajectories.duration(), blended.duration(), 1e-9);
  EXPECT_THROW(blend_paths({{a, b}, {c, a}}, limits), Error);
}

// Corners that would collide are rounded less (clear_time_optimal.hpp). Two joints, the path
// (0,0) -> (1,0) -> (1,1) clear of a disc of radius 0.02 at (0.97, 0.03); the 0.05 blend passes
// through the disc at about (0.965, 0.035), 0.025 still does, 0.0125 keeps out.
TEST(ClearTimeOptimal, ACornerBlendThatWouldCollideIsNarrowedUntilItKeepsOut) {
  const JointPath path = {Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 0.0),
                          Eigen::Vector2d(1.0, 1.0)};
  const TrajectoryLimits limits = TrajectoryLimits::uniform(2, 1.0, 2.0, 10.0);
  const auto in_disc = [](const JointVector& q) {
    return (q - Eigen::Vector2d(0.97, 0.03)).norm() < 0.02;
  };
  const auto name = [](const JointVector&) { return std::string("'disc'"); };
  for (int k = 0; k <= 20; ++k)
    ASSERT_FALSE(in_disc(Eigen::Vector2d(k / 20.0, 0.0)));  // the path itself is clear
  const ClearTiming clear = time_optimal_clear(path, limits, in_disc, name);
  EXPECT_DOUBLE_EQ(clear.max_deviation, 0.0125);
  EXPECT_EQ(clear.narrowed_for, "'disc'");
  TrajectoryValidationOptions collisions;
  collisions.in_collision = in_disc;
  EXPECT_TRUE(validate_trajectory(clear.trajectory, limits, collisions).ok());
  // The plain timing does cut into the disc; without a check nothing is narrowed.
  EXPECT_FALSE(validate_trajectory(time_optimal(path, limits), limits, collisions).ok());
  const ClearTiming unchecked = time_optimal_clear(path, limits, {});
  EXPECT_DOUBLE_EQ(unchecked.max_deviation, TimeOptimalOptions{}.max_deviation);
  EXPECT_TRUE(unchecked.narrowed_for.empty());
}

}  // namespace
}  // namespace kinetic
