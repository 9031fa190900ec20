#include "app/planning/keep_orientation.hpp"

#include <cmath>
#include <cstdio>

#include "engine/core/error.hpp"

namespace kinetic::app {

PathConstraints keep_orientation_at(const Planner& planner, const JointVector& start,
                                    double tolerance) {
  PathConstraints constraints;
  constraints.orientation =
      OrientationConstraint{Quaternion(planner.tcp_pose(start).linear()), tolerance};
  return constraints;
}

PlanResult plan_keeping_orientation(Planner& planner, const JointVector& start,
                                    const PlanningGoal& goal, double tolerance,
                                    const PlannerOptions& options, const PlanControl& control) {
  // Before its TCP pose is taken: a wrong size or a joint out of limits is named, as plan() does.
  planner.check_start(start);
  PlanResult result;
  try {
    result = planner.plan_constrained(start, goal, keep_orientation_at(planner, start, tolerance),
                                      options, control);
  } catch (const Error& error) {
    // The engine reports radians; the panel sets degrees.
    if (error.code() != ErrorCode::InvalidValue ||
        error.message().find("path constraints") == std::string::npos)
      throw;
    char tolerance_text[128];
    std::snprintf(
        tolerance_text, sizeof tolerance_text,
        " (Keep TCP orientation: within %.1f° = %.4f rad of the TCP orientation at the start)",
        tolerance * 180.0 / M_PI, tolerance);
    throw Error(error.code(), error.message(), error.hint() + tolerance_text);
  }
  if (options.planner != PlannerType::RrtConnect)
    result.notes.push_back(
        std::string("orientation kept: planned with RRT-Connect plus projection (") +
        to_string(options.planner) + " does not plan constrained motions)");
  return result;
}

}  // namespace kinetic::app
