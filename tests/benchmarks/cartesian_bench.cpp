// Cartesian planning (engine/planning/cartesian_planner): dense incremental IK along a 20 cm
// straight line and a 90° arc of the TCP from the "ready" pose, on the UR5e and the Panda, with
// the collision checks (per step and the output gate) in the table scene and without any check in
// the empty scene; and a line straight down that a collision stops: the UR5e's wrist reaches the
// floor (no margin), the Panda's the table (a 5 mm margin: without one its last free step comes
// within the gate's 1 mm contact tolerance, and the plan is refused). Numeric IK at every step (the
// default); "closed_form" runs use the UR5e's closed-form IK (CartesianOptions::closed_form_ik).
// Counters: steps planned and the fraction achieved (1 = complete). No peer: the libraries we
// build against have no Cartesian path planner (MoveIt's computeCartesianPath needs ROS).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "engine/model/robot_loader.hpp"
#include "engine/planning/planner.hpp"
#include "support/benchmark_scenes.hpp"

namespace kinetic {
namespace {

enum class Motion { Line, Arc, Down };

struct CartesianCase {
  std::string robot;
  Motion motion;
  bool collisions;  // the table scene with per-step checks, else the empty scene unchecked
  double margin = 0.0;
  bool closed_form = false;
};

std::vector<CartesianSegment> segments_for(const Motion motion, const Pose& from) {
  if (motion == Motion::Line) {
    Pose to = from;
    to.translation() += Vector3(0.0, 0.12, -0.16);  // 20 cm, sideways and down towards the table
    return {CartesianSegment::line_to(to)};
  }
  if (motion == Motion::Down) {
    Pose to = from;
    to.translation().z() = 0.0;
    return {CartesianSegment::line_to(to)};
  }
  // A quarter turn about the vertical through a point 8 cm in front of the TCP; the tool turns with
  // it.
  return {CartesianSegment::arc(from.translation() + Vector3(0.08, 0.0, 0.0), Vector3::UnitZ(),
                                M_PI / 2)};
}

void BM_Cartesian(benchmark::State& state, const CartesianCase& c) {
  const RobotModelPtr robot = load_builtin_robot(c.robot);
  Planner planner(robot, benchmark_scene(c.collisions ? "table" : "empty", robot));
  const JointVector start = robot->named_pose("ready");
  const std::vector<CartesianSegment> segments = segments_for(c.motion, planner.tcp_pose(start));
  CartesianOptions options;
  options.avoid_collisions = c.collisions;
  options.margin = c.margin;
  options.closed_form_ik = c.closed_form;
  CartesianResult result;
  for (auto _ : state) {
    result = planner.plan_cartesian(start, segments, options);
    benchmark::DoNotOptimize(result.path.data());
  }
  state.counters["steps"] = result.steps;
  state.counters["fraction"] = result.fraction;
}

const CartesianCase kCases[] = {
    {"ur5e", Motion::Line, true},
    {"ur5e", Motion::Line, false},
    {"ur5e", Motion::Arc, true},
    {"ur5e", Motion::Arc, false},
    {"ur5e", Motion::Down, true},
    {"ur5e", Motion::Line, true, 0.0, true},
    {"ur5e", Motion::Arc, false, 0.0, true},
    {"panda", Motion::Line, true},
    {"panda", Motion::Line, false},
    {"panda", Motion::Arc, true},
    {"panda", Motion::Arc, false},
    {"panda", Motion::Down, true, 0.005},
};

const char* motion_name(Motion motion) {
  switch (motion) {
    case Motion::Line:
      return "line20cm";
    case Motion::Arc:
      return "arc90deg";
    case Motion::Down:
      return "down_blocked";
  }
  return "?";
}

[[maybe_unused]] const bool registered = [] {
  for (const CartesianCase& c : kCases) {
    const std::string name = "Ours/cartesian_" + std::string(motion_name(c.motion)) + "_" +
                             c.robot + (c.collisions ? "_table_checked" : "_unchecked") +
                             (c.margin > 0 ? "_margin5mm" : "") +
                             (c.closed_form ? "_closed_form" : "");
    benchmark::RegisterBenchmark(name.c_str(), BM_Cartesian, c)->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
}  // namespace kinetic

BENCHMARK_MAIN();
