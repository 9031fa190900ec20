#pragma once
// A MotionBenchMaker problem (../shared/mbm: the Panda with its meshes) as the planner tests load
// it: its start, goal and scene from the benchmark's request and scene files.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/model/robot_loader.hpp"
#include "engine/planning/motion_plan_request.hpp"
#include "engine/planning/planner.hpp"
#include "engine/scene/scene_file.hpp"
#include "support/test_paths.hpp"

namespace kinetic::test {

struct MbmProblem {
  JointVector start, goal;
  PlanningScene scene;
};

inline MbmProblem mbm_problem(const RobotModel& model, const std::string& scene, int index) {
  char name[32];
  std::snprintf(name, sizeof name, "%04d.yaml", index);
  const std::filesystem::path dir =
      std::filesystem::path(mbm_panda_dir()) / "problems" / (scene + "_panda");
  const MotionPlanRequest request =
      load_motion_plan_request((dir / ("request" + std::string(name))).string());
  MbmProblem problem;
  problem.start =
      with_joint_values(model, model.zero_configuration(), request.start, "start", true);
  problem.goal = with_joint_values(model, problem.start, request.goal, "goal", false);
  problem.scene = load_scene((dir / ("scene" + std::string(name))).string());
  return problem;
}

// MotionBenchMaker's Panda (its meshes and SRDF), planning for its arm, with no scene yet.
inline std::unique_ptr<Planner> mbm_panda_planner() {
  const std::filesystem::path robot = std::filesystem::path(mbm_panda_dir()) / "robot";
  return std::make_unique<Planner>(
      load_robot_file((robot / "panda.urdf").string(), (robot / "panda.srdf").string()),
      PlanningScene(), "panda_arm");
}

}  // namespace kinetic::test
