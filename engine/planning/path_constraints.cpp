#include "engine/planning/path_constraints.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/core/error.hpp"

namespace kinetic {

ConstraintProjector::ConstraintProjector(const KinematicChain& chain, PathConstraints constraints)
    : chain_(chain), constraints_(std::move(constraints)) {
  const std::vector<std::string> names = chain_.joint_names();
  for (const auto& c : constraints_.joints) {
    const auto it = std::find(names.begin(), names.end(), c.joint);
    if (it == names.end())
      throw Error(ErrorCode::MissingJoint,
                  "joint constraint names '" + c.joint + "', which is not in the planning group",
                  "use one of the group's joints");
    if (!(c.lower <= c.upper))
      throw Error(ErrorCode::InvalidValue, "joint constraint on '" + c.joint + "': lower > upper");
    joint_ranges_.push_back({static_cast<int>(it - names.begin()), {c.lower, c.upper}});
  }
  if (constraints_.orientation) {
    if (!(constraints_.orientation->tolerance >= 0))
      throw Error(ErrorCode::InvalidValue, "orientation constraint tolerance must be >= 0 rad");
    constraints_.orientation->orientation.normalize();
  }
  if (constraints_.position &&
      !(constraints_.position->lower.array() <= constraints_.position->upper.array()).all())
    throw Error(ErrorCode::InvalidValue, "position constraint: lower corner above upper corner");
}

void ConstraintProjector::residual(const JointVector& q, Eigen::VectorXd& error,
                                   Eigen::MatrixXd* jacobian) const {
  Pose tip;
  Jacobian j(6, chain_.dof());
  chain_.fk_and_jacobian(q, tip, j);
  std::vector<double> e;
  std::vector<Eigen::RowVectorXd> rows;
  if (constraints_.orientation) {
    // Rotation from the reference to the current orientation, as a base-frame rotation vector.
    const Eigen::AngleAxisd diff(
        tip.linear() * constraints_.orientation->orientation.toRotationMatrix().transpose());
    const double angle = diff.angle();
    const double tol = constraints_.orientation->tolerance;
    if (angle > tol) {
      const Vector3 excess = diff.axis() * (angle - tol);
      for (int k = 0; k < 3; ++k) {
        e.push_back(excess[k]);
        rows.push_back(j.row(3 + k));
      }
    }
  }
  if (constraints_.position) {
    const Vector3 p = tip.translation();
    for (int k = 0; k < 3; ++k) {
      const double below = p[k] - constraints_.position->lower[k];
      const double above = p[k] - constraints_.position->upper[k];
      if (below < 0) {
        e.push_back(below);
        rows.push_back(j.row(k));
      } else if (above > 0) {
        e.push_back(above);
        rows.push_back(j.row(k));
      }
    }
  }
  error.resize(static_cast<int>(e.size()));
  for (std::size_t i = 0; i < e.size(); ++i) error[static_cast<int>(i)] = e[i];
  if (jacobian) {
    jacobian->resize(static_cast<int>(rows.size()), chain_.dof());
    for (std::size_t i = 0; i < rows.size(); ++i) jacobian->row(static_cast<int>(i)) = rows[i];
  }
}

double ConstraintProjector::violation(const JointVector& q) const {
  Eigen::VectorXd error;
  residual(q, error, nullptr);
  double worst = error.size() ? error.cwiseAbs().maxCoeff() : 0.0;
  for (const auto& [slot, range] : joint_ranges_)
    worst = std::max({worst, range.first - q[slot], q[slot] - range.second});
  return worst;
}

bool ConstraintProjector::project(JointVector& q, int iterations) const {
  const JointVector lower = chain_.lower_limits(), upper = chain_.upper_limits();
  Eigen::VectorXd error;
  Eigen::MatrixXd jacobian;
  for (int it = 0; it < iterations; ++it) {
    for (const auto& [slot, range] : joint_ranges_)
      q[slot] = std::clamp(q[slot], range.first, range.second);
    residual(q, error, &jacobian);
    if (error.size() == 0 || error.cwiseAbs().maxCoeff() < 1e-7) return satisfied(q);
    // Minimum-norm damped step onto the constraint rows; joints held by a range stay put.
    for (const auto& jr : joint_ranges_) jacobian.col(jr.first).setZero();
    const Eigen::MatrixXd jjt = jacobian * jacobian.transpose() +
                                1e-6 * Eigen::MatrixXd::Identity(jacobian.rows(), jacobian.rows());
    // Overshoot slightly past the tolerance boundary so the result satisfies it robustly.
    q -= jacobian.transpose() * jjt.ldlt().solve(error * 1.05);
    q = q.cwiseMax(lower).cwiseMin(upper);
  }
  return satisfied(q);
}

std::string ConstraintProjector::describe(const JointVector& q) const {
  std::string out;
  char text[160];
  const Pose tip = chain_.fk(q);
  if (constraints_.orientation) {
    const double angle =
        Quaternion(tip.linear()).angularDistance(constraints_.orientation->orientation);
    if (angle > constraints_.orientation->tolerance + 1e-6) {
      std::snprintf(text, sizeof text,
                    "TCP orientation is %.4f rad from the reference (tolerance %.4f); ", angle,
                    constraints_.orientation->tolerance);
      out += text;
    }
  }
  if (constraints_.position) {
    const Vector3 p = tip.translation();
    if ((p.array() < constraints_.position->lower.array() - 1e-6).any() ||
        (p.array() > constraints_.position->upper.array() + 1e-6).any()) {
      std::snprintf(text, sizeof text, "TCP position (%.3f, %.3f, %.3f) is outside the box; ",
                    p.x(), p.y(), p.z());
      out += text;
    }
  }
  const auto names = chain_.joint_names();
  for (const auto& [slot, range] : joint_ranges_)
    if (q[slot] < range.first - 1e-6 || q[slot] > range.second + 1e-6) {
      std::snprintf(text, sizeof text, "joint '%s' = %.4f is outside [%.4f, %.4f]; ",
                    names[slot].c_str(), q[slot], range.first, range.second);
      out += text;
    }
  if (out.size() >= 2) out.resize(out.size() - 2);
  return out;
}

}  // namespace kinetic
