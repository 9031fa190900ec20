#pragma once
// RobotModel: the kinematic tree of a robot (links, joints, limits, geometry) plus its semantic
// description (SRDF) and its kinetic.toml configuration. Immutable once loaded; share it by
// std::shared_ptr<const RobotModel>.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/model/geometry.hpp"
#include "engine/model/robot_config.hpp"
#include "engine/model/semantic_model.hpp"

namespace kinetic {

// Floating and Planar exist for completeness; the URDF loader rejects them with
// Error(Unsupported) naming the joint: describe a mobile base with an SRDF virtual_joint instead.
// A planar virtual joint that a group names becomes three planned joints above the URDF's root
// (NAME/x and NAME/y prismatic, NAME/theta continuous, MoveIt's variable names); other virtual
// joints hold the base fixed in the world.
enum class JointType { Revolute, Continuous, Prismatic, Fixed, Floating, Planar };

struct JointLimits {
  bool has_position_limits = true;  // false for continuous joints
  double lower = 0.0, upper = 0.0;  // rad or m
  double velocity = 0.0;            // rad/s or m/s
  double effort = 0.0;
  double acceleration = 0.0;  // from kinetic.toml, else kDefaultAccelerationFactor * velocity
  double jerk = 0.0;          // from kinetic.toml, else kDefaultJerkFactor * acceleration
};

// Documented defaults where a robot file gives no acceleration / jerk limit.
inline constexpr double kDefaultAccelerationFactor = 2.0;  // a_max = 2 * v_max (per second)
inline constexpr double kDefaultJerkFactor = 10.0;         // j_max = 10 * a_max (per second)
// Documented velocity limits of a moving joint whose URDF gives none (no <limit>, as continuous
// joints may, or velocity="0"): the load warns naming the joint; kinetic.toml [limits] velocity
// sets another.
inline constexpr double kDefaultAngularVelocity = 1.0;  // rad/s: revolute and continuous joints
inline constexpr double kDefaultLinearVelocity = 0.2;   // m/s: prismatic joints
// A planned planar base (an SRDF planar virtual_joint a group names): x and y within
// ±kPlanarBaseRange of the parent frame, at the default velocities above.
inline constexpr double kPlanarBaseRange = 10.0;  // m

// value = multiplier * value(joint) + offset, as written in the URDF. Chains of mimics (a joint
// mimicking a mimic joint) are resolved at load time: value = effective_multiplier *
// q[Joint::mimic_source_variable] + effective_offset, always relative to an active variable.
struct MimicSpec {
  std::string joint;  // the joint this one follows
  double multiplier = 1.0;
  double offset = 0.0;
  double effective_multiplier = 1.0;  // composed through the chain down to the active variable
  double effective_offset = 0.0;
};

struct Link {
  std::string name;
  int index = -1;
  int parent_joint = -1;          // -1 for the root link
  std::vector<int> child_joints;  // indices into RobotModel::joints()
  std::vector<VisualShape> visuals;
  std::vector<CollisionShape> collisions;
};

struct Joint {
  std::string name;
  int index = -1;
  JointType type = JointType::Fixed;
  int parent_link = -1;
  int child_link = -1;
  Pose origin = Pose::Identity();   // parent link frame -> joint frame at zero position
  Vector3 axis = Vector3::UnitZ();  // unit axis in the joint frame
  JointLimits limits;
  std::optional<MimicSpec> mimic;
  // Index into a JointVector for active joints (revolute, continuous, prismatic, not mimic);
  // -1 for fixed and mimic joints.
  int variable_index = -1;
  // For mimic joints: the variable index of the followed joint (resolved through chains of mimics).
  int mimic_source_variable = -1;

  bool is_active() const { return variable_index >= 0; }
  bool is_moving() const { return type != JointType::Fixed; }
};

class RobotModel {
 public:
  RobotModel() = default;

  const std::string& name() const { return name_; }
  const std::vector<Link>& links() const { return links_; }
  const std::vector<Joint>& joints() const { return joints_; }
  int root_link() const { return root_link_; }

  // Ordering: links and joints are stored depth-first from the root (children in URDF document
  // order), so links()[0] is the root, every joint comes after the joint of its parent link, and
  // joints()[k].child_link == k + 1. Iterating joints() in order is a valid FK order.
  //
  // Active joint variables, in tree (depth-first, URDF child order) order.
  int dof() const { return static_cast<int>(variable_joints_.size()); }
  const std::vector<int>& variable_joints() const { return variable_joints_; }  // joint indices
  std::vector<std::string> variable_names() const;
  const Joint& variable_joint(int variable) const { return joints_[variable_joints_[variable]]; }

  // Lookups: find_* return -1 when absent; *_index throw Error(MissingLink/MissingJoint) naming
  // the missing item and listing close names. variable_index() returns -1 for a joint that is not
  // a variable (fixed or mimic).
  int find_link(const std::string& name) const;
  int find_joint(const std::string& name) const;
  int link_index(const std::string& name) const;
  int joint_index(const std::string& name) const;
  int variable_index(const std::string& joint_name) const;

