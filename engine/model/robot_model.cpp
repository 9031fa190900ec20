#include "engine/model/robot_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/core/string_similarity.hpp"

namespace kinetic {

namespace {

std::string format_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+infinity" : "-infinity";
  std::ostringstream out;
  out.precision(6);
  out << v;
  return out.str();
}

}  // namespace

std::vector<std::string> RobotModel::variable_names() const {
  std::vector<std::string> names;
  names.reserve(variable_joints_.size());
  for (int j : variable_joints_) names.push_back(joints_[j].name);
  return names;
}

int RobotModel::find_link(const std::string& name) const {
  auto it = link_by_name_.find(name);
  return it == link_by_name_.end() ? -1 : it->second;
}

int RobotModel::find_joint(const std::string& name) const {
  auto it = joint_by_name_.find(name);
  return it == joint_by_name_.end() ? -1 : it->second;
}

int RobotModel::link_index(const std::string& name) const {
  const int index = find_link(name);
  if (index >= 0) return index;
  std::vector<std::string> names;
  for (const Link& link : links_) names.push_back(link.name);
  throw Error(ErrorCode::MissingLink, "robot '" + name_ + "' has no link '" + name + "'",
              suggestion_hint(name, names));
}

int RobotModel::joint_index(const std::string& name) const {
  const int index = find_joint(name);
  if (index >= 0) return index;
  std::vector<std::string> names;
  for (const Joint& joint : joints_) names.push_back(joint.name);
  throw Error(ErrorCode::MissingJoint, "robot '" + name_ + "' has no joint '" + name + "'",
              suggestion_hint(name, names));
}

int RobotModel::variable_index(const std::string& joint_name) const {
  return joints_[joint_index(joint_name)].variable_index;
}

void RobotModel::validate(const JointVector& q, bool check_limits) const {
  if (q.size() != dof()) {
    std::string names;
    for (const std::string& n : variable_names()) names += (names.empty() ? "" : ", ") + n;
    throw Error(ErrorCode::DimensionMismatch,
                "joint vector has " + std::to_string(q.size()) + " values but robot '" + name_ +
                    "' has " + std::to_string(dof()) + " joint variables",
                "give one value per joint, in the order " + names);
  }
  for (int i = 0; i < dof(); ++i) {
    if (!std::isfinite(q[i])) {
      throw Error(ErrorCode::InvalidValue,
                  "joint '" + variable_joint(i).name + "' (variable " + std::to_string(i) +
                      ") is " + format_value(q[i]),
                  "joint values must be finite numbers (radians, metres for prismatic joints)");
    }
  }
  if (!check_limits) return;
  for (int i = 0; i < dof(); ++i) {
    const JointLimits& l = variable_joint(i).limits;
    if (!l.has_position_limits) continue;
    if (q[i] < l.lower - 1e-9 || q[i] > l.upper + 1e-9)
      throw Error(ErrorCode::OutOfLimits,
                  "joint '" + variable_joint(i).name + "' is at " + format_value(q[i]) +
                      ", outside its limits [" + format_value(l.lower) + ", " +
                      format_value(l.upper) + "]",
                  "move it within its limits (clamp_to_limits() does)");
  }
}

bool RobotModel::within_limits(const JointVector& q, double tolerance) const {
  if (q.size() != dof()) return false;
  for (int i = 0; i < dof(); ++i) {
    if (!std::isfinite(q[i])) return false;
    const JointLimits& l = variable_joint(i).limits;
    if (l.has_position_limits && (q[i] < l.lower - tolerance || q[i] > l.upper + tolerance))
      return false;
  }
  return true;
}

JointVector RobotModel::clamp_to_limits(const JointVector& q) const {
  validate(q, false);
  JointVector out = q;
  for (int i = 0; i < dof(); ++i) {
    const JointLimits& l = variable_joint(i).limits;
    if (l.has_position_limits) out[i] = std::clamp(out[i], l.lower, l.upper);
  }
  return out;
}

JointVector RobotModel::lower_limits() const {
  JointVector out(dof());
  for (int i = 0; i < dof(); ++i) {
    const JointLimits& l = variable_joint(i).limits;
    out[i] = l.has_position_limits ? l.lower : -M_PI;
  }
  return out;
}

JointVector RobotModel::upper_limits() const {
  JointVector out(dof());
  for (int i = 0; i < dof(); ++i) {
    const JointLimits& l = variable_joint(i).limits;
    out[i] = l.has_position_limits ? l.upper : M_PI;
  }
  return out;
}

