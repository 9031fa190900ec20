#pragma once
// Decompositions of the small matrices kinematics and the servo work with (6 x n Jacobians and
// their Gram matrices), by Jacobi rotations. Eigen's own (SelfAdjointEigenSolver, JacobiSVD,
// ColPivHouseholderQR) cost minutes of compile time per instantiation under GCC 12 on CI's
// two cores, more than the rest of a file: the servo's two eigen solvers alone took 13 minutes
// there. Jacobi rotations need a few dozen lines, are accurate to rounding for such sizes and
// compile in a second (docs/design-notes.md, "Tests and build time").
#include <Eigen/Core>

namespace kinetic {

// A symmetric matrix of at most 6 x 6 and a vector of at most 6 values, stored inline (no heap).
using SmallSymmetric = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, 6, 6>;
using SmallValues = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 6, 1>;

// Eigenvalues of a symmetric matrix, ascending, and where `vectors` is given the orthonormal
// eigenvectors as its columns in the same order. Only the upper triangle of `a` is read.
void symmetric_eigen(const SmallSymmetric& a, SmallValues& values, SmallSymmetric* vectors);

// Singular values of any matrix, descending (min(rows, cols) of them), and where `v` is given
// the right singular vectors as its columns in the same order, completed to an orthonormal basis
// of all cols() (the last columns then span the null space).
void singular_values(const Eigen::MatrixXd& a, Eigen::VectorXd& sigma, Eigen::MatrixXd* v);
Eigen::VectorXd singular_values(const Eigen::MatrixXd& a);

// The minimum-norm least-squares solution of a x = b; singular values below `relative_floor` times
// the largest count as zero.
Eigen::VectorXd least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& b,
                              double relative_floor = 1e-12);

}  // namespace kinetic
