#include "engine/model/robot_model_builder.hpp"

#include <console_bridge/console.h>
#include <tinyxml2.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <mutex>
#include <set>
#include <sstream>
#include <tuple>

#include "engine/core/error.hpp"
#include "engine/core/mesh_file_check.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/model/package_resolver.hpp"
#include "engine/model/xml_errors.hpp"

namespace kinetic {

namespace {
// The least positive velocity limit accepted (rad/s or m/s): a motion timed with a smaller one
// takes longer than a double's times can say.
constexpr double kMinVelocityLimit = 1e-6;
// The longest robot, link or joint name accepted (messages quote names).
constexpr std::size_t kMaxNameLength = 256;
}  // namespace

std::string UrdfDocumentInfo::at_joint(const std::string& name) const {
  auto it = joint_lines.find(name);
  return it == joint_lines.end() ? source : source + ":" + std::to_string(it->second);
}

std::string UrdfDocumentInfo::at_link(const std::string& name) const {
  auto it = link_lines.find(name);
  return it == link_lines.end() ? source : source + ":" + std::to_string(it->second);
}

std::string UrdfDocumentInfo::at(const std::string& name) const {
  return joint_lines.count(name) ? at_joint(name) : at_link(name);
}

namespace {

using tinyxml2::XMLElement;

std::string line_of(const std::string& source, const XMLElement* element) {
  return source + ":" + std::to_string(element->GetLineNum());
}

// console_bridge handler that keeps urdfdom's messages instead of printing them.
class CaptureHandler : public console_bridge::OutputHandler {
 public:
  void log(const std::string& text, console_bridge::LogLevel level, const char* /*filename*/,
           int /*line*/) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors.push_back(text);
    else if (level == console_bridge::CONSOLE_BRIDGE_LOG_WARN)
      warnings.push_back(text);
  }
  std::vector<std::string> errors, warnings;
};

std::mutex& urdfdom_mutex() {
  static std::mutex mutex;
  return mutex;
}

// Deeper trees are refused: the builder walks the tree recursively, one stack frame per level.
constexpr std::size_t kMaxTreeDepth = 500;

// Structural checks with line numbers, before urdfdom (which only says "failed"): one member
// function per check, in the order they run; the link and joint tables they fill are shared.
class StructureCheck {
 public:
  StructureCheck(const std::string& source, UrdfDocumentInfo& info)
      : source_(source), info_(info) {}

  void run(const tinyxml2::XMLDocument& doc) {
    const XMLElement* robot = check_root(doc);
    refuse_percent_signs(robot);
    collect_materials(robot);
    read_links(robot);
    read_joints(robot);
    for (const XMLElement* e : joints_) check_joint(e);
    const std::string root = single_root();
    check_tree_from(root);
  }

 private:
  const XMLElement* check_root(const tinyxml2::XMLDocument& doc) const {
    const XMLElement* robot = doc.RootElement();
    if (!robot || std::string(robot->Name()) != "robot")
      throw Error(ErrorCode::ParseError,
                  source_ + ":" + std::to_string(robot ? robot->GetLineNum() : 1) +
                      ": not a URDF: the root element is <" + (robot ? robot->Name() : "") +
                      ">, not <robot>",
                  "a URDF document starts with <robot name=\"...\">");
    if (!robot->Attribute("name"))
      throw Error(ErrorCode::ParseError,
                  line_of(source_, robot) + ": <robot> has no 'name' attribute",
                  "write <robot name=\"my_robot\">");
    return robot;
  }

  // urdfdom passes some of its messages that quote the file (a malformed <origin xyz/rpy>, <box
  // size>, radius, mass, a material's name, ...) to console_bridge as the printf format itself:
  // a '%' there is read as a conversion ("%n" writes through a stack value: a crash, or glibc's
  // abort; "%p" puts stack addresses in the error shown to the user). No URDF number or name needs
  // a '%', so one is refused before urdfdom sees the file; file names (filename="...", which
  // urdfdom does not quote) keep theirs, e.g. a URL-encoded "part%201.stl".
  void refuse_percent_signs(const XMLElement* robot) const {
    for (const tinyxml2::XMLAttribute* a = robot->FirstAttribute(); a; a = a->Next())
      if (std::string(a->Value()).find('%') != std::string::npos)
        throw Error(
            ErrorCode::ParseError,
            line_of(source_, robot) + ": attribute '" + a->Name() + "' of <robot> contains '%'",
            "URDF numbers and names have no '%' in them: remove it");
    for (const XMLElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string tag = e->Name();
      if (tag == "link" || tag == "joint" || tag == "material")
        refuse_percent_below(e);  // what urdfdom reads
    }
  }

  void refuse_percent_below(const XMLElement* element) const {
    for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a; a = a->Next())
      if (std::string(a->Name()) != "filename" &&
          std::string(a->Value()).find('%') != std::string::npos)
        throw Error(ErrorCode::ParseError,
                    line_of(source_, element) + ": attribute '" + a->Name() + "' of <" +
                        element->Name() + "> contains '%'",
                    "URDF numbers and names have no '%' in them: remove it");
    for (const XMLElement* e = element->FirstChildElement(); e; e = e->NextSiblingElement())
      refuse_percent_below(e);
  }

  // Materials that carry a colour or a texture (global, or defined inside a visual).
  void collect_materials(const XMLElement* parent) {
    for (const XMLElement* e = parent->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (std::string(e->Name()) == "material" && e->Attribute("name") &&
          (e->FirstChildElement("color") || e->FirstChildElement("texture")))
        info_.defined_materials.insert(e->Attribute("name"));
      collect_materials(e);
    }
  }

