// Pick and place (engine/task): generating the grasp candidates of a box and of a cylinder (a
// parallel gripper, 8 yaw steps), and planning the whole eight-stage chain on the built-in UR5e
// in the example scene (examples/jobs/pick_and_place_scene.json: the part from its spot to the
// other side of the box, fixed seed). No peer: no library we build against generates grasps or
// composes pick-and-place stages (MoveIt's grasp generators and Task Constructor need ROS).
#include <benchmark/benchmark.h>

#include "engine/model/robot_loader.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/task/pick_place.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

void BM_GraspGeneration(benchmark::State& state, const Shape& shape) {
  const Pose pose = pose_from_xyz_rpy({0.5, -0.35, 0.035}, {0.0, 0.0, 0.3});
  const GripperSpec gripper;
  std::size_t count = 0;
  for (auto _ : state) {
    const std::vector<Grasp> grasps = generate_grasps(shape, pose, gripper);
    count = grasps.size();
    benchmark::DoNotOptimize(grasps.data());
  }
  state.counters["grasps"] = static_cast<double>(count);
}
BENCHMARK_CAPTURE(BM_GraspGeneration, box, Shape::box({0.05, 0.07, 0.1}))
    ->Name("Ours/grasp_generation_box")
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_GraspGeneration, cylinder, Shape::cylinder(0.025, 0.08))
    ->Name("Ours/grasp_generation_cylinder")
    ->Unit(benchmark::kMicrosecond);

void BM_PickAndPlace_UR5e(benchmark::State& state) {
  const RobotModelPtr robot = load_builtin_robot("ur5e");
  const PlanningScene scene =
      load_scene(test::test_source_dir() + "/../examples/jobs/pick_and_place_scene.json");
  Planner planner(robot, scene);
  const JointVector start = robot->named_pose("ready");
  PickPlaceRequest request;
  request.object = "part";
  request.place_pose = pose_from_xyz_rpy({0.45, 0.35, 0.035}, {0.0, 0.0, 0.0});
  // The UR5e has no gripper: the flange holds the part on its top, touching link5 and link6.
  request.gripper.finger_depth = 0.0;
  request.touch_links = {"link6", "link5"};
  request.options.seed = 7;
  request.options.timeout_ms = 2000.0;
  PickPlaceResult result;
  for (auto _ : state) {
    result = plan_pick_and_place(planner, start, request);
    benchmark::DoNotOptimize(result.stages.data());
  }
  state.counters["grasps_tried"] = result.grasps_tried;
  state.counters["planning_ms"] = result.planning_time_ms;
}
BENCHMARK(BM_PickAndPlace_UR5e)->Name("Ours/pick_and_place_ur5e")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace kinetic

BENCHMARK_MAIN();
