// A Cartesian goal far beyond the arm's reach was followed a millimetre at a time (10 km: 22 s and
// 2.5 GB before it failed): it fails at once, saying how far it is and how far the arm reaches.
#include <gtest/gtest.h>

#include <chrono>

#include "builtin_arms.hpp"
#include "engine/core/error.hpp"
#include "engine/planning/planner.hpp"

using namespace kinetic;

namespace {

TEST(CartesianReach, AGoalBeyondTheArmsReachFailsAtOnce) {
  const RobotModelPtr model = test::builtin_ur5e();
  Planner planner(model);
  const JointVector start = model->named_pose("ready");
  Pose far = planner.tcp_pose(start);
  far.translation() = Vector3(10000.0, 0.0, 0.5);
  const auto began = std::chrono::steady_clock::now();
  try {
    planner.plan_cartesian(start, {CartesianSegment::line_to(far)});
    ADD_FAILURE() << "a 10 km line was planned";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::Unreachable);
    EXPECT_NE(error.message().find("ends 10000.000 m from the origin of"), std::string::npos)
        << error.message();
    EXPECT_NE(error.message().find("beyond the arm's reach"), std::string::npos) << error.message();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - began, std::chrono::seconds(2));
  // A goal within reach still plans.
  Pose near = planner.tcp_pose(start);
  near.translation() += Vector3(0.0, 0.0, -0.05);
  EXPECT_TRUE(planner.plan_cartesian(start, {CartesianSegment::line_to(near)}).complete());
}

}  // namespace