  void read_links(const XMLElement* robot) {
    for (const XMLElement* e = robot->FirstChildElement("link"); e;
         e = e->NextSiblingElement("link")) {
      const char* name = e->Attribute("name");
      if (!name || !*name)
        throw Error(ErrorCode::ParseError,
                    line_of(source_, e) + ": <link> has no 'name' attribute");
      if (info_.link_lines.count(name))
        throw Error(ErrorCode::ParseError,
                    line_of(source_, e) + ": link '" + name + "' is defined twice (first at line " +
                        std::to_string(info_.link_lines[name]) + ")",
                    "link names must be unique");
      info_.link_lines[name] = e->GetLineNum();
      links_.push_back(name);
    }
    if (links_.empty())
      throw Error(ErrorCode::InvalidModel,
                  source_ + ": robot '" + robot->Attribute("name") + "' has no <link> elements",
                  "a URDF needs at least one link (is this a xacro file that was not expanded?)");
  }

  // Names only: every joint is known before any is checked (a mimic may name a later joint).
  void read_joints(const XMLElement* robot) {
    for (const XMLElement* e = robot->FirstChildElement("joint"); e;
         e = e->NextSiblingElement("joint")) {
      const char* name = e->Attribute("name");
      if (!name || !*name)
        throw Error(ErrorCode::ParseError,
                    line_of(source_, e) + ": <joint> has no 'name' attribute");
      if (info_.joint_lines.count(name))
        throw Error(ErrorCode::ParseError,
                    line_of(source_, e) + ": joint '" + name +
                        "' is defined twice (first at line " +
                        std::to_string(info_.joint_lines[name]) + ")",
                    "joint names must be unique");
      info_.joint_lines[name] = e->GetLineNum();
      info_.joint_order.push_back(name);
      joints_.push_back(e);
    }
  }

  // Its type, its parent and child links (recorded in the tree), its <limit> and its <mimic>.
  void check_joint(const XMLElement* e) {
    const std::string name = e->Attribute("name");
    const std::string type = check_joint_type(e, name);
    const std::string parent = joint_link(e, name, "parent");
    const std::string child = joint_link(e, name, "child");
    if (parent == child)
      throw Error(ErrorCode::InvalidModel, line_of(source_, e) + ": joint '" + name +
                                               "' connects link '" + parent + "' to itself");
    if (parent_of_.count(child))
      throw Error(ErrorCode::InvalidModel,
                  line_of(source_, e) + ": link '" + child + "' is the child of two joints ('" +
                      parent_of_[child] + "' and '" + name + "')",
                  "a URDF is a tree: every link has at most one parent joint");
    parent_of_[child] = name;
    children_of_[parent].push_back(child);
    if ((type == "revolute" || type == "prismatic") && !e->FirstChildElement("limit"))
      throw Error(ErrorCode::ParseError,
                  line_of(source_, e) + ": " + type + " joint '" + name + "' has no <limit>",
                  "add <limit lower=\"...\" upper=\"...\" effort=\"...\" velocity=\"...\"/>");
    if (const XMLElement* mimic = e->FirstChildElement("mimic")) check_mimic(mimic, name);
  }

  std::string check_joint_type(const XMLElement* e, const std::string& name) const {
    const char* type_attr = e->Attribute("type");
    const std::string type = type_attr ? type_attr : "";
    static const std::set<std::string> known{"revolute", "continuous", "prismatic",
                                             "fixed",    "floating",   "planar"};
    if (!known.count(type))
      throw Error(ErrorCode::ParseError,
                  line_of(source_, e) + ": joint '" + name + "' has " +
                      (type.empty() ? std::string("no type") : "the unknown type '" + type + "'"),
                  "use revolute, continuous, prismatic or fixed");
    if (type == "floating" || type == "planar")
      throw Error(
          ErrorCode::Unsupported,
          line_of(source_, e) + ": joint '" + name + "' is " + type +
              "; Kinetic supports revolute, continuous, prismatic and fixed joints",
          "make it a fixed joint (describe a mobile base with an SRDF virtual_joint instead)");
    return type;
  }

  // The link of the joint's <parent> or <child> (`tag`), which must be defined.
  std::string joint_link(const XMLElement* e, const std::string& name, const char* tag) const {
    const XMLElement* element = e->FirstChildElement(tag);
    const char* link = element ? element->Attribute("link") : nullptr;
    if (!link || !*link)
      throw Error(ErrorCode::ParseError,
                  line_of(source_, element ? element : e) + ": joint '" + name + "' has no <" +
                      tag + " link=\"...\"/>",
                  "every joint needs a parent and a child link");
    if (!info_.link_lines.count(link))
      throw Error(ErrorCode::MissingLink,
                  line_of(source_, element) + ": joint '" + name + "' names " + tag + " link '" +
                      link + "', which is not defined",
                  suggestion_hint(link, links_));
    return link;
  }

  void check_mimic(const XMLElement* mimic, const std::string& name) const {
    const char* followed = mimic->Attribute("joint");
    if (!followed || !*followed)
      throw Error(ErrorCode::ParseError, line_of(source_, mimic) + ": <mimic> of joint '" + name +
                                             "' has no 'joint' attribute");
    if (!info_.joint_lines.count(followed)) {
      std::vector<std::string> names(info_.joint_order.begin(), info_.joint_order.end());
      throw Error(ErrorCode::MissingJoint,
                  line_of(source_, mimic) + ": joint '" + name + "' mimics joint '" + followed +
                      "', which is not defined",
                  suggestion_hint(followed, names));
    }
  }

