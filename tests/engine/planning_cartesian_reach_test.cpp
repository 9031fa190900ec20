// A Cartesian goal far beyond the arm's reach was followed a millimetre at a time (10 km: 22 s and
// 2.5 GB before it failed): the line is followed only as far as the arm reaches, and stops there
// at once, saying so, with the fraction of the whole line it achieved.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <chrono>

#include "builtin_arms.hpp"
#include "engine/core/error.hpp"
#include "engine/planning/planner.hpp"

using namespace kinetic;

namespace {

long max_rss_kb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

TEST(CartesianReach, AGoalBeyondTheArmsReachStopsAtOnce) {
  const RobotModelPtr model = test::builtin_ur5e();
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  Pose far = planner.tcp_pose(start);
  far.translation() = Vector3(10000.0, 0.0, 0.5);
  const long rss_before = max_rss_kb();
  const auto began = std::chrono::steady_clock::now();
  const CartesianResult result = planner.plan_cartesian(start, {CartesianSegment::line_to(far)});
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(5));
  EXPECT_LT(max_rss_kb() - rss_before, 200 * 1024) << "KiB grown";  // 2.5 GB before
  EXPECT_FALSE(result.complete());
  EXPECT_LT(result.fraction, 1e-3);
  EXPECT_NE(result.stop_reason.find("of 10000"), std::string::npos)
      << result.stop_reason;  // steps of the whole line
  // A goal within reach still plans.
  Pose near = planner.tcp_pose(start);
  near.translation() += Vector3(0.0, 0.0, -0.05);
  EXPECT_TRUE(planner.plan_cartesian(start, {CartesianSegment::line_to(near)}).complete());
}

}  // namespace
