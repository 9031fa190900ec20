#include "engine/model/moveit_config_files.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/yaml_fields.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/model/xacro/xacro_limits.hpp"

namespace fs = std::filesystem;

namespace kinetic {

namespace {

constexpr InputKind kMoveItYamlInput{"MoveIt config file", 4 * kMiB};

// config/joint_limits.yaml as messages name it: relative to the package folder.
std::string shown(const MoveItConfigPackage& package, const std::string& file) {
  return fs::path(file).lexically_relative(package.folder).string();
}

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

bool flag(const YamlFields& fields, const YAML::Node& node, const std::string& field) {
  if (!node.IsDefined()) return false;
  try {
    return node.as<bool>();
  } catch (const YAML::Exception&) {
    fields.fail(node, field, "expected true or false");
  }
}

double positive(const YamlFields& fields, const YAML::Node& node, const std::string& field) {
  const double value = fields.number(node, field);
  if (value <= 0.0) fields.fail(node, field, "must be above zero, got " + number_text(value));
  return value;
}

// A moving joint of the robot by this name, else a warning naming the entry; false to skip it.
bool known_joint(const RobotModel& model, const YamlFields& fields, const YAML::Node& at,
                 const std::string& joint, std::vector<std::string>& warnings) {
  const int index = model.find_joint(joint);
  if (index >= 0 && model.joints()[index].is_moving()) return true;
  warnings.push_back(fields.source() + ":" + std::to_string(at.Mark().line + 1) + ": joint '" +
                     xacro::limits::clip(joint) + "' is not a moving joint of robot '" +
                     model.name() + "': skipped");
  return false;
}

// One joint's entry of joint_limits.yaml, MoveIt's keys: has_X_limits switches max_X on.
void read_joint_limits(const RobotModel& model, const YamlFields& fields, const std::string& joint,
                       const YAML::Node& entry, RobotConfig& config) {
  const std::string field = "joint_limits." + joint;
  const auto enabled = [&](const char* has) {
    return flag(fields, fields.member(entry, has, field), field + "." + has);
  };
  if (enabled("has_velocity_limits"))
    config.velocity_limits[joint] =
        positive(fields, fields.required(entry, "max_velocity", field), field + ".max_velocity");
  if (enabled("has_acceleration_limits"))
    config.acceleration_limits[joint] = positive(
        fields, fields.required(entry, "max_acceleration", field), field + ".max_acceleration");
  if (enabled("has_jerk_limits"))
    config.jerk_limits[joint] =
        positive(fields, fields.required(entry, "max_jerk", field), field + ".max_jerk");
  if (enabled("has_position_limits")) {
    const double lower =
        fields.number(fields.required(entry, "min_position", field), field + ".min_position");
    const double upper =
        fields.number(fields.required(entry, "max_position", field), field + ".max_position");
    if (lower > upper) fields.fail(entry, field, "min_position is above max_position");
    if (!model.joint(joint).limits.has_position_limits)
      fields.fail(
          entry, field,
          "position limits on a continuous joint are not supported (make it revolute in the URDF)");
    config.position_limits[joint] = {lower, upper};
  }
}

double scaling(const YamlFields& fields, const YAML::Node& root, const char* key) {
  const YAML::Node node = fields.member(root, key, key);
  if (!node.IsDefined()) return 1.0;
  const double value = fields.number(node, key);
  if (value <= 0.0 || value > 1.0)
    fields.fail(node, key, "must be in (0, 1], got " + number_text(value));
  return value;
}

std::string apply_joint_limits(const MoveItConfigPackage& package, const RobotModel& model,
                               RobotConfig& config, std::vector<std::string>& warnings) {
  const YamlFields fields(package.joint_limits);
  const YAML::Node root = fields.parse(read_input_file(package.joint_limits, kMoveItYamlInput));
  config.default_velocity_scaling = scaling(fields, root, "default_velocity_scaling_factor");
  config.default_acceleration_scaling =
      scaling(fields, root, "default_acceleration_scaling_factor");
  const YAML::Node limits = fields.member(root, "joint_limits", "joint_limits");
  if (limits.IsDefined() && !limits.IsNull() && !limits.IsMap())
    fields.fail(limits, "joint_limits", "expected a map of joints");
  int joints = 0;
  if (limits.IsMap())
    for (const auto& entry : limits) {
      const std::string joint = entry.first.as<std::string>("");
      if (!known_joint(model, fields, entry.first, joint, warnings)) continue;
      RobotConfig with = config;  // each joint's entry is used whole or not at all
      try {
        read_joint_limits(model, fields, joint, entry.second, with);
        config = std::move(with);
        ++joints;
      } catch (const Error& error) {
        warnings.push_back(std::string(error.what()) + ": joint '" + joint +
                           "' keeps the URDF's limits");
      }
    }
  std::string note = "joint limits: " + shown(package, package.joint_limits) + " (" +
                     std::to_string(joints) + (joints == 1 ? " joint" : " joints");
  if (config.default_velocity_scaling != 1.0 || config.default_acceleration_scaling != 1.0)
    note += "; default scaling: velocity " + number_text(config.default_velocity_scaling) +
            ", acceleration " + number_text(config.default_acceleration_scaling);
  return note + ")";
}

// kinematics.yaml: per group, the solver plugin and its settings. The engine has one IK
// configuration: the first group listed that the robot has sets it; the solver is the engine's own
// (analytic where the arm allows, else numeric), whatever plugin is named.
std::string apply_kinematics(const MoveItConfigPackage& package, const RobotModel& model,
                             RobotConfig& config, std::vector<std::string>& warnings) {
  const YamlFields fields(package.kinematics);
  const YAML::Node root = fields.parse(read_input_file(package.kinematics, kMoveItYamlInput));
  if (!root.IsMap()) fields.fail(root, "kinematics", "expected a map of planning groups");
  const std::vector<std::string> groups = model.group_names();
  for (const auto& entry : root) {
    const std::string group = entry.first.as<std::string>("");
    if (std::find(groups.begin(), groups.end(), group) == groups.end()) {
      warnings.push_back(fields.source() + ":" + std::to_string(entry.first.Mark().line + 1) +
                         ": group '" + xacro::limits::clip(group) +
                         "' is not in the SRDF: skipped");
      continue;
    }
    IkConfig ik = config.ik;
    ik.group = group;
    std::string plugin;
    if (const YAML::Node solver = fields.member(entry.second, "kinematics_solver", group);
        solver.IsDefined())
      plugin = fields.text(solver, group + ".kinematics_solver");
    if (const YAML::Node timeout = fields.member(entry.second, "kinematics_solver_timeout", group);
        timeout.IsDefined())
      ik.timeout_ms = 1000.0 * positive(fields, timeout, group + ".kinematics_solver_timeout");
    if (const YAML::Node iterations = fields.member(entry.second, "max_solver_iterations", group);
        iterations.IsDefined())
      ik.max_iterations =
          std::max(1, int(positive(fields, iterations, group + ".max_solver_iterations")));
    config.ik = ik;
    return "IK: " + shown(package, package.kinematics) + " (group " + group + ", timeout " +
           number_text(ik.timeout_ms) + " ms" +
           (plugin.empty() ? ""
                           : "; " + printable(plugin.substr(0, 80)) +
                                 " is served by the engine's own solver") +
           ")";
  }
  return "IK: " + shown(package, package.kinematics) +
         " names no group of the robot: the engine's defaults";
}

std::string apply_initial_positions(const MoveItConfigPackage& package, const RobotModel& model,
                                    RobotConfig& config, std::vector<std::string>& warnings) {
  const YamlFields fields(package.initial_positions);
  const YAML::Node root =
      fields.parse(read_input_file(package.initial_positions, kMoveItYamlInput));
  const YAML::Node positions = fields.member(root, "initial_positions", "initial_positions");
  if (!positions.IsMap()) fields.fail(root, "initial_positions", "expected a map of joint values");
  std::map<std::string, double> values;
  for (const auto& entry : positions) {
    const std::string joint = entry.first.as<std::string>("");
    if (!known_joint(model, fields, entry.first, joint, warnings)) continue;
    values[joint] = fields.number(entry.second, "initial_positions." + joint);
  }
  config.initial_positions = std::move(values);
  return "initial pose: " + shown(package, package.initial_positions) + " (" +
         std::to_string(config.initial_positions.size()) + " joints)";
}

}  // namespace

void apply_moveit_config_files(const MoveItConfigPackage& package, const RobotModel& model,
                               RobotConfig& config, std::vector<std::string>& notes,
                               std::vector<std::string>& warnings) {
  using Apply = std::string (*)(const MoveItConfigPackage&, const RobotModel&, RobotConfig&,
                                std::vector<std::string>&);
  const std::pair<const std::string*, Apply> files[] = {
      {&package.joint_limits, &apply_joint_limits},
      {&package.kinematics, &apply_kinematics},
      {&package.initial_positions, &apply_initial_positions}};
  for (const auto& [file, apply] : files) {
    if (file->empty()) continue;
    RobotConfig with = config;  // a file that fails is not used at all
    std::vector<std::string> file_warnings;
    try {
      notes.push_back(apply(package, model, with, file_warnings));
      config = std::move(with);
      warnings.insert(warnings.end(), file_warnings.begin(), file_warnings.end());
    } catch (const Error& error) {
      warnings.push_back(std::string(error.what()) + " (" + shown(package, *file) +
                         " skipped: fix it and reload)");
    }
  }
}

}  // namespace kinetic
