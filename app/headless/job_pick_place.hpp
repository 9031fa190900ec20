#pragma once
// Pick and place steps in a job file: "pick_place": { "object", "place", "place_yaw_steps"?,
// "gripper"?, "approach_distance"?, "lift_distance"?, "place_distance"?, "retreat_distance"?,
// "attach_link"?, "touch_links"?, "max_grasps"? }, the engine's PickPlaceRequest field by field
// (engine/task/pick_place.hpp). Documented in README.md, "Pick and place tasks".
#include <QJsonObject>

#include <string>
#include <vector>

#include "app/headless/job_json_fields.hpp"

namespace kinetic::app::headless {

// The step settings a pick and place step takes from "defaults": the free-space stages' preset and
// options, and the timing's scalings (a motion step's planner, timing, Cartesian settings and
// constraints do not apply to it).
inline const std::vector<std::string> kPickPlaceDefaults = {"preset", "options", "velocity_scaling",
                                                            "acceleration_scaling"};

// Whether a step's object is a pick and place step (gives "pick_place").
bool is_pick_place_step(const job_json::Fields& step_fields);

// Refuses what a pick and place step does not take ("goal", "planner", "cartesian",
// "constraints", a "timing" other than time_optimal) and parses "pick_place" into
// step.pick_place. JobError naming the field.
void parse_pick_place_step(const job_json::Fields& step_fields, StepSpec& step);

// The keys of the job's "defaults" object that are in kPickPlaceDefaults.
QJsonObject pick_place_defaults(const QJsonValue& defaults);

}  // namespace kinetic::app::headless
