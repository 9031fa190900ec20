#pragma once
// The optional "stored_states" field of a session file: the user's stored states, each
// { "name": "above bin", "joints": { "shoulder_pan_joint": 0.1, ... } } (rad, m; by joint name).
// Reading checks every entry against the robot the session opens with: an entry without a name,
// one named like an entry above it, one naming a joint the robot does not have or leaving one of
// its joints out, or one with a value that is not a finite number is dropped with a warning naming
// it; the other states and the session open. Sessions written before the field open without states.
#include <QStringList>
#include <nlohmann/json.hpp>
#include <vector>

#include "engine/model/robot_model.hpp"
#include "panels/stored_state.hpp"

namespace kinetic::app {

nlohmann::json stored_states_json(const std::vector<panels::StoredState>& states);

std::vector<panels::StoredState> stored_states_from_json(const nlohmann::json& value,
                                                         const RobotModel& robot,
                                                         QStringList& warnings);

}  // namespace kinetic::app
