// time_pick_and_place keeps each stage's time-optimal corners clear in the stage's own scene
// (engine/task/task_timing.cpp). The robot is a probe on an x-y gantry, so joint space is the
// probe's position and the corner's geometry can be read off directly.
#include <gtest/gtest.h>

#include "engine/collision/collision_checker.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/task/pick_place.hpp"
#include "engine/trajectory/time_optimal.hpp"

namespace kinetic {
namespace {

RobotModelPtr gantry() {
  return load_robot_string(R"(<robot name="gantry">
  <link name="base"/><link name="carriage"/>
  <link name="probe"><collision><geometry><sphere radius="0.01"/></geometry></collision></link>
  <joint name="x" type="prismatic"><parent link="base"/><child link="carriage"/><axis xyz="1 0 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="y" type="prismatic"><parent link="carriage"/><child link="probe"/><axis xyz="0 1 0"/>
    <limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
</robot>)");
}

// A pin of radius 0.01 m inside the corner (1, 0) -> (1, 1): the probe's path stays 0.02 m from
// it, the 0.05 rad (here: m) blend passes through it, a 0.0125 blend keeps out (the 2D case of
// ClearTimeOptimal.ACornerBlendThatWouldCollideIsNarrowedUntilItKeepsOut).
PlanningScene scene_with_pin() {
  PlanningScene scene;
  scene.add_obstacle("pin", Shape::sphere(0.01), Pose(Eigen::Translation3d(0.97, 0.03, 0.0)));
  return scene;
}

bool any_collision(CollisionChecker& checker, const Trajectory& trajectory, double from,
                   double to) {
  for (double t = from; t <= to; t += 1e-3)
    if (checker.in_collision(trajectory.sample(t).position)) return true;
  return false;
}

TEST(PickPlaceTiming, EachStagesCornersAreNarrowedOnlyWhereTheyWouldCollideInThatStagesScene) {
  PickPlaceResult task;
  TaskStage to_pre_grasp{TaskStage::Kind::Move, "move to pre-grasp", {}, scene_with_pin()};
  to_pre_grasp.path = {Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 0.0),
                       Eigen::Vector2d(1.0, 1.0)};
  // The next stage runs where the pin was, in a scene without it (as a picked object leaves its
  // place): its corner at the pin's place must be left as wide as asked.
  TaskStage transfer{TaskStage::Kind::Transfer, "transfer", {}, PlanningScene{}};
  transfer.path = {Eigen::Vector2d(1.0, 1.0), Eigen::Vector2d(0.97, 0.03),
                   Eigen::Vector2d(0.0, 0.0)};
  task.stages = {to_pre_grasp, transfer};
  const TrajectoryLimits limits = TrajectoryLimits::uniform(2, 1.0, 2.0, 10.0);
  CollisionChecker checker(gantry());

  // Timed without a checker, the first stage's corner cuts through the pin.
  const TimedPickPlace plain = time_pick_and_place(task, limits);
  EXPECT_TRUE(plain.notes.empty());
  checker.set_scene(scene_with_pin());
  ASSERT_TRUE(any_collision(checker, plain.trajectory, plain.stage_start[0], plain.stage_start[1]));

  const TimedPickPlace clear = time_pick_and_place(task, limits, &checker);
  checker.set_scene(scene_with_pin());
  EXPECT_FALSE(
      any_collision(checker, clear.trajectory, clear.stage_start[0], clear.stage_start[1]));
  ASSERT_EQ(clear.notes.size(), 1u);  // the transfer's corner, clear of its own scene, is kept
  const std::string expected =
      "stage \"move to pre-grasp\": corners rounded within 0.0125 rad, not 0.05: wider blends "
      "touched "
      "'probe' with 'pin'";
  EXPECT_EQ(clear.notes[0].substr(0, expected.size()), expected) << clear.notes[0];
  // The transfer was timed alike both ways: the same corner, the same duration.
  EXPECT_NEAR(clear.trajectory.end_time() - clear.stage_start[1],
              plain.trajectory.end_time() - plain.stage_start[1], 1e-9);
}

}  // namespace
}  // namespace kinetic
