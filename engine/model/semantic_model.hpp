#pragma once
// The SRDF: groups, group states, end effectors, virtual joints, passive joints, disabled
// collision pairs.
#include <map>
#include <string>
#include <vector>

namespace kinetic {

struct SrdfGroup {
  std::string name;
  std::vector<std::pair<std::string, std::string>> chains;  // (base_link, tip_link)
  std::vector<std::string> joints;
  std::vector<std::string> links;
  std::vector<std::string> subgroups;
  std::vector<int> subgroup_lines;  // while parsing: the line of each <group> member (for warnings)
};

struct SrdfGroupState {
  std::string name;
  std::string group;
  std::map<std::string, double> joint_values;  // joint name -> value
};

struct SrdfEndEffector {
  std::string name;
  std::string parent_link;
  std::string group;         // the end effector's own group (e.g. the hand)
  std::string parent_group;  // the arm it is attached to ("" when not given)
};

struct SrdfVirtualJoint {
  std::string name;
  std::string type;  // fixed | floating | planar
  std::string parent_frame;
  std::string child_link;
  int line = 0;  // of its <virtual_joint> element
};

struct SrdfDisabledPair {
  std::string link1, link2;
  std::string reason;  // Adjacent, Never, Default, ...
};

struct SemanticModel {
  std::string robot_name;
  std::vector<SrdfGroup> groups;
  std::vector<SrdfGroupState> group_states;
  std::vector<SrdfEndEffector> end_effectors;
  std::vector<SrdfVirtualJoint> virtual_joints;
  std::vector<SrdfDisabledPair> disabled_collisions;
  // Joints MoveIt does not plan (a gripper's linkage): left out of every group's variables.
  std::vector<std::string> passive_joints;
  bool empty() const {
    return groups.empty() && group_states.empty() && disabled_collisions.empty();
  }
};

}  // namespace kinetic
