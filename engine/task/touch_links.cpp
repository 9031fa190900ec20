// default_touch_links (pick_place.hpp): the links a held object may touch when none are named.
#include <set>

#include "engine/core/error.hpp"
#include "engine/task/pick_place.hpp"

namespace kinetic {

namespace {

// The links of an SRDF group: its links, chains, joints' child links and subgroups.
void add_srdf_group_links(const RobotModel& robot, const std::string& group, std::set<int>& links,
                          std::set<std::string>& visited) {
  if (!visited.insert(group).second) return;
  for (const SrdfGroup& g : robot.semantic().groups) {
    if (g.name != group) continue;
    for (const std::string& link : g.links)
      if (const int index = robot.find_link(link); index >= 0) links.insert(index);
    for (const std::string& joint : g.joints)
      if (const int index = robot.find_joint(joint); index >= 0)
        links.insert(robot.joints()[index].child_link);
    for (const auto& [base, tip] : g.chains) {
      if (robot.find_link(base) < 0 || robot.find_link(tip) < 0) continue;
      links.insert(robot.find_link(base));
      for (int joint : robot.chain_joints(base, tip))
        links.insert(robot.joints()[joint].child_link);
    }
    for (const std::string& sub : g.subgroups) add_srdf_group_links(robot, sub, links, visited);
  }
}

// Whether the group moves any of `variables` (an SRDF end effector whose "group" is the arm itself,
// as some SRDFs write it, names no hand).
bool shares_variables(const RobotModel& robot, const std::string& group,
                      const std::set<int>& variables) {
  try {
    for (int variable : robot.group_variables(group))
      if (variables.count(variable)) return true;
  } catch (const Error&) {
    return true;  // not a group the robot knows: take nothing from it
  }
  return false;
}

}  // namespace

std::vector<std::string> default_touch_links(const RobotModel& robot, const std::string& link,
                                             const std::vector<int>& group_variables) {
  const std::set<int> planned(group_variables.begin(), group_variables.end());
  // A joint the planning group does not drive (fixed, a gripper's finger, a mimic of one) keeps
  // the links on both sides moving together as far as the plan is concerned.
  const auto carries_along = [&](const Joint& joint) {
    const int variable = joint.is_active() ? joint.variable_index : joint.mimic_source_variable;
    return variable < 0 || planned.count(variable) == 0;
  };
  std::set<int> together{robot.link_index(link)};
  std::vector<int> pending{robot.link_index(link)};
  while (!pending.empty()) {
    const Link& current = robot.links()[static_cast<size_t>(pending.back())];
    pending.pop_back();
    std::vector<int> neighbours;
    if (current.parent_joint >= 0 && carries_along(robot.joints()[current.parent_joint]))
      neighbours.push_back(robot.joints()[current.parent_joint].parent_link);
    for (int joint : current.child_joints)
      if (carries_along(robot.joints()[joint]))
        neighbours.push_back(robot.joints()[joint].child_link);
    for (int next : neighbours)
      if (together.insert(next).second) pending.push_back(next);
  }
  std::set<int> touching = together;
  std::set<std::string> visited;
  for (const SrdfEndEffector& effector : robot.semantic().end_effectors) {
    const int parent = robot.find_link(effector.parent_link);
    if (parent < 0 || !together.count(parent) || shares_variables(robot, effector.group, planned))
      continue;
    add_srdf_group_links(robot, effector.group, touching, visited);
  }
  std::vector<std::string> names;
  for (int index : touching) {
    const Link& l = robot.links()[static_cast<size_t>(index)];
    if (l.name != link && !l.collisions.empty()) names.push_back(l.name);
  }
  return names;
}

}  // namespace kinetic
