#include "engine/model/srdf_loader.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/model/xml_errors.hpp"

namespace kinetic {

namespace {

using tinyxml2::XMLElement;

std::string where(const std::string& source, const XMLElement* element) {
  return source + ":" + std::to_string(element->GetLineNum());
}

std::string attribute(const XMLElement* element, const char* name) {
  const char* value = element->Attribute(name);
  return value ? std::string(value) : std::string{};
}

std::string required(const XMLElement* element, const char* name, const std::string& source) {
  const char* value = element->Attribute(name);
  if (!value || !*value)
    throw Error(
        ErrorCode::ParseError,
        where(source, element) + ": <" + element->Name() + "> has no '" + name + "' attribute",
        "every <" + std::string(element->Name()) + "> needs " + name + "=\"...\"");
  return value;
}

std::vector<std::string> link_names(const RobotModel& model) {
  std::vector<std::string> names;
  for (const Link& link : model.links()) names.push_back(link.name);
  return names;
}

std::vector<std::string> joint_names(const RobotModel& model) {
  std::vector<std::string> names;
  for (const Joint& joint : model.joints()) names.push_back(joint.name);
  return names;
}

// Names an element uses that the robot lacks are warnings, and the element is skipped, as MoveIt's
// srdfdom does: one stale name (a joint renamed in the URDF, a group state for a joint of another
// variant of the robot) leaves the rest of the SRDF in force. Each check returns whether the name
// is known; the warning says which element is skipped, where, and the closest names.
struct Checker {
  const std::string& source;
  const RobotModel* model;
  const std::set<std::string>& virtual_joints;  // joints of the SRDF's own <virtual_joint>s
  const std::function<void(const std::string&)>& warn;

  bool link(const std::string& name, const XMLElement* element, const std::string& skipped) const {
    if (!model || model->find_link(name) >= 0) return true;
    warn(where(source, element) + ": link '" + name + "' is not in robot '" + model->name() +
         "'; " + skipped + " is skipped (" + suggestion_hint(name, link_names(*model)) + ")");
    return false;
  }
  bool joint(const std::string& name, const XMLElement* element, const std::string& skipped) const {
    if (!model || model->find_joint(name) >= 0 || virtual_joints.count(name)) return true;
    warn(where(source, element) + ": joint '" + name + "' is not in robot '" + model->name() +
         "'; " + skipped + " is skipped (" + suggestion_hint(name, joint_names(*model)) + ")");
    return false;
  }
  bool chain(const std::string& base, const std::string& tip, const XMLElement* element,
             const std::string& skipped) const {
    if (!model) return true;
    if (!link(base, element, skipped) || !link(tip, element, skipped)) return false;
    try {
      (void)model->chain_joints(base, tip);
      return true;
    } catch (const Error& e) {
      warn(where(source, element) + ": " + e.message() + "; " + skipped + " is skipped (" +
           e.hint() + ")");
      return false;
    }
  }
};

double parse_value(const std::string& text, const std::string& joint, const std::string& source,
                   const XMLElement* element) {
  std::istringstream stream(text);
  double value = 0.0;
  if (!(stream >> value))
    throw Error(ErrorCode::ParseError, where(source, element) + ": joint '" + joint +
                                           "' has value '" + text + "', not a number");
  if (!std::isfinite(value))
    throw Error(ErrorCode::InvalidValue, where(source, element) + ": joint '" + joint +
                                             "' has a non-finite value '" + text + "'");
  return value;
}

// A revolute joint's value outside its limits that lies within them a whole number of turns on is
// the same posture written another way (ROS packages often give -pi/2 for a joint limited to
// [0.33, 5.95]): it is taken that way, so the pose can be a start. "" when nothing was changed;
// else the warning that says so.
std::string wrap_into_limits(const RobotModel* model, const std::string& joint_name, double& value) {
  if (!model) return {};
  const int j = model->find_joint(joint_name);
  if (j < 0) return {};
  const Joint& joint = model->joints()[static_cast<std::size_t>(j)];
  const JointLimits& limits = joint.limits;
  constexpr double kTolerance = 1e-9, kTurn = 2.0 * 3.14159265358979323846;
  if (joint.type != JointType::Revolute || !limits.has_position_limits) return {};
  if (value >= limits.lower - kTolerance && value <= limits.upper + kTolerance) return {};
  const double turned = value + kTurn * std::ceil((limits.lower - kTolerance - value) / kTurn);
  if (turned > limits.upper + kTolerance) return {};
  std::ostringstream text;
  text << "joint '" << joint_name << "' = " << value << " is outside its limits [" << limits.lower << ", "
       << limits.upper << "]; taken as " << turned << ", the same angle a whole number of turns on";
  value = turned;
  return text.str();
}

// A group state's value for a virtual joint: a planar one takes "x y theta", kept as the values of
// its joints NAME/x, NAME/y and NAME/theta (MoveIt's names); other values are skipped, said.
void add_virtual_joint_values(const SemanticModel& semantic, SrdfGroupState& state,
                              const std::string& name, const std::string& text,
                              const std::string& source, const XMLElement* element,
                              const std::function<void(const std::string&)>& warn) {
  const auto vj = std::find_if(semantic.virtual_joints.begin(), semantic.virtual_joints.end(),
                               [&](const SrdfVirtualJoint& v) { return v.name == name; });
  std::istringstream stream(text);
  std::vector<double> values;
  for (double v = 0; stream >> v;) values.push_back(v);
  if (vj == semantic.virtual_joints.end() || vj->type != "planar" || values.size() != 3 ||
      !stream.eof() ||
      !std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); })) {
    warn(where(source, element) + ": group_state '" + state.name + "': the value '" + text +
         "' of virtual joint '" + name +
         "' is skipped (only a planar virtual joint's \"x y theta\" is used)");
    return;
  }
  state.joint_values[name + "/x"] = values[0];
  state.joint_values[name + "/y"] = values[1];
  state.joint_values[name + "/theta"] = values[2];
}