  // The one link without a parent joint.
  std::string single_root() const {
    std::vector<std::string> roots;
    for (const std::string& link : links_)
      if (!parent_of_.count(link)) roots.push_back(link);
    if (roots.empty())
      throw Error(ErrorCode::InvalidModel,
                  source_ + ": the joints form a cycle: no link is the root",
                  "a URDF is a tree: exactly one link has no parent joint");
    if (roots.size() > 1)
      throw Error(ErrorCode::InvalidModel,
                  source_ + ": the robot has " + std::to_string(roots.size()) + " root links (" +
                      quoted_list(roots, " and ") + ")",
                  "connect every link to the tree with a joint; only one link may have no parent");
    return roots.front();
  }

  // Walk the tree from the root without recursion. Links it does not reach lie on a cycle of
  // joints beside the tree (urdfdom built that cycle of shared pointers and leaked it), and a chain
  // thousands of links deep overflowed the stack in the builder's recursive walk (a crash at about
  // 8000 links in a release build, 1000 under AddressSanitizer).
  void check_tree_from(const std::string& root) {
    std::set<std::string> reached;
    std::vector<std::pair<std::string, std::size_t>> pending{{root, 0}};
    while (!pending.empty()) {
      const auto [link, depth] = pending.back();
      pending.pop_back();
      if (depth > kMaxTreeDepth)
        throw Error(ErrorCode::InvalidModel,
                    source_ + ":" + std::to_string(info_.link_lines[link]) + ": link '" + link +
                        "' is " + std::to_string(depth) + " joints from the root link '" + root +
                        "' (at most " + std::to_string(kMaxTreeDepth) + ")",
                    "no robot is that deep; check that this is the right file");
      reached.insert(link);
      for (const std::string& child : children_of_[link]) pending.emplace_back(child, depth + 1);
    }
    if (reached.size() != links_.size()) {
      std::vector<std::string> unreached;
      for (const std::string& link : links_)
        if (!reached.count(link)) unreached.push_back(link);
      throw Error(ErrorCode::InvalidModel,
                  source_ + ": link(s) " + quoted_list(unreached, " and ") +
                      " are not connected to root link '" + root + "': their joints form a cycle",
                  "a URDF is a tree: connect every link to the tree with a joint");
    }
  }

  const std::string& source_;
  UrdfDocumentInfo& info_;
  std::vector<std::string> links_;                               // <link> names in document order
  std::vector<const XMLElement*> joints_;                        // <joint>s in document order
  std::map<std::string, std::string> parent_of_;                 // child link -> joint
  std::map<std::string, std::vector<std::string>> children_of_;  // parent link -> child links
};

void check_structure(const tinyxml2::XMLDocument& doc, const std::string& source,
                     UrdfDocumentInfo& info) {
  StructureCheck(source, info).run(doc);
}

}  // namespace

std::shared_ptr<urdf::ModelInterface> parse_urdf_checked(const std::string& xml,
                                                         const std::string& source,
                                                         UrdfDocumentInfo* info_out,
                                                         std::vector<std::string>* warnings) {
  UrdfDocumentInfo info;
  info.source = source;
  {
    tinyxml2::XMLDocument doc;
    detail::parse_xml(doc, xml, source, "XML");
    check_structure(doc, source, info);
  }

  std::shared_ptr<urdf::ModelInterface> model;
  CaptureHandler capture;
  std::string exception_text;
  {
    std::lock_guard<std::mutex> lock(urdfdom_mutex());
    const console_bridge::LogLevel previous_level = console_bridge::getLogLevel();
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_WARN);
    console_bridge::useOutputHandler(&capture);
    try {
      model = urdf::parseURDF(xml);
    } catch (const std::exception& e) {
      model.reset();
      exception_text = e.what();
    }
    console_bridge::restorePreviousOutputHandler();
    console_bridge::setLogLevel(previous_level);
  }
  if (warnings)
    for (const std::string& w : capture.warnings)
      if (w.find("material '") ==
          std::string::npos)  // undefined materials: reported by the builder
        warnings->push_back(source + ": urdfdom: " + w);
  // urdfdom sometimes logs an error and carries on without the offending element (a visual with a
  // malformed <box>, say): that is a failure too, not a silent fallback.
  if (!capture.errors.empty()) model.reset();
  if (!model) {
    std::string detail;
    for (const std::string& e : capture.errors) detail += (detail.empty() ? "" : "; ") + e;
    if (!exception_text.empty()) detail += (detail.empty() ? "" : "; ") + exception_text;
    if (detail.empty()) detail = "the URDF was rejected";
    // Point at the element urdfdom names ("Joint [x] ...", "link 'x' ...") when we can.
    std::string where = source;
    for (std::size_t pos = 0; pos < detail.size(); ++pos) {
      const char open = detail[pos];
      if (open != '[' && open != '\'') continue;
      const std::size_t close = detail.find(open == '[' ? ']' : '\'', pos + 1);
      if (close == std::string::npos) break;
      const std::string name = detail.substr(pos + 1, close - pos - 1);
      if (info.joint_lines.count(name) || info.link_lines.count(name)) {
        where = info.at(name);
        break;
      }
      pos = close;
    }
    throw Error(ErrorCode::ParseError, where + ": invalid URDF: " + detail,
                "check that element against the URDF specification (numbers, required attributes, "
                "<limit>, <origin xyz rpy>, <geometry>)");
  }
  if (info_out) *info_out = std::move(info);
  return model;
}

namespace {

Pose to_pose(const urdf::Pose& p) {
  Pose pose = Pose::Identity();
  pose.translation() = Vector3(p.position.x, p.position.y, p.position.z);
  Quaternion q(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z);
  if (q.norm() > 0) q.normalize();
  pose.linear() = q.toRotationMatrix();
  return pose;
}

bool finite_pose(const Pose& pose) {
  return pose.matrix().allFinite();
}

}  // namespace

