#include "app/session/session_settings.hpp"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "engine/core/error.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/string_similarity.hpp"

namespace kinetic::app {

using json = nlohmann::json;

namespace {

const std::vector<std::string> kTimings = {"time_optimal", "trapezoidal", "scurve", "cubic_spline"};

class SettingsReader {
 public:
  explicit SettingsReader(QStringList& warnings) : warnings_(warnings) {}

  [[noreturn]] static void fail(const std::string& where, const std::string& problem) {
    throw SessionSettingsError(where + ": " + problem);
  }
  // The object at `where`, its unknown keys named in the warnings.
  const json& object(const json& value, const std::string& where,
                     const std::vector<std::string>& known) const {
    if (!value.is_object()) fail(where, "expected an object");
    for (const auto& item : value.items())
      if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
        const std::string hint = suggestion_hint(item.key(), known, 1);
        warnings_ << QStringLiteral("%1: unknown key \"%2\" was ignored%3.")
                         .arg(QString::fromStdString(where),
                              QString::fromStdString(printable(item.key())),
                              QString::fromStdString(hint.empty() ? std::string()
                                                                  : " (" + hint + ")"));
      }
    return value;
  }
  static const json* find(const json& object, const char* name) {
    const auto it = object.find(name);
    return it == object.end() ? nullptr : &*it;
  }
  static void number(const json& object, const char* name, const std::string& where, double& out) {
    if (const json* value = find(object, name)) {
      if (!value->is_number()) fail(where + "." + name, "expected a number");
      out = value->get<double>();
      if (!std::isfinite(out)) fail(where + "." + name, "expected a finite number");
    }
  }
  static void integer(const json& object, const char* name, const std::string& where, int& out) {
    if (const json* value = find(object, name)) {
      if (!value->is_number_integer() || *value < 0 || *value > 1000000000)
        fail(where + "." + name, "expected a whole number from 0 to 1000000000");
      out = value->get<int>();
    }
  }
  static void boolean(const json& object, const char* name, const std::string& where, bool& out) {
    if (const json* value = find(object, name)) {
      if (!value->is_boolean()) fail(where + "." + name, "expected true or false");
      out = value->get<bool>();
    }
  }

