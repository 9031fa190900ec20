#pragma once
// Planning a joint-space motion in one planning group of a real robot, for the tests that open the
// robot packages of ../shared/robots (model_shared_packages_test, model_moveit_config_test).
#include <algorithm>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/planning/planner.hpp"

namespace kinetic {

// A configuration with the group's variables drawn within their limits, the others at `base`.
inline JointVector random_in_group(const RobotModel& model, const std::vector<int>& group,
                                   const JointVector& base, std::mt19937_64& random) {
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  JointVector q = base;
  for (int v : group) q[v] = lower[v] + unit(random) * (upper[v] - lower[v]);
  return q;
}

// A collision-free state of the whole robot to start from: the robot's rest pose, else a random
// one.
inline std::optional<JointVector> free_start(const RobotModel& model, CollisionChecker& checker,
                                             std::mt19937_64& random) {
  const JointVector rest = model.default_configuration();
  if (!checker.in_collision(rest)) return rest;
  std::vector<int> all(static_cast<std::size_t>(model.dof()));
  for (int v = 0; v < model.dof(); ++v) all[static_cast<std::size_t>(v)] = v;
  for (int attempt = 0; attempt < 200; ++attempt) {
    const JointVector q = random_in_group(model, all, rest, random);
    if (!checker.in_collision(q)) return q;
  }
  return std::nullopt;
}

// Plans a joint-space motion of `group` to a random collision-free goal; "" when it planned, else
// why not.
inline std::string plan_group(const RobotModelPtr& model, const std::string& group,
                              std::mt19937_64& random) {
  Planner planner(model, PlanningScene(), group);
  if (planner.group_variables().empty()) return "no joint to plan";
  const auto start = free_start(*model, planner.checker(), random);
  if (!start) {
    std::string contacts;
    for (const Contact& c : planner.checker().contacts(model->default_configuration()))
      contacts += " " + c.body_a + "-" + c.body_b;
    return "no collision-free start found (the rest pose touches:" + contacts + ")";
  }
  PlannerOptions options = default_preset();
  options.timeout_ms = 2000.0;
  std::string last;
  for (int attempt = 0; attempt < 20; ++attempt) {
    const JointVector goal = random_in_group(*model, planner.group_variables(), *start, random);
    if (planner.checker().in_collision(goal)) continue;
    try {
      const PlanResult result = planner.plan(*start, JointGoal{goal}, options);
      if (result.path.empty()) return "empty path";
      if (!result.path.back().isApprox(goal, 1e-6)) return "the path does not end at the goal";
      for (int v = 0; v < model->dof(); ++v)
        if (std::find(planner.group_variables().begin(), planner.group_variables().end(), v) ==
                planner.group_variables().end() &&
            result.path.back()[v] != (*start)[v])
          return "joint '" + model->variable_joint(v).name + "' outside the group moved";
      return "";
    } catch (const Error& error) {
      last = error.message();
    }
  }
  return "no plan: " + last;
}

}  // namespace kinetic