RobotModelBuilder::RobotModelBuilder() : model_(std::make_shared<RobotModel>()) {}

void RobotModelBuilder::set_source_path(const std::string& path) {
  model_->source_path_ = path;
}
void RobotModelBuilder::set_included_files(std::vector<std::string> files) {
  model_->included_files_ = std::move(files);
}
void RobotModelBuilder::set_name(const std::string& name) {
  model_->name_ = name;
}
void RobotModelBuilder::set_semantic(SemanticModel semantic, const std::string& source) {
  // Where a group names a virtual joint, MoveIt plans the base: a planar one (x, y, theta) is made
  // three planned joints; a floating one, or one that cannot be placed, holds the base fixed.
  const RobotModel& m = *model_;
  bool placed = false;
  for (const SrdfVirtualJoint& vj : semantic.virtual_joints) {
    std::vector<std::string> naming;
    for (const SrdfGroup& group : semantic.groups)
      if (std::find(group.joints.begin(), group.joints.end(), vj.name) != group.joints.end())
        naming.push_back(group.name);
    if (naming.empty()) continue;
    const std::string at = source + ":" + std::to_string(vj.line) + ": ";
    const std::string groups =
        "group" + std::string(naming.size() > 1 ? "s " : " ") + quoted_list(naming, " and ");
    const std::string root = m.links_.empty() ? std::string() : m.links_[m.root_link_].name;
    std::string why;
    if (vj.type == "fixed") continue;  // nothing to plan
    if (vj.type == "floating")
      why = "a floating base is not planned by Kinetic";
    else if (placed)
      why = "the robot already stands on another planned virtual joint";
    else if (vj.child_link != root)
      why = "its child link '" + vj.child_link + "' is not the URDF's root link '" + root + "'";
    else if (!add_planar_base(vj.name, vj.parent_frame))
      why = "the names of its joints or its parent frame '" + vj.parent_frame +
            "' are taken by the URDF";
    if (why.empty()) {
      placed = true;
      add_warning(at + "planar virtual_joint '" + vj.name + "' (named by " + groups +
                  ") is planned as joints '" + vj.name + "/x', '" + vj.name + "/y' and '" +
                  vj.name + "/theta' from frame '" + vj.parent_frame + "'; x and y within ±" +
                  std::to_string(static_cast<int>(kPlanarBaseRange)) +
                  " m at the default velocities (kinetic.toml [limits] sets others)");
    } else {
      add_warning(at + vj.type + " virtual_joint '" + vj.name + "' (named by " + groups +
                  ") is held fixed: " + why + "; those groups plan their other joints");
    }
  }
  model_->semantic_ = std::move(semantic);
}
void RobotModelBuilder::add_warning(const std::string& warning) {
  model_->load_warnings_.push_back(warning);
}
void RobotModelBuilder::add_source_notes(const std::vector<std::string>& notes) {
  model_->source_notes_.insert(model_->source_notes_.end(), notes.begin(), notes.end());
}

void RobotModelBuilder::add_warnings(const std::vector<std::string>& warnings) {
  for (const auto& w : warnings) add_warning(w);
}

void RobotModelBuilder::set_config(RobotConfig config) {
  RobotModel& m = *model_;
  for (Joint& joint : m.joints_) {
    if (!joint.is_moving()) continue;
    JointLimits& l = joint.limits;
    if (auto it = config.velocity_limits.find(joint.name); it != config.velocity_limits.end())
      l.velocity = it->second;
    if (auto it = config.acceleration_limits.find(joint.name);
        it != config.acceleration_limits.end())
      l.acceleration = it->second;
    else if (config.default_acceleration > 0.0)
      l.acceleration = config.default_acceleration;
    else
      l.acceleration = kDefaultAccelerationFactor * l.velocity;
    if (auto it = config.jerk_limits.find(joint.name); it != config.jerk_limits.end())
      l.jerk = it->second;
    else
      l.jerk = kDefaultJerkFactor * l.acceleration;
    if (auto it = config.position_limits.find(joint.name);
        it != config.position_limits.end() && l.has_position_limits)
      std::tie(l.lower, l.upper) = it->second;
  }
  m.config_ = std::move(config);
}

