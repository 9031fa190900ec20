#pragma once
// Scene steps in a job file (pick and place): "attach" fixes an obstacle to a robot link, so it
// moves with the robot; "detach" releases an attached object where it is. The robot does not move
// in such a step. Documented in docs/headless-jobs.md, "Pick and place: attach and detach steps".
#include <string>
#include <vector>

#include "app/headless/job_json_fields.hpp"

namespace kinetic::app::headless {

// The array `key` of `f` as link names (JobError naming the element at fault; may be empty).
std::vector<std::string> parse_link_list(const job_json::Fields& f, const std::string& key);

// Whether a step's object is a scene step (gives "attach" or "detach").
bool is_scene_step(const job_json::Fields& step_fields);

// "attach": "part" | { "object", "link"?, "touch_links"? } or "detach": "part" | { "object" }.
// motion_fields: the keys only a motion step takes ("goal", "planner", "timing", ...); giving one
// of them, or both "attach" and "detach", is a JobError naming the field.
void parse_scene_step(const job_json::Fields& step_fields,
                      const std::vector<std::string>& motion_fields, StepSpec& step);

}  // namespace kinetic::app::headless