 private:
  QStringList& warnings_;
};

json bounds_json(const std::array<double, 3>& v) {
  return json::array({v[0], v[1], v[2]});
}

void read_bounds(const json& value, const std::string& where, std::array<double, 3>& out) {
  if (!value.is_array() || value.size() != 3)
    SettingsReader::fail(where, "expected [x, y, z] in metres");
  for (std::size_t axis = 0; axis < 3; ++axis) {
    if (!value[axis].is_number()) SettingsReader::fail(where, "expected [x, y, z] in metres");
    out[axis] = value[axis].get<double>();
  }
}

void read_options(const SettingsReader& r, const json& value, PlannerOptions& o) {
  const std::string where = "settings.options";
  const json& f = r.object(value, where,
                           {"timeout_ms", "max_iterations", "margin", "shortcut_passes",
                            "smoothing", "smoothing_passes", "resolution", "range", "seed",
                            "rrt_star_refine_factor", "prm_neighbors", "ik_attempts", "workspace"});
  r.number(f, "timeout_ms", where, o.timeout_ms);
  r.integer(f, "max_iterations", where, o.max_iterations);
  r.number(f, "margin", where, o.margin);
  r.integer(f, "shortcut_passes", where, o.shortcut_passes);
  r.boolean(f, "smoothing", where, o.smoothing);
  r.integer(f, "smoothing_passes", where, o.smoothing_passes);
  r.number(f, "resolution", where, o.resolution);
  r.number(f, "range", where, o.range);
  r.number(f, "rrt_star_refine_factor", where, o.rrt_star_refine_factor);
  r.integer(f, "prm_neighbors", where, o.prm_neighbors);
  r.integer(f, "ik_attempts", where, o.ik_attempts);
  if (const json* seed = r.find(f, "seed")) {
    if (!seed->is_number_unsigned())
      SettingsReader::fail(where + ".seed", "expected a whole number >= 0");
    o.seed = seed->get<std::uint64_t>();
  }
  if (const json* workspace = r.find(f, "workspace")) {
    const json& w = r.object(*workspace, where + ".workspace", {"min", "max"});
    WorkspaceBounds bounds;
    read_bounds(w.value("min", json()), where + ".workspace.min", bounds.min);
    read_bounds(w.value("max", json()), where + ".workspace.max", bounds.max);
    o.workspace = bounds;
  }
  try {
    o.validate();
  } catch (const Error& error) {
    SettingsReader::fail(where, error.message());
  }
}

void read_cartesian(const SettingsReader& r, const json& value, CartesianOptions& c) {
  const std::string where = "settings.cartesian";
  const json& f = r.object(value, where,
                           {"translation_step", "rotation_step", "jump_threshold",
                            "avoid_collisions", "margin", "closed_form_ik"});
  r.number(f, "translation_step", where, c.max_translation_step);
  r.number(f, "rotation_step", where, c.max_rotation_step);
  r.number(f, "jump_threshold", where, c.jump_threshold);
  r.boolean(f, "avoid_collisions", where, c.avoid_collisions);
  r.number(f, "margin", where, c.margin);
  r.boolean(f, "closed_form_ik", where, c.closed_form_ik);
  if (!(c.max_translation_step > 0.0))
    SettingsReader::fail(where + ".translation_step", "must be > 0 (metres)");
  if (!(c.max_rotation_step > 0.0))
    SettingsReader::fail(where + ".rotation_step", "must be > 0 (radians)");
  if (!(c.jump_threshold > 0.0)) SettingsReader::fail(where + ".jump_threshold", "must be > 0");
  if (!(c.margin >= 0.0)) SettingsReader::fail(where + ".margin", "must be >= 0 (metres)");
}

// The parameterization and the scalings: the Planner panel times its plans with them and the
// Trajectories panel re-times with its own, checked alike.
void read_timing(const json& t, const std::string& where, QString& timing, double& velocity,
                 double& acceleration) {
  if (const json* kind = SettingsReader::find(t, "parameterization")) {
    const std::string name = kind->is_string() ? kind->get<std::string>() : std::string();
    if (std::find(kTimings.begin(), kTimings.end(), name) == kTimings.end())
      SettingsReader::fail(where + ".parameterization", "expected one of " + quoted_list(kTimings));
    timing = QString::fromStdString(name);
  }
  SettingsReader::number(t, "velocity_scaling", where, velocity);
  SettingsReader::number(t, "acceleration_scaling", where, acceleration);
  for (const auto& [name, scaling] :
       {std::pair{"velocity_scaling", velocity}, std::pair{"acceleration_scaling", acceleration}})
    if (!(scaling > 0.0 && scaling <= 1.0))
      SettingsReader::fail(where + "." + name, "must be in (0, 1]");
}

}  // namespace

json planner_settings_json(const panels::PlannerSettings& s) {
  const PlannerOptions& o = s.options;
  json options{{"timeout_ms", o.timeout_ms},
               {"max_iterations", o.max_iterations},
               {"margin", o.margin},
               {"shortcut_passes", o.shortcut_passes},
               {"smoothing", o.smoothing},
               {"smoothing_passes", o.smoothing_passes},
               {"resolution", o.resolution},
               {"range", o.range},
               {"rrt_star_refine_factor", o.rrt_star_refine_factor},
               {"prm_neighbors", o.prm_neighbors},
               {"ik_attempts", o.ik_attempts}};
  if (!s.random_seed) options["seed"] = o.seed;  // left out: a new seed for every plan
  if (o.workspace)
    options["workspace"] = {{"min", bounds_json(o.workspace->min)},
                            {"max", bounds_json(o.workspace->max)}};
  const CartesianOptions& c = s.cartesian_options;
  json settings{
      {"planner", s.cartesian ? std::string("cartesian") : std::string(to_string(o.planner))},
      {"options", options},
      {"cartesian",
       {{"translation_step", c.max_translation_step},
        {"rotation_step", c.max_rotation_step},
        {"jump_threshold", c.jump_threshold},
        {"avoid_collisions", c.avoid_collisions},
        {"margin", c.margin},
        {"closed_form_ik", c.closed_form_ik}}},
      {"keep_orientation",
       {{"enabled", s.keep_orientation}, {"tolerance", s.orientation_tolerance}}},
      {"timing",
       {{"parameterization", s.timing.toStdString()},
        {"velocity_scaling", s.velocity_scaling},
        {"acceleration_scaling", s.acceleration_scaling}}},
      {"replace_last_plan", s.replace_last_plan}};
  if (!s.group.isEmpty())
    settings["planning_group"] = s.group.toStdString();  // left out: the first
  return settings;
}