bool RobotModelBuilder::add_planar_base(const std::string& name, const std::string& parent_frame) {
  RobotModel& m = *model_;
  const std::string x_link = name + "/x", y_link = name + "/y";
  for (const std::string& link : {parent_frame, x_link, y_link})
    if (m.find_link(link) >= 0) return false;
  for (const std::string& joint : {name + "/x", name + "/y", name + "/theta"})
    if (m.find_joint(joint) >= 0) return false;
  // Three links and joints go in front: every index of the tree moves on by three.
  constexpr int kAdded = 3;
  for (Link& link : m.links_) {
    link.index += kAdded;
    link.parent_joint = link.parent_joint < 0 ? kAdded - 1 : link.parent_joint + kAdded;
    for (int& child : link.child_joints) child += kAdded;
  }
  for (Joint& joint : m.joints_) {
    joint.index += kAdded;
    joint.parent_link += kAdded;
    joint.child_link += kAdded;
    if (joint.variable_index >= 0) joint.variable_index += kAdded;
    if (joint.mimic_source_variable >= 0) joint.mimic_source_variable += kAdded;
  }
  for (int& joint : m.variable_joints_) joint += kAdded;

  std::vector<Link> links(kAdded);
  std::vector<Joint> joints(kAdded);
  const std::string link_names[kAdded] = {parent_frame, x_link, y_link};
  const std::string joint_names[kAdded] = {name + "/x", name + "/y", name + "/theta"};
  const Vector3 axes[kAdded] = {Vector3::UnitX(), Vector3::UnitY(), Vector3::UnitZ()};
  for (int k = 0; k < kAdded; ++k) {
    links[k].name = link_names[k];
    links[k].index = k;
    links[k].parent_joint = k - 1;
    links[k].child_joints = {k};
    Joint& joint = joints[k];
    joint.name = joint_names[k];
    joint.index = k;
    joint.parent_link = k;
    joint.child_link = k + 1;
    joint.axis = axes[k];
    joint.variable_index = k;
    JointLimits& l = joint.limits;
    if (k < 2) {
      joint.type = JointType::Prismatic;
      l.lower = -kPlanarBaseRange;
      l.upper = kPlanarBaseRange;
      l.velocity = kDefaultLinearVelocity;
    } else {
      joint.type = JointType::Continuous;
      l.has_position_limits = false;
      l.lower = -M_PI;
      l.upper = M_PI;
      l.velocity = kDefaultAngularVelocity;
    }
    l.acceleration = kDefaultAccelerationFactor * l.velocity;
    l.jerk = kDefaultJerkFactor * l.acceleration;
  }
  m.links_.insert(m.links_.begin(), links.begin(), links.end());
  m.joints_.insert(m.joints_.begin(), joints.begin(), joints.end());
  m.variable_joints_.insert(m.variable_joints_.begin(), {0, 1, 2});
  m.link_by_name_.clear();
  m.joint_by_name_.clear();
  for (const Link& link : m.links_) m.link_by_name_[link.name] = link.index;
  for (const Joint& joint : m.joints_) m.joint_by_name_[joint.name] = joint.index;
  m.root_link_ = 0;
  return true;
}

RobotModelPtr RobotModelBuilder::finish() {
  RobotModelPtr result = std::move(model_);
  model_ = std::make_shared<RobotModel>();
  return result;
}

namespace {

// Names are quoted in messages: a 10 MB name was printed whole in every one.
void check_name_length(const std::string& name, const std::string& what,
                       const std::string& source) {
  if (name.size() > kMaxNameLength)
    throw Error(ErrorCode::InvalidModel,
                source + ": " + what + " name '" + printable(name.substr(0, 40)) + "…' is " +
                    std::to_string(name.size()) + " characters long; names may have at most " +
                    std::to_string(kMaxNameLength),
                "give it a shorter name");
}

void check_name_lengths(const urdf::ModelInterface& urdf, const std::string& source) {
  check_name_length(urdf.getName(), "the robot's", source);
  for (const auto& [name, link] : urdf.links_) check_name_length(name, "a link's", source);
  for (const auto& [name, joint] : urdf.joints_) check_name_length(name, "a joint's", source);
}

JointType joint_type_of(const urdf::Joint& uj, const std::string& where) {
  switch (uj.type) {
    case urdf::Joint::REVOLUTE:
      return JointType::Revolute;
    case urdf::Joint::CONTINUOUS:
      return JointType::Continuous;
    case urdf::Joint::PRISMATIC:
      return JointType::Prismatic;
    case urdf::Joint::FIXED:
      return JointType::Fixed;
    case urdf::Joint::FLOATING:
    case urdf::Joint::PLANAR:
      throw Error(
          ErrorCode::Unsupported,
          where + ": joint '" + uj.name + "' is " +
              (uj.type == urdf::Joint::FLOATING ? "floating" : "planar") +
              "; Kinetic supports revolute, continuous, prismatic and fixed joints",
          "make it a fixed joint (describe a mobile base with an SRDF virtual_joint instead)");
    default:
      throw Error(ErrorCode::ParseError, where + ": joint '" + uj.name + "' has an unknown type");
  }
}

Vector3 joint_axis(const urdf::Joint& uj, const std::string& where) {
  Vector3 axis(uj.axis.x, uj.axis.y, uj.axis.z);
  if (!axis.allFinite() || axis.norm() < 1e-12)
    throw Error(ErrorCode::InvalidValue,
                where + ": joint '" + uj.name + "' has a zero or non-finite axis",
                "give a non-zero <axis xyz=\"...\"/>");
  return axis.normalized();
}

// The <limit> as the joint's type reads it: a continuous joint has no position limits (its
// values are taken in [-pi, pi]); a fixed joint has none at all.
void read_position_limits(const urdf::Joint& uj, Joint& joint, const std::string& where) {
  JointLimits& l = joint.limits;
  if (uj.limits) {
    l.lower = uj.limits->lower;
    l.upper = uj.limits->upper;
    l.velocity = uj.limits->velocity;
    l.effort = uj.limits->effort;
  }
  if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || !std::isfinite(l.velocity) ||
      !std::isfinite(l.effort))
    throw Error(ErrorCode::InvalidValue,
                where + ": joint '" + uj.name + "' has a non-finite limit");
  switch (joint.type) {
    case JointType::Revolute:
    case JointType::Prismatic:
      l.has_position_limits = true;
      if (l.lower > l.upper)
        throw Error(ErrorCode::InvalidValue,
                    where + ": joint '" + uj.name + "' has lower limit " + std::to_string(l.lower) +
                        " above its upper limit " + std::to_string(l.upper),
                    "swap them");
      break;
    case JointType::Continuous:
      l.has_position_limits = false;
      l.lower = -M_PI;
      l.upper = M_PI;
      break;
    default:
      l = JointLimits{};
      l.has_position_limits = false;
      break;
  }
}

