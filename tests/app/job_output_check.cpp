// Checks what examples/jobs/ur5e_pick_around_box.json wrote (run by run_example_job.cmake with no
// display): the exported trajectories re-import (JSON and CSV alike), validate against the UR5e's
// scaled limits and the job's scene, reach the goals, and the images match the goldens.
// The output folder comes in KINETIC_JOB_OUTPUT.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "engine/collision/collision_checker.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "engine/trajectory/validation.hpp"
#include "support/test_paths.hpp"
#include "viewer/golden.hpp"
#include "viewer/image.hpp"

namespace kinetic::test {
namespace {

namespace fs = std::filesystem;

fs::path output_dir() {
  const char* dir = std::getenv("KINETIC_JOB_OUTPUT");
  return dir ? fs::path(dir) : fs::path();
}

class ExampleJobOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    if (output_dir().empty())
      GTEST_SKIP() << "KINETIC_JOB_OUTPUT is not set (run through run_example_job.cmake)";
    robot_ = load_builtin_robot("ur5e");
  }
  RobotModelPtr robot_;
};

TEST_F(ExampleJobOutput, WholeMotionReimportsAndValidates) {
  const Trajectory json = load_trajectory(output_dir() / "pick_around_box.json");
  const Trajectory csv = load_trajectory(output_dir() / "pick_around_box.csv");
  EXPECT_TRUE(json == csv) << "JSON and CSV exports differ";
  EXPECT_EQ(json.robot(), "ur5e");
  EXPECT_GT(json.duration(), 0.5);
  EXPECT_TRUE(json.samples().front().position.isApprox(robot_->named_pose("home"), 1e-12));

  TrajectoryLimits limits = TrajectoryLimits::from_model(*robot_);
  limits.velocity_scaling = limits.acceleration_scaling = 0.5;  // as the job asks
  CollisionChecker checker(robot_);
  checker.set_scene(load_scene(test_source_dir() + "/../examples/jobs/pick_around_box_scene.json"));
  TrajectoryValidationOptions options;
  options.check_jerk = false;  // time-optimal: acceleration switches in steps by design
  options.in_collision = [&checker](const JointVector& q) { return checker.in_collision(q); };
  const auto report = validate_trajectory(json, limits, options);
  EXPECT_TRUE(report.ok()) << report.summary();
  EXPECT_GT(report.states_checked, 100u);
}

TEST_F(ExampleJobOutput, StepsReachTheirPoses) {
  const Trajectory over_box = load_trajectory(output_dir() / "over_box.json");
  const Trajectory place = load_trajectory(output_dir() / "place.json");
  const auto tcp = [&](const Trajectory& t) {
    return compute_link_pose(*robot_, t.samples().back().position, "tool0");
  };
  EXPECT_TRUE(tcp(over_box).translation().isApprox(Vector3(0.5, 0.0, 0.45), 1e-3))
      << tcp(over_box).translation();
  EXPECT_TRUE(tcp(place).translation().isApprox(Vector3(0.3, 0.45, 0.15), 1e-3))
      << tcp(place).translation();
  EXPECT_NEAR(tcp(over_box).linear().col(2).z(), -1.0, 1e-3) << "the tool points down over the box";
  // The second step starts where the first ended.
  EXPECT_TRUE(place.samples().front().position.isApprox(over_box.samples().back().position, 1e-12));
}

TEST_F(ExampleJobOutput, ScreenshotMatchesGolden) {
  const viewer::RgbaImage shot = viewer::read_png(output_dir() / "pick_around_box.png");
  EXPECT_EQ(shot.width(), 960u);
  EXPECT_EQ(shot.height(), 540u);
  EXPECT_TRUE(matches_golden("headless_ur5e_pick_around_box", shot));
}

TEST_F(ExampleJobOutput, TwelveFramesAndTheMiddleOneMatchesGolden) {
  for (int i = 0; i < 12; ++i) {
    const fs::path frame =
        output_dir() / "frames" / ((i < 10 ? "frame_0" : "frame_") + std::to_string(i) + ".png");
    ASSERT_TRUE(fs::exists(frame)) << frame;
    const viewer::RgbaImage image = viewer::read_png(frame);
    EXPECT_EQ(image.width(), 640u);
    EXPECT_EQ(image.height(), 360u);
  }
  EXPECT_FALSE(fs::exists(output_dir() / "frames" / "frame_12.png"));
  EXPECT_TRUE(matches_golden("headless_ur5e_pick_around_box_frame06",
                             viewer::read_png(output_dir() / "frames" / "frame_06.png")));
}

}  // namespace
}  // namespace kinetic::test
