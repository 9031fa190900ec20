#pragma once
// The planning benchmark scenes of the tests and `make bench`: obstacles around a fixed-base arm
// whose base sits at the world origin, sized for arms with about 0.85 m reach (UR5e, Panda).
//   empty   no obstacles
//   table   a table top in front of the robot
//   shelf   a shelf with two compartments whose openings are narrow (0.22 m)
//   cage    four posts and a roof frame around the robot
//   boxes20 twenty random boxes (fixed seed), none touching the robot at its zero configuration
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic {

const std::vector<std::string>& benchmark_scene_names();
// Throws Error(InvalidValue) listing the names for an unknown scene.
PlanningScene benchmark_scene(const std::string& name, const RobotModelPtr& model);

// A start/goal pair in a built-in scene (engine/planning/benchmark_problems.hpp's BenchmarkProblem
// is a MotionBenchMaker problem's files; one program holds both).
struct StartGoalProblem {
  JointVector start, goal;  // model order
};

struct BenchmarkProblemSet {
  std::vector<StartGoalProblem> problems;
  int rejected = 0;  // drawn pairs that `joined` could not connect (replaced by later draws)
};

// Says whether some collision-free path joins start and goal (e.g. long runs of independent
// planners). Return false only when no path was found.
using PathExistsCheck = std::function<bool(const JointVector& start, const JointVector& goal)>;

// `count` start/goal pairs for a scene, drawn from `seed`: each configuration uniform within the
// joint limits clipped to ±pi and clear of the scene by `margin` (state_collision_free); a pair is
// kept only when `joined` finds a path, so every problem is solvable. Why the check is needed: the
// free configuration space need not be connected. Obstacles or the arm's own links can wall off a
// region whatever the other joints do (a solid of revolution about joint 1, such as the base, does
// that to any link it can reach), and a pair with one end on each side has no path. An empty
// `joined` keeps every pair.
BenchmarkProblemSet benchmark_problems(const RobotModelPtr& model, const PlanningScene& scene,
                                       int count, std::uint64_t seed, double margin,
                                       const PathExistsCheck& joined);

}  // namespace kinetic
