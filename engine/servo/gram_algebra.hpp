#pragma once
// The servo's velocity solve: joint velocities for a TCP twist by least squares on the smaller
// Gram matrix of a 6 x n Jacobian (J Jᵀ for n >= 6, Jᵀ J below), at most 6 x 6 and stored inline:
// no heap. Servo::step uses it; the servo benchmark times it alone against KDL's velocity solvers.
// Its eigen decomposition is engine/core/small_decompositions' (Jacobi rotations), not Eigen's
// SelfAdjointEigenSolver, whose two instantiations here took most of the engine's compile time.
#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/small_decompositions.hpp"
#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/servo/servo.hpp"

namespace kinetic {

struct GramAlgebra {
  SmallSymmetric gram;
  SmallValues eigenvalues;
  SmallSymmetric eigenvectors;
  Eigen::LLT<SmallSymmetric> cholesky;

  void form(const Jacobian& jacobian) {
    if (jacobian.cols() >= 6)
      gram.noalias() = jacobian * jacobian.transpose();
    else
      gram.noalias() = jacobian.transpose() * jacobian;
  }

  // sigma_max / sigma_min of the Jacobian (infinite at a singularity).
  static double condition_from(const SmallValues& values) {
    const double smallest = values[0], largest = values[values.size() - 1];
    return smallest > 0.0 ? std::sqrt(largest / smallest) : std::numeric_limits<double>::infinity();
  }

  double condition(const Jacobian& jacobian) {
    form(jacobian);
    symmetric_eigen(gram, eigenvalues, nullptr);
    return condition_from(eigenvalues);
  }

  // Joint velocities for the twist, damped least squares: lambda^2 = damping^2 (1 - (sigma_min /
  // sigma_fade)^2) below sigma_fade = sigma_max / fade_condition, none above (exact tracking
  // there). Returns the condition number.
  double damped(const Jacobian& jacobian, const Twist& twist, double damping, double fade_condition,
                JointVector& dq) {
    form(jacobian);
    symmetric_eigen(gram, eigenvalues, &eigenvectors);
    const double largest = std::max(eigenvalues[eigenvalues.size() - 1], 0.0);
    const double sigma_min_sq = std::max(eigenvalues[0], 0.0);
    const double fade_sq = largest / (fade_condition * fade_condition);
    const double mu =
        sigma_min_sq < fade_sq ? damping * damping * (1.0 - sigma_min_sq / fade_sq) : 0.0;
    const double floor = 1e-12 * largest;
    SmallValues weights = eigenvalues;
    for (Eigen::Index i = 0; i < weights.size(); ++i) {
      const double denominator = eigenvalues[i] + mu;
      weights[i] = denominator > floor ? 1.0 / denominator : 0.0;  // truncated where undamped
    }
    const SmallSymmetric& vectors = eigenvectors;
    if (jacobian.cols() >= 6) {
      auto y = (vectors.transpose() * twist).eval();
      y.array() *= weights.array();
      dq.noalias() = jacobian.transpose() * (vectors * y).eval();
    } else {
      auto y = (vectors.transpose() * (jacobian.transpose() * twist)).eval();
      y.array() *= weights.array();
      dq.noalias() = vectors * y;
    }
    return condition_from(eigenvalues);
  }

  // The undamped solution by Cholesky, for states known to be well conditioned; false when the
  // Gram matrix is not positive definite after all.
  bool exact(const Jacobian& jacobian, const Twist& twist, JointVector& dq) {
    form(jacobian);
    cholesky.compute(gram);
    if (cholesky.info() != Eigen::Success) return false;
    if (jacobian.cols() >= 6)
      dq.noalias() = jacobian.transpose() * cholesky.solve(twist);
    else
      dq = cholesky.solve(jacobian.transpose() * twist);
    return true;
  }
};

}  // namespace kinetic
