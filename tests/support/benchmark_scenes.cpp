#include "support/benchmark_scenes.hpp"

#include <cmath>
#include <random>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/planning/planning_space.hpp"

namespace kinetic {

namespace {

Pose at(double x, double y, double z) {
  Pose p = Pose::Identity();
  p.translation() = Vector3(x, y, z);
  return p;
}

void add_table(PlanningScene& scene) {
  scene.add_obstacle("table_top", Shape::box({0.6, 1.2, 0.04}), at(0.6, 0.0, 0.15));
  scene.add_obstacle("table_leg", Shape::box({0.08, 0.08, 0.13}), at(0.6, 0.0, 0.065));
}

void add_shelf(PlanningScene& scene) {
  // Open towards the robot (-x); boards 2 cm thick, compartments 0.22 m tall.
  const double x = 0.62, depth = 0.3, width = 0.7;
  scene.add_obstacle("shelf_back", Shape::box({0.02, width, 0.9}), at(x + depth / 2, 0.0, 0.45));
  scene.add_obstacle("shelf_left", Shape::box({depth, 0.02, 0.9}), at(x, width / 2, 0.45));
  scene.add_obstacle("shelf_right", Shape::box({depth, 0.02, 0.9}), at(x, -width / 2, 0.45));
  const double boards[] = {0.2, 0.44, 0.68, 0.9};
  for (int i = 0; i < 4; ++i)
    scene.add_obstacle("shelf_board_" + std::to_string(i), Shape::box({depth, width, 0.02}),
                       at(x, 0.0, boards[i]));
}

void add_cage(PlanningScene& scene) {
  const double r = 0.55, height = 1.1;
  int i = 0;
  for (double sx : {-1.0, 1.0})
    for (double sy : {-1.0, 1.0})
      scene.add_obstacle("cage_post_" + std::to_string(i++), Shape::cylinder(0.025, height),
                         at(sx * r, sy * r, height / 2));
  scene.add_obstacle("cage_roof_x0", Shape::box({2 * r, 0.05, 0.05}), at(0.0, -r, height));
  scene.add_obstacle("cage_roof_x1", Shape::box({2 * r, 0.05, 0.05}), at(0.0, r, height));
  scene.add_obstacle("cage_roof_y0", Shape::box({0.05, 2 * r, 0.05}), at(-r, 0.0, height));
  scene.add_obstacle("cage_roof_y1", Shape::box({0.05, 2 * r, 0.05}), at(r, 0.0, height));
}

void add_random_boxes(PlanningScene& scene, const RobotModelPtr& model, int count) {
  std::mt19937_64 rng(20240521);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  CollisionChecker checker(model);
  const JointVector home = model->zero_configuration();
  for (int i = 0; static_cast<int>(scene.obstacles().size()) < count && i < 10000; ++i) {
    const double angle = 2 * M_PI * unit(rng), radius = 0.35 + 0.45 * unit(rng);
    const Pose pose = pose_from_xyz_rpy(
        {radius * std::cos(angle), radius * std::sin(angle), 0.05 + 0.9 * unit(rng)},
        {3 * unit(rng), 3 * unit(rng), 3 * unit(rng)});
    PlanningScene trial = scene;
    trial.add_obstacle(
        "box_" + std::to_string(scene.obstacles().size()),
        Shape::box({0.05 + 0.07 * unit(rng), 0.05 + 0.07 * unit(rng), 0.05 + 0.07 * unit(rng)}),
        pose);
    checker.set_scene(trial);
    if (!checker.in_collision(home, {0.05, false, true})) scene = trial;
  }
}

}  // namespace

const std::vector<std::string>& benchmark_scene_names() {
  static const std::vector<std::string> names{"empty", "table", "shelf", "cage", "boxes20"};
  return names;
}

PlanningScene benchmark_scene(const std::string& name, const RobotModelPtr& model) {
  PlanningScene scene;
  if (name == "empty") return scene;
  if (name == "table")
    add_table(scene);
  else if (name == "shelf")
    add_shelf(scene);
  else if (name == "cage")
    add_cage(scene);
  else if (name == "boxes20")
    add_random_boxes(scene, model, 20);
  else
    throw Error(ErrorCode::InvalidValue, "unknown benchmark scene '" + name + "'",
                "use one of: empty, table, shelf, cage, boxes20");
  // A floor under every cluttered scene (a half-space just below z = 0); the base stands on it.
  scene.add_obstacle("floor", Shape::half_space(Vector3::UnitZ(), -0.001), Pose::Identity());
  scene.allow("floor", model->links()[static_cast<std::size_t>(model->root_link())].name);
  return scene;
}

BenchmarkProblemSet benchmark_problems(const RobotModelPtr& model, const PlanningScene& scene,
                                       int count, std::uint64_t seed, double margin,
                                       const PathExistsCheck& joined) {
  CollisionChecker checker(model);
  checker.set_scene(scene);
  std::mt19937_64 rng(seed);
  // Joints within ±pi: with UR-style ±2pi ranges, every pose has up to 2^n representations; one
  // window keeps each about once (it cannot keep the pairs connected: see the header).
  const JointVector lo = model->lower_limits().cwiseMax(-M_PI),
                    hi = model->upper_limits().cwiseMin(M_PI);
  auto sample = [&] {
    for (;;) {
      JointVector q(model->dof());
      for (int j = 0; j < model->dof(); ++j)
        q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
      if (state_collision_free(checker, q, margin)) return q;
    }
  };
  BenchmarkProblemSet set;
  while (static_cast<int>(set.problems.size()) < count) {
    if (set.rejected > 10 * count + 10)
      throw Error(ErrorCode::InvalidValue,
                  "benchmark problems: " + std::to_string(set.rejected) +
                      " of the drawn start/goal pairs were not joined",
                  "check the scene: most of the robot's free space seems disconnected");
    StartGoalProblem p;
    p.start = sample();
    p.goal = sample();
    if (joined && !joined(p.start, p.goal)) {
      ++set.rejected;
      continue;
    }
    set.problems.push_back(std::move(p));
  }
  return set;
}

}  // namespace kinetic