// The tables of the RobotModel that build_from_urdf fills. RobotModel lets only its builder touch
// them, so the builder hands references to them here.
struct ModelTables {
  std::vector<Link>& links;
  std::vector<Joint>& joints;
  std::map<std::string, int>& link_by_name;
  std::map<std::string, int>& joint_by_name;
  std::vector<std::string>& warnings;          // the model's load warnings
  std::vector<std::string>& unresolved_files;  // meshes and textures not found
};

// Converts urdfdom's tree into links and joints, depth-first from the root, children in document
// order: one member function per part of a link or a joint.
class UrdfTreeReader {
 public:
  UrdfTreeReader(const urdf::ModelInterface& urdf, const UrdfDocumentInfo& info,
                 const PackageResolver& resolver, bool require_meshes, ModelTables out)
      : urdf_(urdf), info_(info), resolver_(resolver), require_meshes_(require_meshes), out_(out) {
    for (std::size_t i = 0; i < info.joint_order.size(); ++i)
      document_index_[info.joint_order[i]] = i;
  }

  // Adds the link `ul` (child of joint parent_joint, -1 for the root), then its child joints and
  // their subtrees. The depth is bounded by check_structure (kMaxTreeDepth).
  void read_subtree(const urdf::LinkConstSharedPtr& ul, int parent_joint) {
    const int link_index = static_cast<int>(out_.links.size());
    {
      Link link;
      link.name = ul->name;
      link.index = link_index;
      link.parent_joint = parent_joint;
      read_visuals(*ul, link);
      read_collisions(*ul, link);
      out_.link_by_name[link.name] = link_index;
      out_.links.push_back(std::move(link));
    }
    std::vector<urdf::JointSharedPtr> children = ul->child_joints;
    std::stable_sort(children.begin(), children.end(), [&](const auto& a, const auto& b) {
      return order_of(a->name) < order_of(b->name);
    });
    for (const auto& uj : children) {
      const int joint_index = static_cast<int>(out_.joints.size());
      Joint joint = read_joint(*uj, joint_index, link_index);
      out_.joint_by_name[joint.name] = joint_index;
      out_.links[link_index].child_joints.push_back(joint_index);
      out_.joints.push_back(std::move(joint));
      const urdf::LinkConstSharedPtr child = urdf_.getLink(uj->child_link_name);
      if (!child)
        throw Error(ErrorCode::MissingLink, info_.at_joint(uj->name) + ": joint '" + uj->name +
                                                "' names child link '" + uj->child_link_name +
                                                "', which is not defined");
      out_.joints[joint_index].child_link = static_cast<int>(out_.links.size());
      read_subtree(child, joint_index);
    }
  }

 private:
  std::size_t order_of(const std::string& joint) const {
    auto it = document_index_.find(joint);
    return it == document_index_.end() ? document_index_.size() : it->second;
  }

  void add_warning(const std::string& warning) { out_.warnings.push_back(warning); }

  void read_visuals(const urdf::Link& ul, Link& link) {
    std::vector<urdf::VisualSharedPtr> visuals = ul.visual_array;
    if (visuals.empty() && ul.visual) visuals.push_back(ul.visual);
    for (const auto& v : visuals) {
      if (!v) continue;
      VisualShape shape;
      shape.name = v->name;
      shape.origin = to_pose(v->origin);
      if (!finite_pose(shape.origin))
        throw Error(ErrorCode::InvalidValue, info_.at_link(ul.name) + ": a visual of link '" +
                                                 ul.name + "' has a non-finite origin");
      shape.geometry = convert_geometry(v->geometry, ul.name, "visual");
      shape.material = convert_material(*v, ul.name);
      link.visuals.push_back(std::move(shape));
    }
  }

  void read_collisions(const urdf::Link& ul, Link& link) {
    std::vector<urdf::CollisionSharedPtr> collisions = ul.collision_array;
    if (collisions.empty() && ul.collision) collisions.push_back(ul.collision);
    for (const auto& c : collisions) {
      if (!c) continue;
      CollisionShape shape;
      shape.name = c->name;
      shape.origin = to_pose(c->origin);
      if (!finite_pose(shape.origin))
        throw Error(ErrorCode::InvalidValue, info_.at_link(ul.name) + ": a collision of link '" +
                                                 ul.name + "' has a non-finite origin");
      shape.geometry = convert_geometry(c->geometry, ul.name, "collision");
      link.collisions.push_back(std::move(shape));
    }
  }

  Error invalid_geometry(const std::string& link, const char* what, const std::string& why) const {
    return Error(ErrorCode::InvalidValue,
                 info_.at_link(link) + ": " + what + " geometry of link '" + link + "' " + why);
  }

  Geometry convert_geometry(const urdf::GeometrySharedPtr& g, const std::string& link,
                            const char* what) {
    Geometry out;
    if (!g)
      throw Error(ErrorCode::ParseError, info_.at_link(link) + ": a " + std::string(what) +
                                             " of link '" + link + "' has no <geometry>");
    switch (g->type) {
      case urdf::Geometry::BOX: {
        const auto& box = static_cast<const urdf::Box&>(*g);
        out.type = Geometry::Type::Box;
        out.box_size = Vector3(box.dim.x, box.dim.y, box.dim.z);
        if (!out.box_size.allFinite() || (out.box_size.array() < 0).any())
          throw invalid_geometry(link, what, "has a negative or non-finite box size");
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto& cylinder = static_cast<const urdf::Cylinder&>(*g);
        out.type = Geometry::Type::Cylinder;
        out.radius = cylinder.radius;
        out.length = cylinder.length;
        if (!std::isfinite(out.radius) || !std::isfinite(out.length) || out.radius < 0 ||
            out.length < 0)
          throw invalid_geometry(link, what, "has a negative or non-finite cylinder size");
        break;
      }
      case urdf::Geometry::SPHERE: {
        const auto& sphere = static_cast<const urdf::Sphere&>(*g);
        out.type = Geometry::Type::Sphere;
        out.radius = sphere.radius;
        if (!std::isfinite(out.radius) || out.radius < 0)
          throw invalid_geometry(link, what, "has a negative or non-finite radius");
        break;
      }
      case urdf::Geometry::MESH:
        convert_mesh(static_cast<const urdf::Mesh&>(*g), link, what, out);
        break;
    }
    return out;
  }

