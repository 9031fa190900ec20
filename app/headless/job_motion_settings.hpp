#pragma once
// The parts of a job step that choose how the TCP may move: Cartesian steps ("planner":
// "cartesian", a straight line to a pose or relative goal, or an "arc" goal; settings in
// "cartesian") and path constraints kept by a free-space step ("constraints"). Documented in
// docs/headless-jobs.md, "Job file".
#include <string>

#include "app/headless/job_json_fields.hpp"

namespace kinetic::app::headless {

inline constexpr const char* kCartesianPlanner = "cartesian";

// "cartesian": { "translation_step", "rotation_step", "jump_threshold", "margin", "min_fraction" }.
void parse_cartesian_settings(const job_json::Fields& step_fields, StepSpec& step);
// "constraints": { "orientation": { "tolerance", "rpy" | "quaternion"? }, "position": { "min",
// "max" }, "joints": [ { "joint", "min", "max" } ] }.
void parse_constraints(const job_json::Fields& step_fields, StepSpec& step);
// goal "arc": { "center": [x, y, z], "axis": [x, y, z], "angle": rad }.
void parse_arc_goal(const job_json::Fields& goal_fields, StepSpec& step);
// What does not go together: a Cartesian step with a joint goal or with constraints, an arc
// without "planner": "cartesian", constraints with a planner other than RRT-Connect.
void check_motion_settings(const StepSpec& step);

}  // namespace kinetic::app::headless
