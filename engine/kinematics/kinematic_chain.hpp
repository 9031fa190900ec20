#pragma once
// A serial chain of the robot from a base link to a tip link (plus an optional fixed tool offset):
// the unit IK solvers, servoing and Cartesian planning work on. Fixed joints are folded into the
// next moving joint at construction, so FK and the Jacobian cost one small step per moving joint.
//
// Chain variables are the active joints on the path, base to tip. Mimic joints on the path follow
// their source, which must itself be a chain variable. Continuous joints report limits ±pi (as
// RobotModel does); IK solvers wrap them into that range instead of clamping.
#include <memory>
#include <string>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/joint_motion.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

class KinematicChain {
 public:
  // Throws Error(MissingLink) for unknown links, Error(InvalidModel) when tip is not below base.
  KinematicChain(RobotModelPtr model, const std::string& base_link, const std::string& tip_link,
                 const Pose& tip_offset = Pose::Identity());
  // The planning group (a chain) of kinetic.toml (else the SRDF) and its end effector's TCP;
  // group "" = the first group. Throws Error(InvalidModel) naming the groups when absent.
  static KinematicChain from_config(RobotModelPtr model, const std::string& group = "");

  int dof() const { return static_cast<int>(variable_indices_.size()); }
  const std::vector<int>& variable_indices() const { return variable_indices_; }
  std::vector<std::string> joint_names() const;
  const std::string& base_link() const { return base_link_; }
  const std::string& tip_link() const { return tip_link_; }
  JointVector lower_limits() const { return lower_; }
  JointVector upper_limits() const { return upper_; }
  bool has_position_limits(int i) const { return bounded_[i] != 0; }
  JointVector mid_configuration() const { return 0.5 * (lower_ + upper_); }

  // q: chain order, size dof(). Throws Error(DimensionMismatch / InvalidValue).
  Pose fk(const JointVector& q) const;
  // Geometric Jacobian at the tip (incl. tip_offset), base frame, rows [v; w].
  Jacobian jacobian(const JointVector& q) const;
  // Both at once, without allocation once `jacobian` has its size (the IK inner loop).
  void fk_and_jacobian(const JointVector& q, Pose& tip, Jacobian& jacobian) const;
  // Pose and Jacobian of a point fixed to a link of the chain (base..tip), in that link's frame.
  // Joints after the link give zero columns.
  Pose link_pose(const JointVector& q, const std::string& link) const;
  Jacobian jacobian_at(const JointVector& q, const std::string& link,
                       const Vector3& point_in_link = Vector3::Zero()) const;
  // Many configurations at once: one per column of `configurations` (dof() rows).
  std::vector<Pose> fk_batch(const Eigen::MatrixXd& configurations) const;

  // Yoshikawa manipulability sqrt(det(J Jᵀ)); below 6 DOF the product of J's singular values.
  double manipulability(const JointVector& q) const;
  // sigma_max / sigma_min of the Jacobian (infinity at a singularity).
  double condition_number(const JointVector& q) const;
  static double manipulability(const Jacobian& jacobian);
  static double condition_number(const Jacobian& jacobian);

  // Conversions between model order (RobotModel::dof() values) and chain order.
  JointVector to_chain(const JointVector& q_model) const;
  void to_model(const JointVector& q_chain, JointVector& q_model) const;

  const RobotModelPtr& model() const { return model_; }
  const Pose& tip_offset() const { return tip_offset_; }

 private:
  struct Segment {
    Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();  // previous frame -> joint frame
    Vector3 translation = Vector3::Zero();
    bool identity_rotation = true;
    bool prismatic = false;
    detail::JointAxis axis;
    int slot = 0;  // chain variable driving the joint
    double multiplier = 1.0, offset = 0.0;
  };
  struct LinkAnchor {
    int link = -1;
    int segment = -1;  // last segment at or above the link; -1: fixed to the base
    Pose offset = Pose::Identity();  // that segment's frame -> link frame
  };

  void check(const JointVector& q) const;
  // Frames of the segments and the tip; fills per-segment axis/position when asked.
  template <bool kWithFrames>
  void forward(const double* q, Eigen::Matrix3d& rotation, Vector3& position, Vector3* axes,
               Vector3* positions) const;
  const LinkAnchor& anchor(const std::string& link) const;

  RobotModelPtr model_;
  std::string base_link_, tip_link_;
  Pose tip_offset_ = Pose::Identity();
  std::vector<int> variable_indices_;
  std::vector<Segment> segments_;
  Eigen::Matrix3d tip_rotation_ = Eigen::Matrix3d::Identity();  // last segment -> tip (incl. offset)
  Vector3 tip_translation_ = Vector3::Zero();
  std::vector<LinkAnchor> anchors_;  // every link on the path, base first
  JointVector lower_, upper_;
  std::vector<char> bounded_;
};

}  // namespace kinetic
