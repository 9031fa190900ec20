#pragma once
// Pick and place steps in a job file: "pick_place": { "object", "place", "place_yaw_steps"?,
// "gripper"?, "approach_distance"?, "lift_distance"?, "place_distance"?, "retreat_distance"?,
// "attach_link"?, "touch_links"?, "max_grasps"? }, the engine's PickPlaceRequest field by field
// (engine/task/pick_place.hpp); the step's "planner", "preset" and "options" plan the free-space
// stages, its "cartesian" settings the straight ones. Documented in docs/headless-jobs.md,
// "Pick and place tasks: `pick_place` steps" (the engine's planner: docs/engine-api.md).
#include <QJsonObject>

#include <string>
#include <vector>

#include "app/headless/job_json_fields.hpp"

namespace kinetic::app::headless {

// The step settings a pick and place step takes from "defaults": the free-space stages' planner,
// preset and options, the straight stages' Cartesian settings (not min_fraction: they are
// completed whole) and the timing's scalings (a motion step's timing and constraints do not apply
// to it).
inline const std::vector<std::string> kPickPlaceDefaults = {
    "planner", "preset", "options", "cartesian", "velocity_scaling", "acceleration_scaling"};

// Whether a step's object is a pick and place step (gives "pick_place").
bool is_pick_place_step(const job_json::Fields& step_fields);

// Refuses what a pick and place step does not take ("goal", "constraints", a "timing" other than
// time_optimal, "cartesian" settings that would let a straight stage stop part way or pass through
// obstacles) and parses "pick_place" into step.pick_place. JobError naming the field.
void parse_pick_place_step(const job_json::Fields& step_fields, StepSpec& step);

// After the step's settings are applied over the defaults' (the motion steps' parsers): refuses
// a planner that cannot plan the free-space stages ("cartesian"), naming the step's "planner" or
// "defaults.planner" where it came from, and a "min_fraction" below 1 in the step's "cartesian".
void check_pick_place_settings(const job_json::Fields& step_fields, const StepSpec& step);

// The keys of the job's "defaults" object that are in kPickPlaceDefaults.
QJsonObject pick_place_defaults(const QJsonValue& defaults);

}  // namespace kinetic::app::headless
