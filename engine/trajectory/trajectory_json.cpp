// JSON form of a trajectory (schema: docs/trajectory-format.md).
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "engine/core/error.hpp"
#include "engine/core/json_input.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/trajectory/trajectory_io.hpp"

namespace kinetic {
namespace {

using nlohmann::json;

json to_array(const Eigen::Ref<const JointVector>& v) {
  json a = json::array();
  for (Eigen::Index i = 0; i < v.size(); ++i) a.push_back(v[i]);
  return a;
}

[[noreturn]] void fail(const std::string& source, const std::string& what,
                       ErrorCode code = ErrorCode::ParseError) {
  throw Error(code, source + ": " + what, "see docs/trajectory-format.md for the schema");
}

const json& field(const json& object, const char* name, const std::string& source,
                  const std::string& where) {
  const auto it = object.find(name);
  if (it == object.end()) fail(source, where + "missing field '" + name + "'");
  return *it;
}

// A key the schema does not have is refused (with a did-you-mean), as in scene files: a typo in
// an optional field ("waypoint_time") would otherwise be dropped silently.
void only_keys(const json& object, const std::vector<std::string>& known, const std::string& source,
               const std::string& where) {
  if (object.size() <= known.size()) {
    bool all_known = true;
    for (const auto& item : object.items())
      all_known = all_known && std::find(known.begin(), known.end(), item.key()) != known.end();
    if (all_known) return;
  }
  for (const auto& item : object.items())
    if (std::find(known.begin(), known.end(), item.key()) == known.end()) {
      const std::vector<std::string> close = closest_names(item.key(), known, 1);
      throw Error(ErrorCode::ParseError,
                  source + ": " + where + "unknown field '" + printable(item.key()) + "'",
                  close.empty() ? "see docs/trajectory-format.md for the schema"
                                : "did you mean '" + close.front() +
                                      "'? (docs/trajectory-format.md has the schema)");
    }
}

double number(const json& value, const std::string& source, const std::string& what) {
  if (!value.is_number())
    fail(source, what + " is not a number (NaN and infinity are not allowed)");
  const double x = value.get<double>();
  if (!std::isfinite(x)) fail(source, what + " is not finite");
  return x;
}

JointVector vector_field(const json& sample, const char* name, std::size_t dof,
                         const std::vector<std::string>& joints, const std::string& source,
                         const std::string& where) {
  const json& a = field(sample, name, source, where);
  if (!a.is_array() || a.size() != dof)
    fail(source, where + "'" + name + "' must be an array of " + std::to_string(dof) + " numbers" +
                     (a.is_array() ? ", it has " + std::to_string(a.size()) : std::string()));
  JointVector v(static_cast<Eigen::Index>(dof));
  for (std::size_t j = 0; j < dof; ++j)
    v[static_cast<Eigen::Index>(j)] = number(
        a[j], source, where + name + "[" + std::to_string(j) + "] (joint '" + joints[j] + "')");
  return v;
}

}  // namespace

std::string trajectory_to_json(const Trajectory& t) {
  json doc;
  doc["format"] = "kinetic-trajectory";
  doc["format_version"] = kTrajectoryFormatVersion;
  doc["robot"] = t.robot();
  doc["joint_names"] = t.joint_names();
  json units = json::array();
  for (PositionUnit u : t.units()) units.push_back(to_string(u));
  doc["units"] = {{"time", "s"}, {"position", units}};
  doc["waypoint_times"] = t.waypoint_times();
  json samples = json::array();
  for (const auto& s : t.samples())
    samples.push_back({{"t", s.t},
                       {"q", to_array(s.position)},
                       {"qd", to_array(s.velocity)},
                       {"qdd", to_array(s.acceleration)}});
  doc["samples"] = std::move(samples);
  try {
    return doc.dump(1) + "\n";
  } catch (const json::type_error&) {
    // JSON text must be UTF-8; names read from a CSV file (or given by a caller) need not be.
    throw Error(
        ErrorCode::InvalidValue,
        "cannot write the trajectory as JSON: the robot name or a joint name is not valid UTF-8",
        "rename the robot or joint, or export as CSV");
  }
}

Trajectory trajectory_from_json(const std::string& text, const std::string& source) {
  const JsonTextCheck check = check_json_text(text);
  // Syntax, numbers such as 1e400, or nesting past kMaxJsonNesting.
  if (!check.malformed.empty()) fail(source, "malformed JSON: " + check.malformed);
  // A key given twice would silently keep one of its values (one of two "samples" arrays).
  if (check.duplicate)
    fail(source, check.duplicate->path + ": duplicate key \"" + check.duplicate->key +
                     "\" (a key may appear only once in an object)");
  const json doc = json::parse(text);
  if (!doc.is_object()) fail(source, "the top level must be an object");
  only_keys(
      doc,
      {"format", "format_version", "robot", "joint_names", "units", "waypoint_times", "samples"},
      source, "");
  const json& format = field(doc, "format", source, "");
  if (!format.is_string() || format.get<std::string>() != "kinetic-trajectory")
    fail(source, "field 'format' must be \"kinetic-trajectory\"");
  const json& version = field(doc, "format_version", source, "");
  if (!version.is_number_integer()) fail(source, "field 'format_version' must be an integer");
  // Compared as a JSON number: get<int>() wrapped 4294967297 to 1, which then loaded as version 1.
  if (version != kTrajectoryFormatVersion)
    fail(source,
         "format_version " + version.dump() + " is not supported (this build reads version " +
             std::to_string(kTrajectoryFormatVersion) + ")",
         ErrorCode::Unsupported);
  const json& robot = field(doc, "robot", source, "");
  if (!robot.is_string()) fail(source, "field 'robot' must be a string");
  const json& names_json = field(doc, "joint_names", source, "");
  std::vector<std::string> names;
  if (!names_json.is_array()) fail(source, "field 'joint_names' must be an array of strings");
  for (const auto& n : names_json) {
    if (!n.is_string()) fail(source, "field 'joint_names' must be an array of strings");
    names.push_back(n.get<std::string>());
  }
  const json& units_json = field(doc, "units", source, "");
  if (!units_json.is_object()) fail(source, "field 'units' must be an object");
  only_keys(units_json, {"time", "position"}, source, "units: ");
  const json& time_unit = field(units_json, "time", source, "units: ");
  if (!time_unit.is_string() || time_unit.get<std::string>() != "s")
    fail(source, "units.time must be \"s\"");
  const json& position_units = field(units_json, "position", source, "units: ");
  if (!position_units.is_array() || position_units.size() != names.size())
    fail(source,
         "units.position must list one unit per joint (" + std::to_string(names.size()) + ")");
  std::vector<PositionUnit> units;
  for (std::size_t j = 0; j < names.size(); ++j) {
    const json& u = position_units[j];
    if (u == "rad")
      units.push_back(PositionUnit::Radian);
    else if (u == "m")
      units.push_back(PositionUnit::Metre);
    else
      fail(source, "units.position[" + std::to_string(j) + "] (joint '" + names[j] +
                       "') must be \"rad\" or \"m\"");
  }
  std::vector<double> waypoint_times;
  if (const auto it = doc.find("waypoint_times"); it != doc.end()) {
    if (!it->is_array()) fail(source, "field 'waypoint_times' must be an array of numbers");
    for (std::size_t i = 0; i < it->size(); ++i)
      waypoint_times.push_back(
          number((*it)[i], source, "waypoint_times[" + std::to_string(i) + "]"));
  }
  const json& samples_json = field(doc, "samples", source, "");
  if (!samples_json.is_array()) fail(source, "field 'samples' must be an array");
  static const std::vector<std::string> kSampleKeys = {"t", "q", "qd", "qdd"};
  std::vector<TrajectorySample> samples;
  samples.reserve(samples_json.size());
  for (std::size_t i = 0; i < samples_json.size(); ++i) {
    const std::string where = "sample " + std::to_string(i) + ": ";
    const json& s = samples_json[i];
    if (!s.is_object()) fail(source, where + "must be an object");
    only_keys(s, kSampleKeys, source, where);
    samples.push_back({number(field(s, "t", source, where), source, where + "'t'"),
                       vector_field(s, "q", names.size(), names, source, where),
                       vector_field(s, "qd", names.size(), names, source, where),
                       vector_field(s, "qdd", names.size(), names, source, where)});
  }
  try {
    return Trajectory(robot.get<std::string>(), std::move(names), std::move(units),
                      std::move(samples), std::move(waypoint_times));
  } catch (const Error& e) {
    fail(source, e.message());
  }
}

}  // namespace kinetic
