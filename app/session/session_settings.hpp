#pragma once
// The "settings" object of a session file: the Planner panel's settings (planning group, planner,
// options, seed, Cartesian settings, orientation constraint, timing) and, in "settings.retiming",
// the Trajectories panel's re-time settings and, in "settings.task", the Task panel's setup, so a
// reopened session plans and times the way it did.
// Every field is optional on reading (left out: the panel's default); a value of the wrong type or
// out of range is an error naming its path ("settings.timing.velocity_scaling: must be in (0, 1]"),
// which the session reader turns into a warning: the session still opens. The three are read
// apart, so a bad re-time field does not cost the planner settings, nor the other way round.
#include <QStringList>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "panels/planner_settings.hpp"
#include "panels/retime_settings.hpp"
#include "panels/task_settings.hpp"

namespace kinetic::app {

struct SessionSettingsError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

nlohmann::json planner_settings_json(const panels::PlannerSettings& settings);

// Throws SessionSettingsError; keys this build does not know are named in `warnings`.
panels::PlannerSettings planner_settings_from_json(const nlohmann::json& value,
                                                   QStringList& warnings);

// The "retiming" object inside "settings"; throws SessionSettingsError as above.
nlohmann::json retime_settings_json(const panels::RetimeSettings& settings);
panels::RetimeSettings retime_settings_from_json(const nlohmann::json& value,
                                                 QStringList& warnings);

// The "task" object inside "settings"; throws SessionSettingsError as above. The object is only
// a name here: whether the scene has it is the panel's to say.
nlohmann::json task_settings_json(const panels::TaskSettings& settings);
panels::TaskSettings task_settings_from_json(const nlohmann::json& value, QStringList& warnings);

}  // namespace kinetic::app
