#pragma once
// Forward kinematics of the whole robot: the pose of every link in the root-link frame.
// ForwardKinematics precomputes, once per model, the joints in parent-before-child order with
// their origins and axis kinds, so computing all link poses per frame is a single cheap pass.
// Mimic joints follow their source variable (value = multiplier * source + offset).
#include <vector>

#include <Eigen/Core>

#include "engine/core/types.hpp"
#include "engine/kinematics/finite_check.hpp"
#include "engine/kinematics/joint_motion.hpp"
#include "engine/kinematics/tip_kernel.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

using Jacobian = Eigen::Matrix<double, 6, Eigen::Dynamic>;  // rows [v; w], one column per variable

class ForwardKinematics {
 public:
  // Self-contained: keeps no reference to the model. Throws Error(Unsupported) for floating or
  // planar joints that carry variables.
  explicit ForwardKinematics(const RobotModel& model);

  int dof() const { return dof_; }
  int link_count() const { return link_count_; }

  // Pose of every link (indexed by link index) in the root-link frame. q: model order, size dof().
  // Throws Error(DimensionMismatch / InvalidValue) for a wrong-size or non-finite q.
  void compute(const JointVector& q, std::vector<Pose>& out) const;
  // Pose of one link, walking only its path from the root.
  Pose link_pose(const JointVector& q, int link) const;
  // Many configurations at once: column c of `configurations` is one q; out[c] its link poses.
  void compute_batch(const Eigen::MatrixXd& configurations,
                     std::vector<std::vector<Pose>>& out) const;

  // Geometric Jacobian (root frame, rows [v; w], model-variable columns) of a point fixed to
  // `link` (given in that link's frame). Joints not above the link give zero columns.
  Jacobian link_jacobian(const JointVector& q, int link,
                         const Vector3& point_in_link = Vector3::Zero()) const;

 private:
  struct Step {
    int parent_link = -1, child_link = -1;
    detail::FrameStep frame;  // origin (parent link -> joint) and motion
    int variable = -1;        // source variable (own or mimicked); -1 for fixed
    double multiplier = 1.0, offset = 0.0;
    double value(const double* q) const {
      return variable >= 0 ? multiplier * q[variable] + offset : 0.0;
    }
  };

  // Throws unless q has dof() finite values (the message is built only on failure).
  void check(const JointVector& q) const {
    if (q.size() != dof_ || !detail::all_finite(q.data(), q.size())) [[unlikely]]
      throw_bad_configuration(q);
  }
  [[noreturn]] void throw_bad_configuration(const JointVector& q) const;
  void compute_unchecked(const double* q, std::vector<Pose>& out) const;
  // Steps from the root down to `link`, in application order.
  std::vector<int> path_to(int link) const;

  int dof_ = 0;
  int link_count_ = 0;
  int root_ = 0;
  std::vector<Step> steps_;         // parents before children
  std::vector<int> step_of_link_;   // step whose child is the link; -1 for the root
  detail::TreeKernel tree_kernel_;  // all link poses at once (compute, compute_batch)
};

// Convenience wrappers (they precompute on every call: hold a ForwardKinematics for hot loops).
void compute_link_poses(const RobotModel& model, const JointVector& q, std::vector<Pose>& out);
std::vector<Pose> compute_link_poses(const RobotModel& model, const JointVector& q);
Pose compute_link_pose(const RobotModel& model, const JointVector& q, const std::string& link);

}  // namespace kinetic