JointVector RobotModel::mid_configuration() const {
  return 0.5 * (lower_limits() + upper_limits());
}

JointVector RobotModel::zero_configuration() const {
  JointVector out = JointVector::Zero(dof());
  for (int i = 0; i < dof(); ++i) {
    const JointLimits& l = variable_joint(i).limits;
    if (l.has_position_limits) out[i] = std::clamp(0.0, l.lower, l.upper);
  }
  return out;
}

std::vector<int> RobotModel::chain_joints(const std::string& base_link,
                                          const std::string& tip_link) const {
  const int base = link_index(base_link);
  const int tip = link_index(tip_link);
  std::vector<int> path;
  int link = tip;
  while (link != base) {
    const int joint = links_[link].parent_joint;
    if (joint < 0)
      throw Error(ErrorCode::InvalidModel,
                  "link '" + tip_link + "' does not descend from link '" + base_link +
                      "' in robot '" + name_ + "'",
                  "a chain goes from a link down to one of its descendants (base_link first, "
                  "tip_link second)");
    path.push_back(joint);
    link = joints_[joint].parent_link;
  }
  std::reverse(path.begin(), path.end());
  return path;
}

std::vector<std::string> RobotModel::group_names() const {
  std::vector<std::string> names;
  for (const auto& g : config_.planning_groups) names.push_back(g.name);
  for (const auto& g : semantic_.groups)
    if (std::find(names.begin(), names.end(), g.name) == names.end()) names.push_back(g.name);
  return names;
}

std::vector<int> RobotModel::group_variables(const std::string& group_name) const {
  std::vector<int> variables;
  if (group_name.empty() && config_.planning_groups.empty()) {
    for (int i = 0; i < dof(); ++i) variables.push_back(i);
    return variables;
  }
  const PlanningGroupConfig* config_group = nullptr;
  for (const auto& g : config_.planning_groups)
    if (group_name.empty() ? &g == &config_.planning_groups.front() : g.name == group_name)
      config_group = &g;
  if (config_group) {
    if (!config_group->joints.empty()) {
      for (const std::string& j : config_group->joints) {
        const Joint& joint = joints_[joint_index(j)];
        if (joint.is_active()) variables.push_back(joint.variable_index);
      }
    } else {
      for (int j : chain_joints(config_group->base_link, config_group->tip_link))
        if (joints_[j].is_active()) variables.push_back(joints_[j].variable_index);
    }
    return variables;
  }
  // SRDF group (through its subgroups, each once), in model order. An explicit stack and a map:
  // the SRDF loader accepts subgroups nested to any depth, and a recursion with a scan of every
  // group per level overflowed the stack at 100,000 levels (and took 0.7 s at 20,000).
  std::map<std::string, const SrdfGroup*> by_name;
  for (const auto& g : semantic_.groups) by_name[g.name] = &g;  // the last of a name, as before
  const auto found = by_name.find(group_name);
  if (found == by_name.end())
    throw Error(
        ErrorCode::InvalidValue, "robot '" + name_ + "' has no planning group '" + group_name + "'",
        group_names().empty() ? "define one in kinetic.toml ([planning_group.NAME]) or the SRDF"
                              : suggestion_hint(group_name, group_names()));
  std::set<int> joint_set;
  std::set<std::string> visited{group_name};
  std::vector<const SrdfGroup*> pending{found->second};
  while (!pending.empty()) {
    const SrdfGroup* group = pending.back();
    pending.pop_back();
    for (const std::string& j : group->joints) {
      if (const int index = find_joint(j); index >= 0) {
        joint_set.insert(index);
        continue;
      }
      // An SRDF virtual joint: its planned joints when the base was made planar (NAME/x, NAME/y,
      // NAME/theta), else nothing (the base is held fixed; the load said so).
      for (const char* part : {"/x", "/y", "/theta"})
        if (const int index = find_joint(j + part); index >= 0) joint_set.insert(index);
    }
    for (const auto& [base, tip] : group->chains)
      for (int j : chain_joints(base, tip)) joint_set.insert(j);
    for (const std::string& l : group->links) {
      const int parent = links_[link_index(l)].parent_joint;
      if (parent >= 0) joint_set.insert(parent);
    }
    for (const std::string& sub : group->subgroups)
      if (const auto it = by_name.find(sub); it != by_name.end() && visited.insert(sub).second)
        pending.push_back(it->second);
  }
  // Passive joints (a gripper's linkage) are part of the group but never planned, as in MoveIt.
  const std::vector<std::string>& passive = semantic_.passive_joints;
  for (int j : joint_set)
    if (joints_[j].is_active() &&
        std::find(passive.begin(), passive.end(), joints_[j].name) == passive.end())
      variables.push_back(joints_[j].variable_index);
  std::sort(variables.begin(), variables.end());
  return variables;
}

