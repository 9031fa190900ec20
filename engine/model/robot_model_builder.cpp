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

// Structural checks with line numbers, before urdfdom (which only says "failed").
void check_structure(const tinyxml2::XMLDocument& doc, const std::string& source,
                     UrdfDocumentInfo& info) {
  const XMLElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Name()) != "robot")
    throw Error(ErrorCode::ParseError,
                source + ":" + std::to_string(robot ? robot->GetLineNum() : 1) +
                    ": not a URDF: the root element is <" + (robot ? robot->Name() : "") +
                    ">, not <robot>",
                "a URDF document starts with <robot name=\"...\">");
  if (!robot->Attribute("name"))
    throw Error(ErrorCode::ParseError, line_of(source, robot) + ": <robot> has no 'name' attribute",
                "write <robot name=\"my_robot\">");

  // urdfdom passes some of its messages that quote the file (a malformed <origin xyz/rpy>, <box
  // size>, radius, mass, a material's name, ...) to console_bridge as the printf format itself:
  // a '%' there is read as a conversion ("%n" writes through a stack value: a crash, or glibc's
  // abort; "%p" puts stack addresses in the error shown to the user). No URDF number or name needs
  // a '%', so one is refused before urdfdom sees the file; file names (filename="...", which
  // urdfdom does not quote) keep theirs, e.g. a URL-encoded "part%201.stl".
  std::function<void(const XMLElement*)> refuse_percent = [&](const XMLElement* element) {
    for (const tinyxml2::XMLAttribute* a = element->FirstAttribute(); a; a = a->Next())
      if (std::string(a->Name()) != "filename" && std::string(a->Value()).find('%') != std::string::npos)
        throw Error(ErrorCode::ParseError,
                    line_of(source, element) + ": attribute '" + a->Name() + "' of <" + element->Name() +
                        "> contains '%'",
                    "URDF numbers and names have no '%' in them: remove it");
    for (const XMLElement* e = element->FirstChildElement(); e; e = e->NextSiblingElement()) refuse_percent(e);
  };
  for (const tinyxml2::XMLAttribute* a = robot->FirstAttribute(); a; a = a->Next())
    if (std::string(a->Value()).find('%') != std::string::npos)
      throw Error(ErrorCode::ParseError,
                  line_of(source, robot) + ": attribute '" + a->Name() + "' of <robot> contains '%'",
                  "URDF numbers and names have no '%' in them: remove it");
  for (const XMLElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string tag = e->Name();
    if (tag == "link" || tag == "joint" || tag == "material") refuse_percent(e);  // what urdfdom reads
  }

  // Materials that carry a colour or a texture (global, or defined inside a visual).
  std::function<void(const XMLElement*)> collect_materials = [&](const XMLElement* parent) {
    for (const XMLElement* e = parent->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (std::string(e->Name()) == "material" && e->Attribute("name") &&
          (e->FirstChildElement("color") || e->FirstChildElement("texture")))
        info.defined_materials.insert(e->Attribute("name"));
      collect_materials(e);
    }
  };
  collect_materials(robot);

  std::vector<std::string> links;
  for (const XMLElement* e = robot->FirstChildElement("link"); e;
       e = e->NextSiblingElement("link")) {
    const char* name = e->Attribute("name");
    if (!name || !*name)
      throw Error(ErrorCode::ParseError, line_of(source, e) + ": <link> has no 'name' attribute");
    if (info.link_lines.count(name))
      throw Error(ErrorCode::ParseError,
                  line_of(source, e) + ": link '" + name + "' is defined twice (first at line " +
                      std::to_string(info.link_lines[name]) + ")",
                  "link names must be unique");
    info.link_lines[name] = e->GetLineNum();
    links.push_back(name);
  }
  if (links.empty())
    throw Error(ErrorCode::InvalidModel,
                source + ": robot '" + robot->Attribute("name") + "' has no <link> elements",
                "a URDF needs at least one link (is this a xacro file that was not expanded?)");

  std::map<std::string, std::string> parent_of;  // child link -> joint
  std::map<std::string, std::vector<std::string>> children_of;  // parent link -> child links
  std::vector<const XMLElement*> joints;
  for (const XMLElement* e = robot->FirstChildElement("joint"); e;
       e = e->NextSiblingElement("joint")) {
    const char* name = e->Attribute("name");
    if (!name || !*name)
      throw Error(ErrorCode::ParseError, line_of(source, e) + ": <joint> has no 'name' attribute");
    if (info.joint_lines.count(name))
      throw Error(ErrorCode::ParseError,
                  line_of(source, e) + ": joint '" + name + "' is defined twice (first at line " +
                      std::to_string(info.joint_lines[name]) + ")",
                  "joint names must be unique");
    info.joint_lines[name] = e->GetLineNum();
    info.joint_order.push_back(name);
    joints.push_back(e);
  }
  for (const XMLElement* e : joints) {
    const std::string name = e->Attribute("name");
    const char* type_attr = e->Attribute("type");
    const std::string type = type_attr ? type_attr : "";
    static const std::set<std::string> known{"revolute", "continuous", "prismatic",
                                             "fixed",    "floating",   "planar"};
    if (!known.count(type))
      throw Error(ErrorCode::ParseError,
                  line_of(source, e) + ": joint '" + name + "' has " +
                      (type.empty() ? std::string("no type") : "the unknown type '" + type + "'"),
                  "use revolute, continuous, prismatic or fixed");
    if (type == "floating" || type == "planar")
      throw Error(
          ErrorCode::Unsupported,
          line_of(source, e) + ": joint '" + name + "' is " + type +
              "; Kinetic supports revolute, continuous, prismatic and fixed joints",
          "make it a fixed joint (describe a mobile base with an SRDF virtual_joint instead)");
    auto link_attr = [&](const char* tag) -> std::string {
      const XMLElement* element = e->FirstChildElement(tag);
      const char* link = element ? element->Attribute("link") : nullptr;
      if (!link || !*link)
        throw Error(ErrorCode::ParseError,
                    line_of(source, element ? element : e) + ": joint '" + name + "' has no <" +
                        tag + " link=\"...\"/>",
                    "every joint needs a parent and a child link");
      if (!info.link_lines.count(link))
        throw Error(ErrorCode::MissingLink,
                    line_of(source, element) + ": joint '" + name + "' names " + tag + " link '" +
                        link + "', which is not defined",
                    suggestion_hint(link, links));
      return link;
    };
    const std::string parent = link_attr("parent");
    const std::string child = link_attr("child");
    if (parent == child)
      throw Error(ErrorCode::InvalidModel, line_of(source, e) + ": joint '" + name +
                                               "' connects link '" + parent + "' to itself");
    if (parent_of.count(child))
      throw Error(ErrorCode::InvalidModel,
                  line_of(source, e) + ": link '" + child + "' is the child of two joints ('" +
                      parent_of[child] + "' and '" + name + "')",
                  "a URDF is a tree: every link has at most one parent joint");
    parent_of[child] = name;
    children_of[parent].push_back(child);
    if ((type == "revolute" || type == "prismatic") && !e->FirstChildElement("limit"))
      throw Error(ErrorCode::ParseError,
                  line_of(source, e) + ": " + type + " joint '" + name + "' has no <limit>",
                  "add <limit lower=\"...\" upper=\"...\" effort=\"...\" velocity=\"...\"/>");
    if (const XMLElement* mimic = e->FirstChildElement("mimic")) {
      const char* followed = mimic->Attribute("joint");
      if (!followed || !*followed)
        throw Error(ErrorCode::ParseError, line_of(source, mimic) + ": <mimic> of joint '" + name +
                                               "' has no 'joint' attribute");
      if (!info.joint_lines.count(followed)) {
        std::vector<std::string> names(info.joint_order.begin(), info.joint_order.end());
        throw Error(ErrorCode::MissingJoint,
                    line_of(source, mimic) + ": joint '" + name + "' mimics joint '" + followed +
                        "', which is not defined",
                    suggestion_hint(followed, names));
      }
    }
  }
  std::vector<std::string> roots;
  for (const std::string& link : links)
    if (!parent_of.count(link)) roots.push_back(link);
  if (roots.empty())
    throw Error(ErrorCode::InvalidModel, source + ": the joints form a cycle: no link is the root",
                "a URDF is a tree: exactly one link has no parent joint");
  if (roots.size() > 1)
    throw Error(ErrorCode::InvalidModel,
                source + ": the robot has " + std::to_string(roots.size()) + " root links (" +
                    quoted_list(roots, " and ") + ")",
                "connect every link to the tree with a joint; only one link may have no parent");
  // Walk the tree from the root without recursion. Links it does not reach lie on a cycle of
  // joints beside the tree (urdfdom built that cycle of shared pointers and leaked it), and a chain
  // thousands of links deep overflowed the stack in the builder's recursive walk (a crash at about
  // 8000 links in a release build, 1000 under AddressSanitizer).
  std::set<std::string> reached;
  std::vector<std::pair<std::string, std::size_t>> pending{{roots.front(), 0}};
  while (!pending.empty()) {
    const auto [link, depth] = pending.back();
    pending.pop_back();
    if (depth > kMaxTreeDepth)
      throw Error(ErrorCode::InvalidModel,
                  source + ":" + std::to_string(info.link_lines[link]) + ": link '" + link + "' is " +
                      std::to_string(depth) + " joints from the root link '" + roots.front() +
                      "' (at most " + std::to_string(kMaxTreeDepth) + ")",
                  "no robot is that deep; check that this is the right file");
    reached.insert(link);
    for (const std::string& child : children_of[link]) pending.emplace_back(child, depth + 1);
  }
  if (reached.size() != links.size()) {
    std::vector<std::string> unreached;
    for (const std::string& link : links)
      if (!reached.count(link)) unreached.push_back(link);
    throw Error(ErrorCode::InvalidModel,
                source + ": link(s) " + quoted_list(unreached, " and ") + " are not connected to root link '" +
                    roots.front() + "': their joints form a cycle",
                "a URDF is a tree: connect every link to the tree with a joint");
  }
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
      add_warning(
          at + "planar virtual_joint '" + vj.name + "' (named by " + groups +
          ") is planned as joints '" + vj.name + "/x', '" + vj.name + "/y' and '" + vj.name +
          "/theta' from frame '" + vj.parent_frame +
          "'; x and y within ±" + std::to_string(static_cast<int>(kPlanarBaseRange)) +
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
    if (auto it = config.position_limits.find(joint.name); it != config.position_limits.end() && l.has_position_limits)
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

void RobotModelBuilder::build_from_urdf(const urdf::ModelInterface& urdf,
                                        const UrdfDocumentInfo& info,
                                        const PackageResolver& resolver, bool require_meshes) {
  RobotModel& m = *model_;
  // Names are quoted in messages: a 10 MB name was printed whole in every one.
  const auto check_name = [&](const std::string& name, const std::string& what) {
    if (name.size() > kMaxNameLength)
      throw Error(ErrorCode::InvalidModel,
                  info.source + ": " + what + " name '" + printable(name.substr(0, 40)) + "…' is " +
                      std::to_string(name.size()) + " characters long; names may have at most " +
                      std::to_string(kMaxNameLength),
                  "give it a shorter name");
  };
  check_name(urdf.getName(), "the robot's");
  for (const auto& [name, link] : urdf.links_) check_name(name, "a link's");
  for (const auto& [name, joint] : urdf.joints_) check_name(name, "a joint's");
  m.name_ = urdf.getName();
  m.links_.clear();
  m.joints_.clear();
  m.variable_joints_.clear();
  m.link_by_name_.clear();
  m.joint_by_name_.clear();

  const urdf::LinkConstSharedPtr root = urdf.getRoot();
  if (!root) throw Error(ErrorCode::InvalidModel, info.source + ": the URDF has no root link");

  std::map<std::string, std::size_t> document_index;
  for (std::size_t i = 0; i < info.joint_order.size(); ++i) document_index[info.joint_order[i]] = i;
  auto order_of = [&](const std::string& joint) {
    auto it = document_index.find(joint);
    return it == document_index.end() ? document_index.size() : it->second;
  };

  // Geometry conversion with mesh resolution.
  auto convert_geometry = [&](const urdf::GeometrySharedPtr& g, const std::string& link,
                              const char* what) {
    Geometry out;
    if (!g)
      throw Error(ErrorCode::ParseError, info.at_link(link) + ": a " + std::string(what) +
                                             " of link '" + link + "' has no <geometry>");
    auto invalid = [&](const std::string& why) {
      return Error(ErrorCode::InvalidValue,
                   info.at_link(link) + ": " + what + " geometry of link '" + link + "' " + why);
    };
    switch (g->type) {
      case urdf::Geometry::BOX: {
        const auto& box = static_cast<const urdf::Box&>(*g);
        out.type = Geometry::Type::Box;
        out.box_size = Vector3(box.dim.x, box.dim.y, box.dim.z);
        if (!out.box_size.allFinite() || (out.box_size.array() < 0).any())
          throw invalid("has a negative or non-finite box size");
        break;
      }
      case urdf::Geometry::CYLINDER: {
        const auto& cylinder = static_cast<const urdf::Cylinder&>(*g);
        out.type = Geometry::Type::Cylinder;
        out.radius = cylinder.radius;
        out.length = cylinder.length;
        if (!std::isfinite(out.radius) || !std::isfinite(out.length) || out.radius < 0 ||
            out.length < 0)
          throw invalid("has a negative or non-finite cylinder size");
        break;
      }
      case urdf::Geometry::SPHERE: {
        const auto& sphere = static_cast<const urdf::Sphere&>(*g);
        out.type = Geometry::Type::Sphere;
        out.radius = sphere.radius;
        if (!std::isfinite(out.radius) || out.radius < 0)
          throw invalid("has a negative or non-finite radius");
        break;
      }
      case urdf::Geometry::MESH: {
        const auto& mesh = static_cast<const urdf::Mesh&>(*g);
        out.type = Geometry::Type::Mesh;
        out.mesh_uri = mesh.filename;
        out.mesh_scale = Vector3(mesh.scale.x, mesh.scale.y, mesh.scale.z);
        if (!out.mesh_scale.allFinite()) throw invalid("has a non-finite mesh scale");
        const PackageResolver::Result resolved = resolver.resolve(mesh.filename);
        out.mesh_path = resolved.path;
        if (!resolved.path.empty()) {
          try {
            check_mesh_file(resolved.path);  // before the renderer or the collision reader open it
          } catch (const Error& error) {
            throw Error(error.code(),
                        info.at_link(link) + ": " + what + " mesh of link '" + link +
                            "': " + error.message(),
                        error.hint());
          }
        }
        if (resolved.path.empty()) {
          const std::string message = info.at_link(link) + ": " + what + " mesh '" + mesh.filename +
                                      "' of link '" + link +
                                      "' cannot be found: " + resolved.reason;
          if (require_meshes)
            throw Error(ErrorCode::MissingMesh, message, unresolved_mesh_hint(mesh.filename));
          add_warning(message);
          model_->unresolved_files_.push_back(mesh.filename);
        }
        break;
      }
    }
    return out;
  };

  auto convert_material = [&](const urdf::Visual& visual,
                              const std::string& link) -> std::optional<Material> {
    urdf::MaterialSharedPtr source = visual.material;
    if (!visual.material_name.empty())
      if (auto global = urdf.getMaterial(visual.material_name)) source = global;
    if (!source && visual.material_name.empty()) return std::nullopt;
    if (!source || (!source->name.empty() && !info.defined_materials.count(source->name) &&
                    source->texture_filename.empty())) {
      // A name-only reference to a material defined nowhere (urdfdom warns): no colour to use.
      add_warning(info.at_link(link) + ": link '" + link + "' uses material '" +
                  (source ? source->name : visual.material_name) +
                  "', which is not defined; the default colour is used");
      return std::nullopt;
    }
    Material material;
    material.name = source->name;
    material.rgba =
        Eigen::Vector4d(source->color.r, source->color.g, source->color.b, source->color.a);
    if (!source->texture_filename.empty()) {
      const auto resolved = resolver.resolve(source->texture_filename);
      material.texture_path = resolved.path;
      if (resolved.path.empty()) {
        add_warning(info.at_link(link) + ": texture '" + source->texture_filename + "' of link '" +
                    link + "' cannot be found: " + resolved.reason);
        model_->unresolved_files_.push_back(source->texture_filename);
      }
    }
    return material;
  };

  // Depth-first from the root, children in document order.
  std::function<void(const urdf::LinkConstSharedPtr&, int)> visit = [&](const urdf::
                                                                            LinkConstSharedPtr& ul,
                                                                        int parent_joint) {
    const int link_index = static_cast<int>(m.links_.size());
    {
      Link link;
      link.name = ul->name;
      link.index = link_index;
      link.parent_joint = parent_joint;
      std::vector<urdf::VisualSharedPtr> visuals = ul->visual_array;
      if (visuals.empty() && ul->visual) visuals.push_back(ul->visual);
      for (const auto& v : visuals) {
        if (!v) continue;
        VisualShape shape;
        shape.name = v->name;
        shape.origin = to_pose(v->origin);
        if (!finite_pose(shape.origin))
          throw Error(ErrorCode::InvalidValue, info.at_link(ul->name) + ": a visual of link '" +
                                                   ul->name + "' has a non-finite origin");
        shape.geometry = convert_geometry(v->geometry, ul->name, "visual");
        shape.material = convert_material(*v, ul->name);
        link.visuals.push_back(std::move(shape));
      }
      std::vector<urdf::CollisionSharedPtr> collisions = ul->collision_array;
      if (collisions.empty() && ul->collision) collisions.push_back(ul->collision);
      for (const auto& c : collisions) {
        if (!c) continue;
        CollisionShape shape;
        shape.name = c->name;
        shape.origin = to_pose(c->origin);
        if (!finite_pose(shape.origin))
          throw Error(ErrorCode::InvalidValue, info.at_link(ul->name) + ": a collision of link '" +
                                                   ul->name + "' has a non-finite origin");
        shape.geometry = convert_geometry(c->geometry, ul->name, "collision");
        link.collisions.push_back(std::move(shape));
      }
      m.link_by_name_[link.name] = link_index;
      m.links_.push_back(std::move(link));
    }

    std::vector<urdf::JointSharedPtr> children = ul->child_joints;
    std::stable_sort(children.begin(), children.end(), [&](const auto& a, const auto& b) {
      return order_of(a->name) < order_of(b->name);
    });
    for (const auto& uj : children) {
      const int joint_index = static_cast<int>(m.joints_.size());
      Joint joint;
      joint.name = uj->name;
      joint.index = joint_index;
      joint.parent_link = link_index;
      joint.origin = to_pose(uj->parent_to_joint_origin_transform);
      const std::string where = info.at_joint(uj->name);
      if (!finite_pose(joint.origin))
        throw Error(ErrorCode::InvalidValue,
                    where + ": joint '" + uj->name + "' has a non-finite origin");
      switch (uj->type) {
        case urdf::Joint::REVOLUTE:
          joint.type = JointType::Revolute;
          break;
        case urdf::Joint::CONTINUOUS:
          joint.type = JointType::Continuous;
          break;
        case urdf::Joint::PRISMATIC:
          joint.type = JointType::Prismatic;
          break;
        case urdf::Joint::FIXED:
          joint.type = JointType::Fixed;
          break;
        case urdf::Joint::FLOATING:
        case urdf::Joint::PLANAR:
          throw Error(
              ErrorCode::Unsupported,
              where + ": joint '" + uj->name + "' is " +
                  (uj->type == urdf::Joint::FLOATING ? "floating" : "planar") +
                  "; Kinetic supports revolute, continuous, prismatic and fixed joints",
              "make it a fixed joint (describe a mobile base with an SRDF virtual_joint instead)");
        default:
          throw Error(ErrorCode::ParseError,
                      where + ": joint '" + uj->name + "' has an unknown type");
      }
      if (joint.is_moving()) {
        Vector3 axis(uj->axis.x, uj->axis.y, uj->axis.z);
        if (!axis.allFinite() || axis.norm() < 1e-12)
          throw Error(ErrorCode::InvalidValue,
                      where + ": joint '" + uj->name + "' has a zero or non-finite axis",
                      "give a non-zero <axis xyz=\"...\"/>");
        joint.axis = axis.normalized();
      }
      JointLimits& l = joint.limits;
      if (uj->limits) {
        l.lower = uj->limits->lower;
        l.upper = uj->limits->upper;
        l.velocity = uj->limits->velocity;
        l.effort = uj->limits->effort;
      }
      if (!std::isfinite(l.lower) || !std::isfinite(l.upper) || !std::isfinite(l.velocity) ||
          !std::isfinite(l.effort))
        throw Error(ErrorCode::InvalidValue,
                    where + ": joint '" + uj->name + "' has a non-finite limit");
      switch (joint.type) {
        case JointType::Revolute:
        case JointType::Prismatic:
          l.has_position_limits = true;
          if (l.lower > l.upper)
            throw Error(ErrorCode::InvalidValue,
                        where + ": joint '" + uj->name + "' has lower limit " +
                            std::to_string(l.lower) + " above its upper limit " +
                            std::to_string(l.upper),
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
      if (joint.is_moving()) {
        if (l.velocity < 0 || l.effort < 0)
          throw Error(ErrorCode::InvalidValue,
                      where + ": joint '" + uj->name + "' has a negative velocity or effort limit");
        if (l.velocity == 0 && !uj->mimic) {
          // MoveIt plans such a joint (a continuous wheel or wrist often has no <limit>); a timed
          // motion needs some limit, so a stated one is taken and the load says so.
          const bool linear = joint.type == JointType::Prismatic;
          l.velocity = linear ? kDefaultLinearVelocity : kDefaultAngularVelocity;
          char taken[48];
          std::snprintf(taken, sizeof taken, "%g %s", l.velocity, linear ? "m/s" : "rad/s");
          add_warning(where + ": joint '" + uj->name + "' has no velocity limit" +
                      (uj->limits ? " (velocity=\"0\")" : " (no <limit>)") + "; " + taken +
                      " is taken (set another in kinetic.toml [limits] velocity)");
        }
        // So slow a motion's times overflow (1e-300 failed only as "time is not finite" later).
        if (l.velocity > 0 && l.velocity < kMinVelocityLimit) {
          std::ostringstream limit;
          limit << "joint '" << uj->name << "' has velocity limit " << l.velocity
                << ", below the least " << kMinVelocityLimit << " a motion can be timed with";
          throw Error(ErrorCode::InvalidValue, where + ": " + limit.str(),
                      "give the joint's velocity limit in rad/s (m/s for a prismatic joint), or 0 to "
                      "take the stated default");
        }
        l.acceleration = kDefaultAccelerationFactor * l.velocity;
        l.jerk = kDefaultJerkFactor * l.acceleration;
      }
      if (uj->mimic) {
        if (!joint.is_moving()) {
          add_warning(where + ": fixed joint '" + uj->name + "' has a <mimic>, which is ignored");
        } else {
          MimicSpec spec;
          spec.joint = uj->mimic->joint_name;
          spec.multiplier = uj->mimic->multiplier;
          spec.offset = uj->mimic->offset;
          if (!std::isfinite(spec.multiplier) || !std::isfinite(spec.offset))
            throw Error(ErrorCode::InvalidValue, where + ": the <mimic> of joint '" + uj->name +
                                                     "' has a non-finite multiplier or offset");
          joint.mimic = spec;
        }
      }
      m.joint_by_name_[joint.name] = joint_index;
      m.links_[link_index].child_joints.push_back(joint_index);
      m.joints_.push_back(std::move(joint));
      const urdf::LinkConstSharedPtr child = urdf.getLink(uj->child_link_name);
      if (!child)
        throw Error(ErrorCode::MissingLink, where + ": joint '" + uj->name +
                                                "' names child link '" + uj->child_link_name +
                                                "', which is not defined");
      m.joints_[joint_index].child_link = static_cast<int>(m.links_.size());
      visit(child, joint_index);
    }
  };
  visit(root, -1);
  m.root_link_ = 0;

  if (m.links_.size() != urdf.links_.size()) {
    std::vector<std::string> unreachable;
    for (const auto& [name, link] : urdf.links_)
      if (!m.link_by_name_.count(name)) unreachable.push_back(name);
    throw Error(ErrorCode::InvalidModel,
                info.source + ": link(s) " + quoted_list(unreachable, " and ") +
                    " are not connected to root link '" + root->name + "'",
                "connect every link to the tree with a joint");
  }

  // Variables: active joints in depth-first order.
  for (Joint& joint : m.joints_) {
    if (joint.is_moving() && !joint.mimic) {
      joint.variable_index = static_cast<int>(m.variable_joints_.size());
      m.variable_joints_.push_back(joint.index);
    }
  }
  // Mimics: resolve chains down to an active variable.
  for (Joint& joint : m.joints_) {
    if (!joint.mimic) continue;
    double multiplier = 1.0, offset = 0.0;
    const Joint* current = &joint;
    std::size_t steps = 0;
    while (true) {
      const MimicSpec& spec = *current->mimic;
      auto it = m.joint_by_name_.find(spec.joint);
      if (it == m.joint_by_name_.end()) {
        std::vector<std::string> names;
        for (const Joint& j : m.joints_) names.push_back(j.name);
        throw Error(ErrorCode::MissingJoint,
                    info.at_joint(current->name) + ": joint '" + current->name +
                        "' mimics joint '" + spec.joint + "', which is not defined",
                    suggestion_hint(spec.joint, names));
      }
      // value(joint) = multiplier * value(current) + offset, value(current) = m * value(target) + o
      offset = multiplier * spec.offset + offset;
      multiplier = multiplier * spec.multiplier;
      const Joint& target = m.joints_[it->second];
      if (!target.is_moving())
        throw Error(ErrorCode::InvalidModel,
                    info.at_joint(current->name) + ": joint '" + current->name +
                        "' mimics fixed joint '" + target.name + "'",
                    "a mimic joint must follow a revolute, continuous or prismatic joint");
      if (target.is_active()) {
        joint.mimic_source_variable = target.variable_index;
        joint.mimic->effective_multiplier = multiplier;
        joint.mimic->effective_offset = offset;
        break;
      }
      current = &target;
      if (++steps > m.joints_.size())
        throw Error(ErrorCode::InvalidModel,
                    info.at_joint(joint.name) + ": the mimic joints starting at '" + joint.name +
                        "' form a cycle",
                    "at least one joint of a mimic chain must be a free joint");
    }
  }
}

}  // namespace kinetic
