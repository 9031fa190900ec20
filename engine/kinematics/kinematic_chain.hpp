#pragma once
// A serial chain of the robot from a base link to a tip link (plus an optional fixed tool offset):
// the unit IK solvers, servoing and Cartesian planning work on. Fixed joints are folded into the
// next moving joint at construction, so FK and the Jacobian cost one small step per moving joint.
//
// Chain variables are the active joints on the path, base to tip. Mimic joints on the path follow
// their source, which must itself be a chain variable. Continuous joints report limits ±pi (as
// RobotModel does); IK solvers wrap them into that range instead of clamping.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/kinematics/finite_check.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/joint_motion.hpp"
#include "engine/kinematics/tip_kernel.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

// Where a planning group's chain runs: from base_link to tip_link (the end effector's parent link
// when one is configured), and the TCP offset from tip_link.
struct GroupChain {
  std::string group, base_link, tip_link;
  Pose tcp = Pose::Identity();
};

// The planning group (a chain) of kinetic.toml, else of the SRDF (a chain, or a joint list that
// forms one, extended to an SRDF end effector's parent link), and its end effector's TCP; group ""
// = the first group. A robot with no groups at all (a bare URDF) whose movable joints form one
// chain gets that chain (group "", root link to the last joint's child, on through a single line
// of fixed links), so a plain URDF plans out of the box. Throws Error(InvalidModel) naming the
// groups when there is no such chain.
GroupChain group_chain(const RobotModel& model, const std::string& group = "");

class KinematicChain {
 public:
  // Throws Error(MissingLink) for unknown links, Error(InvalidModel) when tip is not below base.
  KinematicChain(RobotModelPtr model, const std::string& base_link, const std::string& tip_link,
                 const Pose& tip_offset = Pose::Identity());
  // The chain of group_chain(model, group).
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
  // The running frame is kept as "physical" columns P whose true rotation is P * logical, where
  // `logical` is a signed axis permutation: origins at multiples of 90° (the Panda's ±90° about X)
  // then only relabel columns at construction and cost nothing per call, and every aligned joint
  // turns two physical columns in place.
  enum class Motion : unsigned char { RotateX, RotateY, RotateZ, RotateGeneral, Slide };
  struct Segment {
    double translation[3] = {0, 0, 0};            // origin translation, in physical columns
    bool has_pre = false;                         // origin not a permutation: P *= pre first
    double pre[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // column-major
    Motion motion = Motion::RotateZ;
    double angle_sign = 1.0;     // RotateX/Y/Z: the joint turns by angle_sign * value
    double axis[3] = {0, 0, 1};  // joint axis in physical columns after the step (unit)
    int slot = 0;                // chain variable driving the joint
    double multiplier = 1.0, offset = 0.0;
    Eigen::Matrix3d logical = Eigen::Matrix3d::Identity();  // after this segment
  };
  struct Frame {
    double r[9];  // physical rotation columns
    double p[3];
  };
  struct LinkAnchor {
    int link = -1;
    int segment = -1;                // last segment at or above the link; -1: fixed to the base
    Pose offset = Pose::Identity();  // that segment's frame -> link frame
  };

  // Throws unless q has dof() finite values (the message is built only on failure).
  void check(const JointVector& q) const {
    if (q.size() != dof() || !detail::all_finite(q.data(), q.size())) [[unlikely]]
      throw_bad_configuration(q);
  }
  [[noreturn]] void throw_bad_configuration(const JointVector& q) const;
  // Physical frame after segments 0..count-1 into `last`, and each into frames[i] when given.
  void forward(const double* q, int count, Frame& last, Frame* frames) const;
  // True pose of the tip (incl. offset) from the physical frame after the last segment.
  void finish_tip(const Frame& last, Pose& tip) const;
  Pose link_frame(const Frame& frame, int segment) const;
  const LinkAnchor& anchor(const std::string& link) const;

  RobotModelPtr model_;
  std::string base_link_, tip_link_;
  Pose tip_offset_ = Pose::Identity();
  std::vector<int> variable_indices_;
  std::vector<Segment> segments_;
  detail::FrameStep tip_step_;  // physical frame of the last segment -> tip (incl. offset)
  // The unrolled tip-only path, for chains of up to 8 axis-aligned revolute joints.
  std::optional<detail::TipKernel> tip_kernel_;
  std::vector<LinkAnchor> anchors_;  // every link on the path, base first
  JointVector lower_, upper_;
  std::vector<char> bounded_;
};

}  // namespace kinetic
