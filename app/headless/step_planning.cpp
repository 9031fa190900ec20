#include "app/headless/step_planning.hpp"

#include <chrono>
#include <cstdio>

#include "app/headless/job_execution.hpp"
#include "engine/planning/path_processing.hpp"

namespace kinetic::app::headless {

namespace {

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", fraction * 100.0);
  return text;
}

// Why the line stopped, with what is at fault when the planner named it.
std::string stop_text(const CartesianResult& line) {
  std::string text = line.stop_reason;
  if (!line.joint_at_fault.empty() && text.find(line.joint_at_fault) == std::string::npos)
    text += " (joint '" + line.joint_at_fault + "')";
  return text;
}

PlanResult plan_cartesian_step(Planner& planner, const StepSpec& step, const JointVector& current,
                               const PlanningGoal& goal, const PlanControl& control,
                               const std::string& what) {
  const auto begin = std::chrono::steady_clock::now();
  CartesianSegment segment = step.arc;
  if (const auto* pose = std::get_if<PoseGoal>(&goal))
    segment = CartesianSegment::line_to(pose->pose);
  else if (const auto* relative = std::get_if<RelativeGoal>(&goal))
    segment = CartesianSegment::line_to(relative_target(planner.tcp_pose(current), *relative));
  const CartesianResult line =
      planner.plan_cartesian(current, {segment}, step.cartesian_options, control);
  const char* shape = segment.type == CartesianSegment::Type::Arc ? "arc" : "straight line";
  if (line.path.size() < 2)
    throw JobFailure(kExitPlanningFailed,
                     what + ": the TCP's " + shape + " could not start: " + stop_text(line));
  // min_fraction is a job file's setting: on the command line the hint says where it is.
  const std::string accepts_less =
      step.from_command_line ? " (a job file's \"cartesian\": { \"min_fraction\" } accepts less)"
                             : " (\"cartesian\": { \"min_fraction\" } accepts less)";
  if (line.fraction < step.min_fraction - 1e-12)
    throw JobFailure(kExitPlanningFailed,
                     what + ": the TCP's " + shape + " stopped at " + percent(line.fraction) +
                         " of the way: " + stop_text(line) + "; the step needs " +
                         percent(step.min_fraction) + accepts_less);

  PlanResult result;
  result.path = line.path;
  result.planner = "cartesian";
  result.iterations = line.steps;
  result.length_before = result.length_after = path_length(line.path);
  result.margin_used = step.cartesian_options.margin;
  if (!line.complete())
    result.notes.push_back(std::string("the TCP's ") + shape + " stopped at " +
                           percent(line.fraction) + " of the way (accepted by min_fraction " +
                           percent(step.min_fraction) + "): " + stop_text(line));
  result.planning_time_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  result.search_time_ms = result.planning_time_ms;
  return result;
}

}  // namespace

PlanResult plan_step(Planner& planner, const StepSpec& step, const JointVector& current,
                     const PlanningGoal& goal, const PlanControl& control,
                     const std::string& what) {
  if (step.cartesian) return plan_cartesian_step(planner, step, current, goal, control, what);
  if (step.constraints.empty()) return planner.plan(current, goal, step.options, control);
  PathConstraints constraints = step.constraints;
  if (step.orientation_from_start)
    constraints.orientation->orientation = Quaternion(planner.tcp_pose(current).linear());
  return planner.plan_constrained(current, goal, constraints, step.options, control);
}

}  // namespace kinetic::app::headless