JointVector RobotModel::named_pose(const std::string& name) const {
  return named_pose(name, zero_configuration());
}

JointVector RobotModel::named_pose(const std::string& name, const JointVector& others,
                                   const std::string& group) const {
  validate(others);
  if (auto it = config_.named_poses.find(name); it != config_.named_poses.end()) {
    const std::vector<double>& values = it->second;
    JointVector q = others;
    const std::vector<int> variables = group_variables("");
    if (values.size() == variables.size()) {
      for (std::size_t i = 0; i < values.size(); ++i) q[variables[i]] = values[i];
    } else if (values.size() == static_cast<std::size_t>(dof())) {
      for (int i = 0; i < dof(); ++i) q[i] = values[i];
    } else {
      throw Error(ErrorCode::DimensionMismatch,
                  "named pose '" + name + "' has " + std::to_string(values.size()) +
                      " values, expected " + std::to_string(variables.size()));
    }
    return q;
  }
  if (name == kInitialPositionsPose && !config_.initial_positions.empty()) {
    JointVector q = others;
    for (const auto& [joint_name, value] : config_.initial_positions)
      if (const int j = find_joint(joint_name); j >= 0 && joints_[j].is_active())
        q[joints_[j].variable_index] = value;
    return clamp_to_limits(q);
  }
  // SRDF states are named per group (a dual-arm robot's "ready" for each arm): the asked group's
  // own state; else every state of that name whose group lies within the asked one (both arms'
  // "ready" for a group of the two, or for the whole robot when no group is asked); else the
  // first of that name.
  std::vector<const SrdfGroupState*> states;
  for (const auto& state : semantic_.group_states)
    if (state.name == name && !group.empty() && state.group == group) states = {&state};
  if (states.empty()) {
    const std::vector<int> asked = group.empty() ? std::vector<int>{} : group_variables(group);
    for (const auto& state : semantic_.group_states) {
      if (state.name != name) continue;
      bool within = group.empty();
      if (!within) {
        within = true;
        for (const auto& [joint_name, value] : state.joint_values) {
          const int j = find_joint(joint_name);
          if (j >= 0 && joints_[j].is_active() &&
              std::find(asked.begin(), asked.end(), joints_[j].variable_index) == asked.end())
            within = false;
        }
      }
      if (within) states.push_back(&state);
    }
  }
  if (states.empty())
    for (const auto& state : semantic_.group_states)
      if (state.name == name) {
        states.push_back(&state);
        break;
      }
  if (!states.empty()) {
    JointVector q = others;
    for (const SrdfGroupState* state : states)
      for (const auto& [joint_name, value] : state->joint_values) {
        const int j = find_joint(joint_name);
        if (j >= 0 && joints_[j].is_active()) q[joints_[j].variable_index] = value;
      }
    return q;
  }
  const std::vector<std::string> known = named_pose_names();
  throw Error(ErrorCode::InvalidValue, "robot '" + name_ + "' has no named pose '" + name + "'",
              known.empty() ? "define poses in kinetic.toml [named_poses] or as SRDF group states"
                            : suggestion_hint(name, known));
}

std::string RobotModel::default_pose_name() const {
  const std::vector<std::string> names = named_pose_names();
  for (const char* preferred : {kInitialPositionsPose, "home", "ready", "default"})
    if (std::find(names.begin(), names.end(), preferred) != names.end()) return preferred;
  return {};
}

JointVector RobotModel::default_configuration() const {
  const std::string name = default_pose_name();
  return name.empty() ? zero_configuration() : named_pose(name);
}

std::vector<std::string> RobotModel::named_pose_names() const {
  std::vector<std::string> names;
  for (const auto& [name, values] : config_.named_poses) names.push_back(name);
  if (!config_.initial_positions.empty() &&
      std::find(names.begin(), names.end(), kInitialPositionsPose) == names.end())
    names.push_back(kInitialPositionsPose);
  for (const auto& state : semantic_.group_states)
    if (std::find(names.begin(), names.end(), state.name) == names.end())
      names.push_back(state.name);
  return names;
}

}  // namespace kinetic
