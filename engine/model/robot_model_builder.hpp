#pragma once
// Builds a RobotModel from a URDF parsed by urdfdom (urdf::parseURDF), then attaches its SRDF and
// kinetic.toml. Used by robot_loader.cpp; exposed for tools that already hold a
// urdf::ModelInterface.
//
// Joint types: revolute, continuous, prismatic and fixed are supported; floating and planar
// joints are rejected with Error(Unsupported) naming the joint (Kinetic plans for fixed-base
// arms). Mimic joints are not variables; chains of mimics are resolved to the active variable
// they finally follow (MimicSpec::effective_multiplier / effective_offset).
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"

namespace urdf {
class ModelInterface;
}

namespace kinetic {

class PackageResolver;

// What urdfdom does not keep: document order and line numbers, for URDF child order and messages.
struct UrdfDocumentInfo {
  std::string source;                       // file path, or "<urdf string>"
  std::vector<std::string> joint_order;     // <joint> names in document order
  std::map<std::string, int> link_lines;    // link name -> line of its <link>
  std::map<std::string, int> joint_lines;   // joint name -> line of its <joint>
  std::set<std::string> defined_materials;  // materials given a <color> or <texture> somewhere
  std::string at_joint(const std::string& joint) const;  // "source:line" (or "source")
  std::string at_link(const std::string& link) const;
  std::string at(const std::string& joint_or_link) const;  // a joint first, else a link
};

// Checks the XML with tinyxml2 (syntax errors -> Error(ParseError) naming source:line; structural
// problems such as unknown parent/child links, a link with two parents, several roots or a missing
// <limit> -> a typed Error naming source:line), then parses it with urdfdom (its complaints,
// captured from console_bridge, -> Error(ParseError) naming the source). Console output of urdfdom
// is suppressed; its warnings are appended to `warnings`.
std::shared_ptr<urdf::ModelInterface> parse_urdf_checked(
    const std::string& xml, const std::string& source, UrdfDocumentInfo* info,
    std::vector<std::string>* warnings = nullptr);

class RobotModelBuilder {
 public:
  RobotModelBuilder();

  // Builds links, joints, limits (acceleration/jerk from the documented defaults), geometry and
  // materials. Meshes and textures resolve through `resolver`; an unresolved mesh is
  // Error(MissingMesh) when require_meshes, else a load warning.
  void build_from_urdf(const urdf::ModelInterface& urdf, const UrdfDocumentInfo& info,
                       const PackageResolver& resolver, bool require_meshes);

  void set_source_path(const std::string& path);
  void set_included_files(std::vector<std::string> files);
  void set_name(const std::string& name);
  // Keeps the SRDF, and places the robot on the virtual joints its groups name (add_planar_base
  // for a planar one at the root; others hold the base fixed), each said in a load warning naming
  // `source`:line. Call after build_from_urdf and before set_config.
  void set_semantic(SemanticModel semantic, const std::string& source = "");
  // Puts the robot on a planned planar base (an SRDF planar virtual_joint NAME from parent_frame to
  // the URDF's root link): parent_frame becomes the root, then joints NAME/x, NAME/y (prismatic,
  // ±kPlanarBaseRange) and NAME/theta (continuous) through links NAME/x and NAME/y; their
  // variables come first. False, and nothing changed, when one of those names is taken.
  bool add_planar_base(const std::string& name, const std::string& parent_frame);
  // Stores the configuration and applies its acceleration / jerk limits.
  void set_config(RobotConfig config);
  void add_warning(const std::string& warning);
  void add_warnings(const std::vector<std::string>& warnings);
  void add_source_notes(const std::vector<std::string>& notes);

  const RobotModel& model() const { return *model_; }
  RobotModelPtr finish();

 private:
  std::shared_ptr<RobotModel> model_;
};

}  // namespace kinetic
