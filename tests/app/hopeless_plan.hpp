#pragma once
// A UR5e planning problem that can never be solved, for tests of cancellation and of the interface
// staying responsive while a plan runs its whole budget: a small post beside the shoulder that the
// upper arm's joint cylinder sweeps through at some shoulder-pan angles whatever the other joints
// do, so the pan ranges between those angles are disconnected. Start and goal sit in the middle
// of two such ranges (the other joints at "home").
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <cmath>
#include <optional>
#include <vector>

#include "app/document/studio_document.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/scene/planning_scene.hpp"
#include "panels/planner_panel.hpp"

namespace kinetic::test {

struct HopelessPlan {
  PlanningScene scene;
  JointVector start, goal;
};

// Empty when the post does not split the robot's pan range (not a UR5e-shaped arm).
inline std::optional<HopelessPlan> hopeless_ur5e_plan(const RobotModelPtr& robot) {
  HopelessPlan plan;
  plan.scene.add_obstacle("post", Shape::box(Vector3(0.016, 0.016, 0.04)),
                          Pose(Eigen::Translation3d(0.074, 0.0, 0.1625)));
  CollisionChecker checker(robot);
  checker.set_scene(plan.scene);
  JointVector q = robot->named_pose("home");
  // Middles of the free pan ranges that have a blocked range on both sides.
  std::vector<double> free_middles;
  bool blocked_before = false, in_free = false;
  double free_start = 0.0;
  for (double pan = -M_PI; pan <= M_PI; pan += 0.01) {
    q[0] = pan;
    const bool blocked = checker.in_collision(q);
    if (!blocked && !in_free) {
      in_free = true;
      free_start = pan;
    }
    if (blocked && in_free) {
      if (blocked_before) free_middles.push_back(0.5 * (free_start + pan));
      in_free = false;
    }
    if (blocked) blocked_before = true;
  }
  if (free_middles.size() < 2) return std::nullopt;
  plan.start = plan.goal = robot->named_pose("home");
  plan.start[0] = free_middles[0];
  plan.goal[0] = free_middles[1];
  return plan;
}

// The studio's document set up for the hopeless plan, and the Planner panel given a budget of
// `timeout_ms` and iterations beyond reach; false when the robot is not shaped for it.
inline bool prepare_hopeless_plan(app::StudioDocument& document, panels::PlannerPanel& panel,
                                  int timeout_ms) {
  const auto problem = hopeless_ur5e_plan(document.robot());
  if (!problem) return false;
  document.set_scene(problem->scene);
  document.set_joints(problem->start);
  app::GoalState goal;
  goal.joints = problem->goal;
  document.set_goal(goal);
  panel.apply_preset(QStringLiteral("offline"));
  panel.timeout_box()->setValue(timeout_ms);
  panel.iterations_box()->setValue(1000000000);
  return true;
}

}  // namespace kinetic::test