  // Joint-vector checks. validate() throws DimensionMismatch / InvalidValue (NaN, inf) /
  // OutOfLimits (only when check_limits) naming the joint.
  void validate(const JointVector& q, bool check_limits = false) const;
  bool within_limits(const JointVector& q, double tolerance = 1e-9) const;
  JointVector clamp_to_limits(const JointVector& q) const;
  JointVector lower_limits() const;  // continuous joints: -pi
  JointVector upper_limits() const;  // continuous joints: +pi
  JointVector mid_configuration() const;
  JointVector zero_configuration() const;  // zeros clamped into limits

  // Joints (all types, in order from base to tip) on the path base_link -> tip_link; throws
  // MissingLink for unknown names and InvalidModel when tip_link does not descend from base_link.
  std::vector<int> chain_joints(const std::string& base_link, const std::string& tip_link) const;
  // Variable indices of a planning group: a kinetic.toml [planning_group.NAME] (chain order from
  // base to tip, or its joints list in the given order), else an SRDF group (its joints, chains,
  // links' parent joints and subgroups, in model order). name "" = the first kinetic.toml group,
  // else all variables. Mimic and fixed joints are skipped. Throws Error(InvalidValue) listing the
  // groups when the name is unknown.
  std::vector<int> group_variables(const std::string& group_name = "") const;
  std::vector<std::string> group_names() const;  // kinetic.toml groups, then SRDF groups

  // Semantic description and configuration.
  const SemanticModel& semantic() const { return semantic_; }
  const RobotConfig& config() const { return config_; }
  // Named pose as a full joint vector (size dof()). kinetic.toml [named_poses] list values in the
  // order of the first planning group's variables (or all dof() variables); variables outside the
  // group take zero_configuration(). SRDF group states set the joints they name (mimic joints
  // are ignored), others take zero_configuration(). kinetic.toml wins over an SRDF state of the
  // same name. Throws Error(InvalidValue) naming the known poses when absent.
  JointVector named_pose(const std::string& name) const;
  // The same with the joints the pose does not set kept at `others` (a goal for a group keeps the
  // rest of the robot where it is). SRDF states of one name in several groups (each arm's
  // "ready"): `group`'s own, else all those of groups within `group` ("": all of them).
  JointVector named_pose(const std::string& name, const JointVector& others,
                         const std::string& group = "") const;
  std::vector<std::string> named_pose_names() const;
  // Where the robot starts when no pose is asked for (the studio on opening it, a headless run
  // without --start): a MoveIt config's initial_positions.yaml (kInitialPositionsPose, where
  // MoveIt's demo starts), else the first of the named poses "home", "ready" and "default" it has
  // (the names MoveIt setups and robot packages give their rest pose; an arm's zero pose is often
  // stretched out or outside its limits), else zero_configuration().
  JointVector default_configuration() const;
  std::string default_pose_name() const;  // the pose default_configuration() took, "" for zeros

  // Where the model came from ("" for a string).
  const std::string& source_path() const { return source_path_; }
  // Other files its description was made of: those a xacro URDF or SRDF included (absolute).
  const std::vector<std::string>& included_files() const { return included_files_; }
  // Non-fatal problems found while loading (unresolved meshes when LoadOptions::require_meshes is
  // false, unknown kinetic.toml keys, SRDF elements that are ignored, ...), one line each.
  const std::vector<std::string>& load_warnings() const { return load_warnings_; }
  // What came from where, one line each, for a robot made of several files (a MoveIt config:
  // "URDF: config/panda.urdf.xacro", "joint limits: config/joint_limits.yaml (9 joints)"); empty
  // for a plain URDF.
  const std::vector<std::string>& source_notes() const { return source_notes_; }
  // The mesh and texture references among them that could not be found, as written in the URDF
  // ("package://arm/meshes/base.stl"): what a package search path may mend.
  const std::vector<std::string>& unresolved_files() const { return unresolved_files_; }

  // Convenience lookups by name; throw Error(MissingLink/MissingJoint) like *_index.
  const Link& link(const std::string& name) const { return links_[link_index(name)]; }
  const Joint& joint(const std::string& name) const { return joints_[joint_index(name)]; }

 private:
  friend class RobotModelBuilder;
  std::string name_;
  std::vector<Link> links_;
  std::vector<Joint> joints_;
  int root_link_ = -1;
  std::vector<int> variable_joints_;
  std::map<std::string, int> link_by_name_;
  std::map<std::string, int> joint_by_name_;
  SemanticModel semantic_;
  RobotConfig config_;
  std::string source_path_;
  std::vector<std::string> included_files_;
  std::vector<std::string> load_warnings_;
  std::vector<std::string> source_notes_;
  std::vector<std::string> unresolved_files_;
};

using RobotModelPtr = std::shared_ptr<const RobotModel>;

}  // namespace kinetic