  // Resolves the mesh file and checks it before the renderer or the collision reader open it; one
  // that cannot be found is an error when meshes are required, else a warning.
  void convert_mesh(const urdf::Mesh& mesh, const std::string& link, const char* what,
                    Geometry& out) {
    out.type = Geometry::Type::Mesh;
    out.mesh_uri = mesh.filename;
    out.mesh_scale = Vector3(mesh.scale.x, mesh.scale.y, mesh.scale.z);
    if (!out.mesh_scale.allFinite())
      throw invalid_geometry(link, what, "has a non-finite mesh scale");
    const PackageResolver::Result resolved = resolver_.resolve(mesh.filename);
    out.mesh_path = resolved.path;
    if (!resolved.path.empty()) {
      try {
        check_mesh_file(resolved.path);
      } catch (const Error& error) {
        throw Error(
            error.code(),
            info_.at_link(link) + ": " + what + " mesh of link '" + link + "': " + error.message(),
            error.hint());
      }
    }
    if (resolved.path.empty()) {
      const std::string message = info_.at_link(link) + ": " + what + " mesh '" + mesh.filename +
                                  "' of link '" + link + "' cannot be found: " + resolved.reason;
      if (require_meshes_)
        throw Error(ErrorCode::MissingMesh, message, unresolved_mesh_hint(mesh.filename));
      add_warning(message);
      out_.unresolved_files.push_back(mesh.filename);
    }
  }

  std::optional<Material> convert_material(const urdf::Visual& visual, const std::string& link) {
    urdf::MaterialSharedPtr source = visual.material;
    if (!visual.material_name.empty())
      if (auto global = urdf_.getMaterial(visual.material_name)) source = global;
    if (!source && visual.material_name.empty()) return std::nullopt;
    if (!source || (!source->name.empty() && !info_.defined_materials.count(source->name) &&
                    source->texture_filename.empty())) {
      // A name-only reference to a material defined nowhere (urdfdom warns): no colour to use.
      add_warning(info_.at_link(link) + ": link '" + link + "' uses material '" +
                  (source ? source->name : visual.material_name) +
                  "', which is not defined; the default colour is used");
      return std::nullopt;
    }
    Material material;
    material.name = source->name;
    material.rgba =
        Eigen::Vector4d(source->color.r, source->color.g, source->color.b, source->color.a);
    if (!source->texture_filename.empty()) {
      const auto resolved = resolver_.resolve(source->texture_filename);
      material.texture_path = resolved.path;
      if (resolved.path.empty()) {
        add_warning(info_.at_link(link) + ": texture '" + source->texture_filename + "' of link '" +
                    link + "' cannot be found: " + resolved.reason);
        out_.unresolved_files.push_back(source->texture_filename);
      }
    }
    return material;
  }

  Joint read_joint(const urdf::Joint& uj, int index, int parent_link) {
    Joint joint;
    joint.name = uj.name;
    joint.index = index;
    joint.parent_link = parent_link;
    joint.origin = to_pose(uj.parent_to_joint_origin_transform);
    const std::string where = info_.at_joint(uj.name);
    if (!finite_pose(joint.origin))
      throw Error(ErrorCode::InvalidValue,
                  where + ": joint '" + uj.name + "' has a non-finite origin");
    joint.type = joint_type_of(uj, where);
    if (joint.is_moving()) joint.axis = joint_axis(uj, where);
    read_position_limits(uj, joint, where);
    if (joint.is_moving()) read_motion_limits(uj, joint.type, joint.limits, where);
    if (uj.mimic) read_mimic(uj, joint, where);
    return joint;
  }

  // Velocity and effort of a moving joint; acceleration and jerk follow from the velocity.
  void read_motion_limits(const urdf::Joint& uj, JointType type, JointLimits& l,
                          const std::string& where) {
    if (l.velocity < 0 || l.effort < 0)
      throw Error(ErrorCode::InvalidValue,
                  where + ": joint '" + uj.name + "' has a negative velocity or effort limit");
    if (l.velocity == 0 && !uj.mimic) {
      // MoveIt plans such a joint (a continuous wheel or wrist often has no <limit>); a timed
      // motion needs some limit, so a stated one is taken and the load says so.
      const bool linear = type == JointType::Prismatic;
      l.velocity = linear ? kDefaultLinearVelocity : kDefaultAngularVelocity;
      char taken[48];
      std::snprintf(taken, sizeof taken, "%g %s", l.velocity, linear ? "m/s" : "rad/s");
      add_warning(where + ": joint '" + uj.name + "' has no velocity limit" +
                  (uj.limits ? " (velocity=\"0\")" : " (no <limit>)") + "; " + taken +
                  " is taken (set another in kinetic.toml [limits] velocity)");
    }
    // So slow a motion's times overflow (1e-300 failed only as "time is not finite" later).
    if (l.velocity > 0 && l.velocity < kMinVelocityLimit) {
      std::ostringstream limit;
      limit << "joint '" << uj.name << "' has velocity limit " << l.velocity << ", below the least "
            << kMinVelocityLimit << " a motion can be timed with";
      throw Error(ErrorCode::InvalidValue, where + ": " + limit.str(),
                  "give the joint's velocity limit in rad/s (m/s for a prismatic joint), or 0 to "
                  "take the stated default");
    }
    l.acceleration = kDefaultAccelerationFactor * l.velocity;
    l.jerk = kDefaultJerkFactor * l.acceleration;
  }