panels::PlannerSettings planner_settings_from_json(const json& value, QStringList& warnings) {
  const SettingsReader r(warnings);
  panels::PlannerSettings s;
  const json& f = r.object(value, "settings",
                           {"planning_group", "planner", "options", "cartesian", "keep_orientation",
                            "timing", "retiming", "task", "replace_last_plan"});
  // Only a name here: whether the robot has (and can plan) the group is the Planner panel's to say.
  if (const json* group = r.find(f, "planning_group")) {
    if (!group->is_string())
      SettingsReader::fail("settings.planning_group", "expected the name of a planning group");
    s.group = QString::fromStdString(group->get<std::string>());
  }
  if (const json* options = r.find(f, "options")) read_options(r, *options, s.options);
  s.random_seed = !(r.find(f, "options") && r.find(*r.find(f, "options"), "seed"));
  if (const json* planner = r.find(f, "planner")) {
    if (!planner->is_string()) SettingsReader::fail("settings.planner", "expected a planner name");
    const std::string name = planner->get<std::string>();
    s.cartesian = name == "cartesian";
    if (!s.cartesian) {
      try {
        s.options.planner = planner_type_from_string(name);
      } catch (const Error& error) {
        SettingsReader::fail(
            "settings.planner",
            error.message() + (error.hint().empty() ? "" : " (" + error.hint() + ")"));
      }
    }
  }
  if (const json* cartesian = r.find(f, "cartesian"))
    read_cartesian(r, *cartesian, s.cartesian_options);
  if (const json* keep = r.find(f, "keep_orientation")) {
    const json& k = r.object(*keep, "settings.keep_orientation", {"enabled", "tolerance"});
    r.boolean(k, "enabled", "settings.keep_orientation", s.keep_orientation);
    r.number(k, "tolerance", "settings.keep_orientation", s.orientation_tolerance);
    if (!(s.orientation_tolerance > 0.0 && s.orientation_tolerance <= M_PI / 2))
      SettingsReader::fail("settings.keep_orientation.tolerance", "must be in (0, pi/2] rad");
  }
  r.boolean(f, "replace_last_plan", "settings", s.replace_last_plan);
  if (const json* timing = r.find(f, "timing")) {
    const std::string where = "settings.timing";
    const json& t =
        r.object(*timing, where, {"parameterization", "velocity_scaling", "acceleration_scaling"});
    read_timing(t, where, s.timing, s.velocity_scaling, s.acceleration_scaling);
  }
  return s;
}

json retime_settings_json(const panels::RetimeSettings& s) {
  return {{"parameterization", s.timing.toStdString()},
          {"velocity_scaling", s.velocity_scaling},
          {"acceleration_scaling", s.acceleration_scaling},
          {"replace_selected", s.replace_selected}};
}

panels::RetimeSettings retime_settings_from_json(const json& value, QStringList& warnings) {
  const SettingsReader r(warnings);
  panels::RetimeSettings s;
  const std::string where = "settings.retiming";
  const json& f = r.object(
      value, where,
      {"parameterization", "velocity_scaling", "acceleration_scaling", "replace_selected"});
  read_timing(f, where, s.timing, s.velocity_scaling, s.acceleration_scaling);
  r.boolean(f, "replace_selected", where, s.replace_selected);
  return s;
}

