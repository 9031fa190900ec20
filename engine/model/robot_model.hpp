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

enum class JointType { Revolute, Continuous, Prismatic, Fixed, Floating, Planar };

struct JointLimits {
  bool has_position_limits = true;  // false for continuous joints
  double lower = 0.0, upper = 0.0;  // rad or m
  double velocity = 0.0;            // rad/s or m/s
  double effort = 0.0;
  double acceleration = 0.0;        // from kinetic.toml, else kDefaultAccelerationFactor * velocity
  double jerk = 0.0;                // from kinetic.toml, else kDefaultJerkFactor * acceleration
};

// Documented defaults where a robot file gives no acceleration / jerk limit.
inline constexpr double kDefaultAccelerationFactor = 2.0;  // a_max = 2 * v_max (per second)
inline constexpr double kDefaultJerkFactor = 10.0;         // j_max = 10 * a_max (per second)

struct MimicSpec {
  std::string joint;  // the joint this one follows
  double multiplier = 1.0;
  double offset = 0.0;
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
  Pose origin = Pose::Identity();  // parent link frame -> joint frame at zero position
  Vector3 axis = Vector3::UnitZ(); // unit axis in the joint frame
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

  // Active joint variables, in tree (depth-first, URDF child order) order.
  int dof() const { return static_cast<int>(variable_joints_.size()); }
  const std::vector<int>& variable_joints() const { return variable_joints_; }  // joint indices
  std::vector<std::string> variable_names() const;
  const Joint& variable_joint(int variable) const { return joints_[variable_joints_[variable]]; }

  // Lookups: find_* return -1 when absent; *_index throw Error(MissingLink/MissingJoint) naming
  // the missing item and listing close names.
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

  // Semantic description and configuration.
  const SemanticModel& semantic() const { return semantic_; }
  const RobotConfig& config() const { return config_; }
  // Named pose from kinetic.toml or an SRDF group state; throws Error(InvalidValue) naming the
  // known poses when absent.
  JointVector named_pose(const std::string& name) const;
  std::vector<std::string> named_pose_names() const;

  // Where the model came from ("" for a string).
  const std::string& source_path() const { return source_path_; }

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
};

using RobotModelPtr = std::shared_ptr<const RobotModel>;

}  // namespace kinetic
