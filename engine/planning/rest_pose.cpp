#include "engine/planning/rest_pose.hpp"

#include <algorithm>
#include <functional>
#include <optional>

#include "engine/core/error.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/planning/state_diagnostics.hpp"

namespace kinetic {

namespace {

constexpr const char* kZeros = "zeros within the joint limits";

// The default planning group's joints; every joint when the robot has no group that forms a chain.
std::vector<std::string> planning_joint_names(const RobotModel& robot) {
  std::vector<int> variables;
  try {
    variables = robot.group_variables(group_chain(robot).group);
  } catch (const Error&) {
    variables = robot.group_variables("");
  }
  std::vector<std::string> names;
  for (int v : variables) names.push_back(robot.variable_joint(v).name);
  return names;
}

// A kinetic.toml pose always sets the group; an SRDF state must name every joint of it.
bool sets_planning_group(const RobotModel& robot, const std::string& pose,
                         const std::vector<std::string>& group) {
  if (robot.config().named_poses.count(pose)) return true;
  const auto& states = robot.semantic().group_states;
  const auto state = std::find_if(states.begin(), states.end(),
                                  [&](const SrdfGroupState& s) { return s.name == pose; });
  return state != states.end() &&
         std::all_of(group.begin(), group.end(),
                     [&](const std::string& joint) { return state->joint_values.count(joint); });
}

// Poses a robot may rest in, in named_pose_names() order, with their joint values.
std::vector<std::pair<std::string, JointVector>> candidate_poses(const RobotModel& robot) {
  std::vector<std::pair<std::string, JointVector>> out;
  const std::vector<std::string> group = planning_joint_names(robot);
  for (const std::string& name : robot.named_pose_names()) {
    if (!sets_planning_group(robot, name, group)) continue;
    try {
      JointVector q = robot.named_pose(name);
      if (robot.within_limits(q)) out.emplace_back(name, std::move(q));
    } catch (const Error&) {
      // A pose of the wrong length was already a load warning or error; it is no rest pose.
    }
  }
  return out;
}

RestPose choose(const RobotModel& robot, const std::function<CollisionChecker&()>& checker) {
  if (const std::string name = robot.default_pose_name(); !name.empty())
    return {robot.named_pose(name), name, ""};
  const JointVector zeros = robot.zero_configuration();
  const auto candidates = candidate_poses(robot);
  if (candidates.empty()) return {zeros, "", ""};
  CheckOptions self_only;
  self_only.scene = false;
  CollisionChecker& check = checker();
  if (!check.in_collision(zeros, self_only)) return {zeros, "", ""};
  const std::vector<Contact> contacts = check.contacts(zeros, self_only);
  const std::string pairs =
      contacts.empty() ? std::string("(contact pairs unavailable)") : describe_contacts(contacts);
  for (const auto& [name, q] : candidates)
    if (!check.in_collision(q, self_only)) return {q, name, pairs};
  return {zeros, "", pairs};
}

}  // namespace

RestPose rest_pose(const RobotModel& robot, CollisionChecker& checker) {
  return choose(robot, [&checker]() -> CollisionChecker& { return checker; });
}

RestPose rest_pose(const RobotModelPtr& robot) {
  std::optional<CollisionChecker> checker;
  return choose(*robot, [&]() -> CollisionChecker& {
    if (!checker) checker.emplace(robot);
    return *checker;
  });
}

std::string describe(const RestPose& rest) {
  if (rest.zero_contacts.empty()) return rest.pose.empty() ? kZeros : "pose '" + rest.pose + "'";
  if (rest.pose.empty())
    return std::string(kZeros) + ", in self-collision (" + rest.zero_contacts +
           "; no named pose of the planning group within the limits is free either)";
  return "pose '" + rest.pose + "' (" + kZeros + " are in self-collision: " + rest.zero_contacts +
         ")";
}

}  // namespace kinetic