json task_settings_json(const panels::TaskSettings& s) {
  const bool suction = s.gripper == GripperSpec::Kind::Suction;
  json task{{"object", s.object.toStdString()},
            {"place",
             {{"xyz", bounds_json(s.place_position)},
              {"yaw", s.place_yaw},
              {"follows_object", s.place_follows_object}}},
            {"place_yaw_steps", s.place_yaw_steps},
            {"gripper",
             {{"type", suction ? "suction" : "parallel"},
              {"max_opening", s.max_opening},
              {"finger_depth", s.finger_depth}}},
            {"approach_distance", s.approach_distance},
            {"lift_distance", s.lift_distance}};
  // Left out when empty: the engine's default, as the panel's empty field.
  if (!s.touch_links.isEmpty()) {
    json links = json::array();
    for (const QString& link : s.touch_links) links.push_back(link.toStdString());
    task["touch_links"] = links;
  }
  return task;
}

panels::TaskSettings task_settings_from_json(const json& value, QStringList& warnings) {
  const SettingsReader r(warnings);
  panels::TaskSettings s;
  const std::string where = "settings.task";
  const json& f = r.object(value, where,
                           {"object", "place", "place_yaw_steps", "gripper", "touch_links",
                            "approach_distance", "lift_distance"});
  if (const json* object = r.find(f, "object")) {
    if (!object->is_string())
      SettingsReader::fail(where + ".object", "expected the name of a scene object");
    s.object = QString::fromStdString(object->get<std::string>());
  }
  if (const json* place = r.find(f, "place")) {
    const std::string at = where + ".place";
    const json& p = r.object(*place, at, {"xyz", "yaw", "follows_object"});
    if (const json* xyz = r.find(p, "xyz")) read_bounds(*xyz, at + ".xyz", s.place_position);
    r.number(p, "yaw", at, s.place_yaw);
    r.boolean(p, "follows_object", at, s.place_follows_object);
  }
  r.integer(f, "place_yaw_steps", where, s.place_yaw_steps);
  if (const json* gripper = r.find(f, "gripper")) {
    const std::string at = where + ".gripper";
    const json& g = r.object(*gripper, at, {"type", "max_opening", "finger_depth"});
    if (const json* type = r.find(g, "type")) {
      const std::string name = type->is_string() ? type->get<std::string>() : std::string();
      if (name != "parallel" && name != "suction")
        SettingsReader::fail(at + ".type", "expected \"parallel\" or \"suction\"");
      s.gripper = name == "suction" ? GripperSpec::Kind::Suction : GripperSpec::Kind::Parallel;
    }
    r.number(g, "max_opening", at, s.max_opening);
    r.number(g, "finger_depth", at, s.finger_depth);
    if (!(s.max_opening > 0.0)) SettingsReader::fail(at + ".max_opening", "must be > 0 (metres)");
    if (!(s.finger_depth >= 0.0))
      SettingsReader::fail(at + ".finger_depth", "must be >= 0 (metres)");
  }
  if (const json* links = r.find(f, "touch_links")) {
    if (!links->is_array())
      SettingsReader::fail(where + ".touch_links", "expected an array of link names");
    for (std::size_t i = 0; i < links->size(); ++i) {
      const json& link = (*links)[i];
      if (!link.is_string() || link.get<std::string>().empty())
        SettingsReader::fail(where + ".touch_links[" + std::to_string(i) + "]",
                             "expected a link name");
      s.touch_links << QString::fromStdString(link.get<std::string>());
    }
  }
  r.number(f, "approach_distance", where, s.approach_distance);
  r.number(f, "lift_distance", where, s.lift_distance);
  for (const auto& [name, distance] : {std::pair{"approach_distance", s.approach_distance},
                                       std::pair{"lift_distance", s.lift_distance}})
    if (!(distance >= 0.0)) SettingsReader::fail(where + "." + name, "must be >= 0 (metres)");
  return s;
}

}  // namespace kinetic::app
