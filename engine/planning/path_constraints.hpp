#pragma once
// Constraints a whole path must keep: TCP orientation within a tolerance of a reference, TCP
// position within a box, joints within sub-ranges. project() pulls a configuration onto the
// constraint set by damped Gauss-Newton steps on the TCP Jacobian (what numeric IK does, on the
// constrained rows only).
#include <optional>
#include <string>
#include <vector>

#include "engine/kinematics/kinematic_chain.hpp"

namespace kinetic {

struct OrientationConstraint {
  Quaternion orientation = Quaternion::Identity();  // TCP orientation in the base frame
  double tolerance = 0.05;                          // rad, largest rotation angle away from it
};

struct PositionConstraint {
  Vector3 lower = Vector3::Constant(-1e9), upper = Vector3::Constant(1e9);  // TCP box, base frame
};

struct JointRangeConstraint {
  std::string joint;
  double lower = 0.0, upper = 0.0;
};

struct PathConstraints {
  std::optional<OrientationConstraint> orientation;
  std::optional<PositionConstraint> position;
  std::vector<JointRangeConstraint> joints;
  bool empty() const { return !orientation && !position && joints.empty(); }
};

// Bound to one chain (chain-order joint vectors).
class ConstraintProjector {
 public:
  // Throws Error(MissingJoint) for a joint not in the chain, Error(InvalidValue) for bad ranges.
  ConstraintProjector(const KinematicChain& chain, PathConstraints constraints);

  // Largest violation: orientation rad beyond tolerance, position m outside the box, joint beyond
  // range.
  double violation(const JointVector& q) const;
  bool satisfied(const JointVector& q, double slack = 1e-6) const { return violation(q) <= slack; }
  // In place; false when it did not converge within the iterations or left the joint limits.
  bool project(JointVector& q, int iterations = 30) const;
  // What is violated and by how much ("" when satisfied).
  std::string describe(const JointVector& q) const;

 private:
  // Stacked excess errors and their Jacobian rows.
  void residual(const JointVector& q, Eigen::VectorXd& error, Eigen::MatrixXd* jacobian) const;

  const KinematicChain& chain_;
  PathConstraints constraints_;
  std::vector<std::pair<int, std::pair<double, double>>> joint_ranges_;  // chain slot, range
};

}  // namespace kinetic