// Both formats have a <robot> root, so a URDF passed as the SRDF (the URDF given twice) would
// otherwise load as an SRDF with no groups and a warning per link. Only a URDF has <link> and
// <joint> children; a file that also has SRDF elements is left to the per-element warnings.
void refuse_urdf(const XMLElement* robot, const std::string& source) {
  static const std::set<std::string> srdf_tags{
      "group",         "group_state",        "end_effector",      "virtual_joint",
      "passive_joint", "disable_collisions", "enable_collisions", "disable_default_collisions"};
  bool links = false, joints = false;
  for (const XMLElement* element = robot->FirstChildElement(); element;
       element = element->NextSiblingElement()) {
    const std::string tag = element->Name();
    if (srdf_tags.count(tag)) return;
    links = links || tag == "link";
    joints = joints || tag == "joint";
  }
  if (!links && !joints) return;
  const std::string found = links && joints ? "<link> and <joint> elements"
                            : links         ? "<link> elements"
                                            : "<joint> elements";
  throw Error(ErrorCode::ParseError,
              where(source, robot) + ": this SRDF file looks like a URDF (it has " + found + ")",
              "pass the robot's .srdf file as the SRDF, not the URDF again");
}

}  // namespace

SemanticModel parse_srdf(const std::string& xml, const std::string& source, const RobotModel* model,
                         std::vector<std::string>* warnings) {
  const std::function<void(const std::string&)> warn = [&](const std::string& message) {
    if (warnings) warnings->push_back(message);
  };
  tinyxml2::XMLDocument doc;
  detail::parse_xml(doc, xml, source, "SRDF XML");
  const XMLElement* robot = doc.FirstChildElement("robot");
  if (!robot)
    throw Error(ErrorCode::ParseError, source + ": not an SRDF: the root element is not <robot>",
                "an SRDF document starts with <robot name=\"...\">");
  refuse_urdf(robot, source);

  SemanticModel semantic;
  semantic.robot_name = attribute(robot, "name");
  if (model && !semantic.robot_name.empty() && semantic.robot_name != model->name())
    warn(source + ": SRDF robot name '" + semantic.robot_name + "' differs from the URDF's '" +
         model->name() + "'");

  // Virtual joints first: groups and group states may name them like any joint.
  std::set<std::string> virtual_names;
  const Checker check{source, model, virtual_names, warn};
  for (const XMLElement* element = robot->FirstChildElement("virtual_joint"); element;
       element = element->NextSiblingElement("virtual_joint")) {
    SrdfVirtualJoint vj;
    vj.name = required(element, "name", source);
    vj.type = required(element, "type", source);
    vj.parent_frame = required(element, "parent_frame", source);
    vj.child_link = required(element, "child_link", source);
    vj.line = element->GetLineNum();
    if (vj.type != "fixed" && vj.type != "floating" && vj.type != "planar") {
      warn(where(source, element) + ": virtual_joint '" + vj.name + "' has type '" + vj.type +
           "' (fixed, floating or planar); it is skipped");
      continue;
    }
    if (!check.link(vj.child_link, element, "virtual_joint '" + vj.name + "'")) continue;
    if (model && model->find_joint(vj.name) >= 0) {
      warn(where(source, element) + ": virtual_joint '" + vj.name +
           "' has the name of a URDF joint; it is skipped");
      continue;
    }
    virtual_names.insert(vj.name);
    semantic.virtual_joints.push_back(std::move(vj));
  }

  // Groups next (subgroups may refer to groups defined later).
  std::vector<const XMLElement*> group_elements;
  std::map<std::string, std::size_t> group_index;  // name -> index in semantic.groups
  for (const XMLElement* element = robot->FirstChildElement("group"); element;
       element = element->NextSiblingElement("group")) {
    SrdfGroup group;
    group.name = required(element, "name", source);
    if (group_index.count(group.name)) {
      warn(where(source, element) + ": group '" + group.name +
           "' is defined twice; this definition is skipped");
      continue;
    }
    group_index.emplace(group.name, semantic.groups.size());
    const std::string in_group = " of group '" + group.name + "'";
    for (const XMLElement* member = element->FirstChildElement(); member;
         member = member->NextSiblingElement()) {
      const std::string kind = member->Name();
      if (kind == "joint") {
        const std::string name = required(member, "name", source);
        if (!check.joint(name, member, "this <joint>" + in_group)) continue;
        if (std::find(group.joints.begin(), group.joints.end(), name) != group.joints.end()) {
          warn(where(source, member) + ": joint '" + name + "' is listed twice in group '" +
               group.name + "'");
          continue;
        }
        group.joints.push_back(name);
      } else if (kind == "link") {
        const std::string name = required(member, "name", source);
        if (!check.link(name, member, "this <link>" + in_group)) continue;
        if (std::find(group.links.begin(), group.links.end(), name) == group.links.end())
          group.links.push_back(name);
      } else if (kind == "chain") {
        const std::string base = required(member, "base_link", source);
        const std::string tip = required(member, "tip_link", source);
        if (!check.chain(base, tip, member, "this <chain>" + in_group)) continue;
        group.chains.emplace_back(base, tip);
      } else if (kind == "group") {
        group.subgroups.push_back(required(member, "name", source));
        group.subgroup_lines.push_back(member->GetLineNum());
      } else {
        warn(where(source, member) + ": <" + kind + "> in group '" + group.name + "' is ignored");
      }
    }
    semantic.groups.push_back(std::move(group));
    group_elements.push_back(element);
  }
  std::vector<std::string> group_names;
  for (const auto& g : semantic.groups) group_names.push_back(g.name);
  auto known_group = [&](const std::string& name, const XMLElement* element,
                         const std::string& skipped) {
    if (group_index.count(name)) return true;
    warn(where(source, element) + ": group '" + name + "' is not defined in the SRDF; " + skipped +
         " is skipped (" + suggestion_hint(name, group_names) + ")");
    return false;
  };
  for (SrdfGroup& group : semantic.groups) {
    std::vector<std::string> kept;
    for (std::size_t k = 0; k < group.subgroups.size(); ++k) {
      const std::string& sub = group.subgroups[k];
      if (group_index.count(sub)) {
        kept.push_back(sub);
        continue;
      }
      warn(source + ":" + std::to_string(group.subgroup_lines[k]) + ": group '" + sub +
           "' is not defined in the SRDF; this subgroup of group '" + group.name +
           "' is skipped (" + suggestion_hint(sub, group_names) + ")");
    }
    group.subgroups = std::move(kept);
    group.subgroup_lines.clear();
  }
  // Subgroup cycles: one depth-first search that visits every group once (a group whose search
  // has finished leads to no cycle: a fresh search per group and per path took 2^n steps on a chain
  // of groups each naming the next twice), on an explicit stack (however deep the nesting).
  {
    enum class Mark { Unseen, OnPath, Done };
    std::vector<Mark> mark(semantic.groups.size(), Mark::Unseen);
    std::vector<std::pair<std::size_t, std::size_t>> path;  // (group, its next subgroup to visit)
    for (std::size_t root = 0; root < semantic.groups.size(); ++root) {
      if (mark[root] != Mark::Unseen) continue;
      mark[root] = Mark::OnPath;
      path.assign(1, {root, 0});
      while (!path.empty()) {
        auto& [g, next] = path.back();
        const std::vector<std::string>& subgroups = semantic.groups[g].subgroups;
        if (next == subgroups.size()) {
          mark[g] = Mark::Done;
          path.pop_back();
          continue;
        }
        const std::size_t sub = group_index.at(subgroups[next++]);
        if (mark[sub] == Mark::OnPath)  // the path led back to it: it is in the cycle
          throw Error(ErrorCode::InvalidModel, where(source, group_elements[sub]) + ": group '" +
                                                   semantic.groups[sub].name + "' contains itself through its subgroups");
        if (mark[sub] == Mark::Unseen) {
          mark[sub] = Mark::OnPath;
          path.emplace_back(sub, 0);
        }
      }
    }
  }

  for (const XMLElement* element = robot->FirstChildElement(); element;
       element = element->NextSiblingElement()) {
    const std::string tag = element->Name();
    if (tag == "group" || tag == "virtual_joint") continue;
    if (tag == "group_state") {
      SrdfGroupState state;
      state.name = required(element, "name", source);
      state.group = attribute(element, "group");
      const std::string skipped = "group_state '" + state.name + "'";
      if (state.group.empty())
        warn(where(source, element) + ": group_state '" + state.name + "' names no group");
      else if (!known_group(state.group, element, skipped))
        continue;
      for (const XMLElement* joint = element->FirstChildElement("joint"); joint;
           joint = joint->NextSiblingElement("joint")) {
        const std::string name = required(joint, "name", source);
        if (!check.joint(name, joint, "its value in " + skipped)) continue;
        const std::string value = required(joint, "value", source);
        if (virtual_names.count(name)) {
          add_virtual_joint_values(semantic, state, name, value, source, joint, warn);
          continue;
        }
        double parsed = parse_value(value, name, source, joint);
        if (const std::string wrapped = wrap_into_limits(model, name, parsed); !wrapped.empty())
          warn(where(source, joint) + ": " + skipped + ": " + wrapped);
        state.joint_values[name] = parsed;
      }
      semantic.group_states.push_back(std::move(state));
    } else if (tag == "end_effector") {
      SrdfEndEffector ee;
      ee.name = required(element, "name", source);
      ee.parent_link = required(element, "parent_link", source);
      ee.group = required(element, "group", source);
      ee.parent_group = attribute(element, "parent_group");
      const std::string skipped = "end_effector '" + ee.name + "'";
      if (!check.link(ee.parent_link, element, skipped) || !known_group(ee.group, element, skipped))
        continue;
      if (!ee.parent_group.empty() && !known_group(ee.parent_group, element, skipped)) continue;
      semantic.end_effectors.push_back(std::move(ee));
    } else if (tag == "passive_joint") {
      const std::string name = required(element, "name", source);
      if (!check.joint(name, element, "passive_joint '" + name + "'")) continue;
      if (std::find(semantic.passive_joints.begin(), semantic.passive_joints.end(), name) ==
          semantic.passive_joints.end())
        semantic.passive_joints.push_back(name);
    } else if (tag == "disable_collisions") {
      SrdfDisabledPair pair;
      pair.link1 = required(element, "link1", source);
      pair.link2 = required(element, "link2", source);
      pair.reason = attribute(element, "reason");
      const std::string skipped = "this disable_collisions pair";
      if (!check.link(pair.link1, element, skipped) || !check.link(pair.link2, element, skipped))
        continue;
      semantic.disabled_collisions.push_back(std::move(pair));
    } else {
      warn(where(source, element) + ": SRDF element <" + tag +
           "> is not used by Kinetic and is ignored");
    }
  }
  return semantic;
}

SemanticModel load_srdf_file(const std::string& path, const RobotModel* model,
                             std::vector<std::string>* warnings) {
  return parse_srdf(read_input_file(path, kSrdfInput), path, model, warnings);
}

}  // namespace kinetic