  void read_mimic(const urdf::Joint& uj, Joint& joint, const std::string& where) {
    if (!joint.is_moving()) {
      add_warning(where + ": fixed joint '" + uj.name + "' has a <mimic>, which is ignored");
      return;
    }
    MimicSpec spec;
    spec.joint = uj.mimic->joint_name;
    spec.multiplier = uj.mimic->multiplier;
    spec.offset = uj.mimic->offset;
    if (!std::isfinite(spec.multiplier) || !std::isfinite(spec.offset))
      throw Error(ErrorCode::InvalidValue, where + ": the <mimic> of joint '" + uj.name +
                                               "' has a non-finite multiplier or offset");
    joint.mimic = spec;
  }

  const urdf::ModelInterface& urdf_;
  const UrdfDocumentInfo& info_;
  const PackageResolver& resolver_;
  const bool require_meshes_;
  ModelTables out_;
  std::map<std::string, std::size_t> document_index_;  // joint name -> place in the document
};

void check_all_links_reached(const urdf::ModelInterface& urdf,
                             const std::map<std::string, int>& link_by_name, std::size_t links,
                             const std::string& source, const std::string& root) {
  if (links == urdf.links_.size()) return;
  std::vector<std::string> unreachable;
  for (const auto& [name, link] : urdf.links_)
    if (!link_by_name.count(name)) unreachable.push_back(name);
  throw Error(ErrorCode::InvalidModel,
              source + ": link(s) " + quoted_list(unreachable, " and ") +
                  " are not connected to root link '" + root + "'",
              "connect every link to the tree with a joint");
}

// Variables: active joints in depth-first order.
void number_variables(std::vector<Joint>& joints, std::vector<int>& variable_joints) {
  for (Joint& joint : joints) {
    if (joint.is_moving() && !joint.mimic) {
      joint.variable_index = static_cast<int>(variable_joints.size());
      variable_joints.push_back(joint.index);
    }
  }
}

// Follows the mimic joint's chain down to an active variable, composing the multipliers and
// offsets on the way.
void resolve_mimic_chain(Joint& joint, const std::vector<Joint>& joints,
                         const std::map<std::string, int>& joint_by_name,
                         const UrdfDocumentInfo& info) {
  double multiplier = 1.0, offset = 0.0;
  const Joint* current = &joint;
  std::size_t steps = 0;
  while (true) {
    const MimicSpec& spec = *current->mimic;
    auto it = joint_by_name.find(spec.joint);
    if (it == joint_by_name.end()) {
      std::vector<std::string> names;
      for (const Joint& j : joints) names.push_back(j.name);
      throw Error(ErrorCode::MissingJoint,
                  info.at_joint(current->name) + ": joint '" + current->name + "' mimics joint '" +
                      spec.joint + "', which is not defined",
                  suggestion_hint(spec.joint, names));
    }
    // value(joint) = multiplier * value(current) + offset, value(current) = m * value(target) + o
    offset = multiplier * spec.offset + offset;
    multiplier = multiplier * spec.multiplier;
    const Joint& target = joints[it->second];
    if (!target.is_moving())
      throw Error(ErrorCode::InvalidModel,
                  info.at_joint(current->name) + ": joint '" + current->name +
                      "' mimics fixed joint '" + target.name + "'",
                  "a mimic joint must follow a revolute, continuous or prismatic joint");
    if (target.is_active()) {
      joint.mimic_source_variable = target.variable_index;
      joint.mimic->effective_multiplier = multiplier;
      joint.mimic->effective_offset = offset;
      return;
    }
    current = &target;
    if (++steps > joints.size())
      throw Error(ErrorCode::InvalidModel,
                  info.at_joint(joint.name) + ": the mimic joints starting at '" + joint.name +
                      "' form a cycle",
                  "at least one joint of a mimic chain must be a free joint");
  }
}

}  // namespace

void RobotModelBuilder::build_from_urdf(const urdf::ModelInterface& urdf,
                                        const UrdfDocumentInfo& info,
                                        const PackageResolver& resolver, bool require_meshes) {
  RobotModel& m = *model_;
  check_name_lengths(urdf, info.source);
  m.name_ = urdf.getName();
  m.links_.clear();
  m.joints_.clear();
  m.variable_joints_.clear();
  m.link_by_name_.clear();
  m.joint_by_name_.clear();

  const urdf::LinkConstSharedPtr root = urdf.getRoot();
  if (!root) throw Error(ErrorCode::InvalidModel, info.source + ": the URDF has no root link");
  UrdfTreeReader reader(urdf, info, resolver, require_meshes,
                        {m.links_, m.joints_, m.link_by_name_, m.joint_by_name_, m.load_warnings_,
                         m.unresolved_files_});
  reader.read_subtree(root, -1);
  m.root_link_ = 0;
  check_all_links_reached(urdf, m.link_by_name_, m.links_.size(), info.source, root->name);
  number_variables(m.joints_, m.variable_joints_);
  for (Joint& joint : m.joints_)
    if (joint.mimic) resolve_mimic_chain(joint, m.joints_, m.joint_by_name_, info);
}

}  // namespace kinetic
