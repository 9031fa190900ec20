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
std::string wrap_into_limits(const RobotModel* model, const std::string& joint_name,
                             double& value) {
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
  text << "joint '" << joint_name << "' = " << value << " is outside its limits [" << limits.lower
       << ", " << limits.upper << "]; taken as " << turned
       << ", the same angle a whole number of turns on";
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

// One SRDF document read into a SemanticModel, one member function per kind of element. Virtual
// joints are read first (groups and group states may name them like any joint), then the groups
// (subgroups may refer to groups defined later), then everything else in document order.
class SrdfReader {
 public:
  SrdfReader(const std::string& source, const RobotModel* model,
             const std::function<void(const std::string&)>& warn)
      : source_(source), model_(model), warn_(warn), check_{source, model, virtual_names_, warn} {}

  SemanticModel read(const XMLElement* robot) {
    semantic_.robot_name = attribute(robot, "name");
    if (model_ && !semantic_.robot_name.empty() && semantic_.robot_name != model_->name())
      warn_(source_ + ": SRDF robot name '" + semantic_.robot_name + "' differs from the URDF's '" +
            model_->name() + "'");
    read_virtual_joints(robot);
    read_groups(robot);
    drop_unknown_subgroups();
    refuse_subgroup_cycles();
    read_other_elements(robot);
    return std::move(semantic_);
  }

 private:
  void read_virtual_joints(const XMLElement* robot) {
    for (const XMLElement* element = robot->FirstChildElement("virtual_joint"); element;
         element = element->NextSiblingElement("virtual_joint")) {
      SrdfVirtualJoint vj;
      vj.name = required(element, "name", source_);
      vj.type = required(element, "type", source_);
      vj.parent_frame = required(element, "parent_frame", source_);
      vj.child_link = required(element, "child_link", source_);
      vj.line = element->GetLineNum();
      if (vj.type != "fixed" && vj.type != "floating" && vj.type != "planar") {
        warn_(where(source_, element) + ": virtual_joint '" + vj.name + "' has type '" + vj.type +
              "' (fixed, floating or planar); it is skipped");
        continue;
      }
      if (!check_.link(vj.child_link, element, "virtual_joint '" + vj.name + "'")) continue;
      if (model_ && model_->find_joint(vj.name) >= 0) {
        warn_(where(source_, element) + ": virtual_joint '" + vj.name +
              "' has the name of a URDF joint; it is skipped");
        continue;
      }
      virtual_names_.insert(vj.name);
      semantic_.virtual_joints.push_back(std::move(vj));
    }
  }

  void read_groups(const XMLElement* robot) {
    for (const XMLElement* element = robot->FirstChildElement("group"); element;
         element = element->NextSiblingElement("group")) {
      SrdfGroup group;
      group.name = required(element, "name", source_);
      if (group_index_.count(group.name)) {
        warn_(where(source_, element) + ": group '" + group.name +
              "' is defined twice; this definition is skipped");
        continue;
      }
      group_index_.emplace(group.name, semantic_.groups.size());
      for (const XMLElement* member = element->FirstChildElement(); member;
           member = member->NextSiblingElement())
        read_group_member(group, member);
      semantic_.groups.push_back(std::move(group));
      group_elements_.push_back(element);
    }
    for (const auto& g : semantic_.groups) group_names_.push_back(g.name);
  }

  // One <joint>, <link>, <chain> or <group> of a group; a name the robot lacks skips the member.
  void read_group_member(SrdfGroup& group, const XMLElement* member) {
    const std::string in_group = " of group '" + group.name + "'";
    const std::string kind = member->Name();
    if (kind == "joint") {
      const std::string name = required(member, "name", source_);
      if (!check_.joint(name, member, "this <joint>" + in_group)) return;
      if (std::find(group.joints.begin(), group.joints.end(), name) != group.joints.end()) {
        warn_(where(source_, member) + ": joint '" + name + "' is listed twice in group '" +
              group.name + "'");
        return;
      }
      group.joints.push_back(name);
    } else if (kind == "link") {
      const std::string name = required(member, "name", source_);
      if (!check_.link(name, member, "this <link>" + in_group)) return;
      if (std::find(group.links.begin(), group.links.end(), name) == group.links.end())
        group.links.push_back(name);
    } else if (kind == "chain") {
      const std::string base = required(member, "base_link", source_);
      const std::string tip = required(member, "tip_link", source_);
      if (!check_.chain(base, tip, member, "this <chain>" + in_group)) return;
      group.chains.emplace_back(base, tip);
    } else if (kind == "group") {
      group.subgroups.push_back(required(member, "name", source_));
      group.subgroup_lines.push_back(member->GetLineNum());
    } else {
      warn_(where(source_, member) + ": <" + kind + "> in group '" + group.name + "' is ignored");
    }
  }

  void drop_unknown_subgroups() {
    for (SrdfGroup& group : semantic_.groups) {
      std::vector<std::string> kept;
      for (std::size_t k = 0; k < group.subgroups.size(); ++k) {
        const std::string& sub = group.subgroups[k];
        if (group_index_.count(sub)) {
          kept.push_back(sub);
          continue;
        }
        warn_(source_ + ":" + std::to_string(group.subgroup_lines[k]) + ": group '" + sub +
              "' is not defined in the SRDF; this subgroup of group '" + group.name +
              "' is skipped (" + suggestion_hint(sub, group_names_) + ")");
      }
      group.subgroups = std::move(kept);
      group.subgroup_lines.clear();
    }
  }

  // One depth-first search that visits every group once (a group whose search has finished leads
  // to no cycle: a fresh search per group and per path took 2^n steps on a chain of groups each
  // naming the next twice), on an explicit stack (however deep the nesting).
  void refuse_subgroup_cycles() const {
    enum class Mark { Unseen, OnPath, Done };
    std::vector<Mark> mark(semantic_.groups.size(), Mark::Unseen);
    std::vector<std::pair<std::size_t, std::size_t>> path;  // (group, its next subgroup to visit)
    for (std::size_t root = 0; root < semantic_.groups.size(); ++root) {
      if (mark[root] != Mark::Unseen) continue;
      mark[root] = Mark::OnPath;
      path.assign(1, {root, 0});
      while (!path.empty()) {
        auto& [g, next] = path.back();
        const std::vector<std::string>& subgroups = semantic_.groups[g].subgroups;
        if (next == subgroups.size()) {
          mark[g] = Mark::Done;
          path.pop_back();
          continue;
        }
        const std::size_t sub = group_index_.at(subgroups[next++]);
        if (mark[sub] == Mark::OnPath)  // the path led back to it: it is in the cycle
          throw Error(ErrorCode::InvalidModel, where(source_, group_elements_[sub]) + ": group '" +
                                                   semantic_.groups[sub].name +
                                                   "' contains itself through its subgroups");
        if (mark[sub] == Mark::Unseen) {
          mark[sub] = Mark::OnPath;
          path.emplace_back(sub, 0);
        }
      }
    }
  }

  bool known_group(const std::string& name, const XMLElement* element,
                   const std::string& skipped) const {
    if (group_index_.count(name)) return true;
    warn_(where(source_, element) + ": group '" + name + "' is not defined in the SRDF; " +
          skipped + " is skipped (" + suggestion_hint(name, group_names_) + ")");
    return false;
  }

  void read_other_elements(const XMLElement* robot) {
    for (const XMLElement* element = robot->FirstChildElement(); element;
         element = element->NextSiblingElement()) {
      const std::string tag = element->Name();
      if (tag == "group" || tag == "virtual_joint") continue;
      if (tag == "group_state")
        read_group_state(element);
      else if (tag == "end_effector")
        read_end_effector(element);
      else if (tag == "passive_joint")
        read_passive_joint(element);
      else if (tag == "disable_collisions")
        read_disabled_pair(element);
      else
        warn_(where(source_, element) + ": SRDF element <" + tag +
              "> is not used by Kinetic and is ignored");
    }
  }

  void read_group_state(const XMLElement* element) {
    SrdfGroupState state;
    state.name = required(element, "name", source_);
    state.group = attribute(element, "group");
    const std::string skipped = "group_state '" + state.name + "'";
    if (state.group.empty())
      warn_(where(source_, element) + ": group_state '" + state.name + "' names no group");
    else if (!known_group(state.group, element, skipped))
      return;
    for (const XMLElement* joint = element->FirstChildElement("joint"); joint;
         joint = joint->NextSiblingElement("joint")) {
      const std::string name = required(joint, "name", source_);
      if (!check_.joint(name, joint, "its value in " + skipped)) continue;
      const std::string value = required(joint, "value", source_);
      if (virtual_names_.count(name)) {
        add_virtual_joint_values(semantic_, state, name, value, source_, joint, warn_);
        continue;
      }
      double parsed = parse_value(value, name, source_, joint);
      if (const std::string wrapped = wrap_into_limits(model_, name, parsed); !wrapped.empty())
        warn_(where(source_, joint) + ": " + skipped + ": " + wrapped);
      state.joint_values[name] = parsed;
    }
    semantic_.group_states.push_back(std::move(state));
  }

  void read_end_effector(const XMLElement* element) {
    SrdfEndEffector ee;
    ee.name = required(element, "name", source_);
    ee.parent_link = required(element, "parent_link", source_);
    ee.group = required(element, "group", source_);
    ee.parent_group = attribute(element, "parent_group");
    const std::string skipped = "end_effector '" + ee.name + "'";
    if (!check_.link(ee.parent_link, element, skipped) || !known_group(ee.group, element, skipped))
      return;
    if (!ee.parent_group.empty() && !known_group(ee.parent_group, element, skipped)) return;
    semantic_.end_effectors.push_back(std::move(ee));
  }

  void read_passive_joint(const XMLElement* element) {
    const std::string name = required(element, "name", source_);
    if (!check_.joint(name, element, "passive_joint '" + name + "'")) return;
    if (std::find(semantic_.passive_joints.begin(), semantic_.passive_joints.end(), name) ==
        semantic_.passive_joints.end())
      semantic_.passive_joints.push_back(name);
  }

  void read_disabled_pair(const XMLElement* element) {
    SrdfDisabledPair pair;
    pair.link1 = required(element, "link1", source_);
    pair.link2 = required(element, "link2", source_);
    pair.reason = attribute(element, "reason");
    const std::string skipped = "this disable_collisions pair";
    if (!check_.link(pair.link1, element, skipped) || !check_.link(pair.link2, element, skipped))
      return;
    semantic_.disabled_collisions.push_back(std::move(pair));
  }

  const std::string& source_;
  const RobotModel* model_;
  const std::function<void(const std::string&)>& warn_;
  std::set<std::string> virtual_names_;  // before check_, which refers to it
  const Checker check_;
  SemanticModel semantic_;
  std::vector<const XMLElement*> group_elements_;   // the <group> of each of semantic_.groups
  std::map<std::string, std::size_t> group_index_;  // name -> index in semantic_.groups
  std::vector<std::string> group_names_;            // of semantic_.groups, once they are read
};

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
  return SrdfReader(source, model, warn).read(robot);
}

SemanticModel load_srdf_file(const std::string& path, const RobotModel* model,
                             std::vector<std::string>* warnings) {
  return parse_srdf(read_input_file(path, kSrdfInput), path, model, warnings);
}

}  // namespace kinetic
