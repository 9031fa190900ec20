// The Jacobi decompositions of engine/core/small_decompositions: each checked by what defines it
// (A V = V Λ with V orthonormal; A V's columns orthogonal with the singular values as norms;
// the normal equations and minimum norm for least squares) on random and degenerate matrices of
// the sizes kinematics uses, and on matrices whose answer is known in closed form.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "engine/core/small_decompositions.hpp"
#include "tests/support/time_budget.hpp"

namespace kinetic {
namespace {

Eigen::MatrixXd decomposition_random_matrix(Eigen::Index rows, Eigen::Index cols,
                                            std::mt19937_64& rng) {
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Eigen::MatrixXd m(rows, cols);
  for (Eigen::Index i = 0; i < rows; ++i)
    for (Eigen::Index j = 0; j < cols; ++j) m(i, j) = value(rng);
  return m;
}

// An orthogonal matrix as a product of plane rotations at random angles.
Eigen::MatrixXd decomposition_random_rotation(Eigen::Index n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> angle(-std::numbers::pi, std::numbers::pi);
  Eigen::MatrixXd q = Eigen::MatrixXd::Identity(n, n);
  for (int k = 0; k < 3 * n * n; ++k) {
    const Eigen::Index p = static_cast<Eigen::Index>(rng() % n);
    const Eigen::Index r = static_cast<Eigen::Index>(rng() % n);
    if (p == r) continue;
    const double a = angle(rng), c = std::cos(a), s = std::sin(a);
    const Eigen::VectorXd qp = q.col(p), qr = q.col(r);
    q.col(p) = c * qp - s * qr;
    q.col(r) = s * qp + c * qr;
  }
  return q;
}

void expect_orthonormal(const Eigen::MatrixXd& v) {
  EXPECT_LT((v.transpose() * v - Eigen::MatrixXd::Identity(v.cols(), v.cols())).norm(), 1e-12);
}

TEST(SmallDecompositions, SymmetricEigenSatisfiesItsDefinitionOnRandomMatrices) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < test::cases(600, 100); ++trial) {
    const Eigen::Index n = 1 + trial % 6;
    const Eigen::MatrixXd b = decomposition_random_matrix(n, n, rng);
    const SmallSymmetric a = b + b.transpose();
    SmallValues values;
    SmallSymmetric vectors;
    symmetric_eigen(a, values, &vectors);
    ASSERT_EQ(values.size(), n);
    for (Eigen::Index i = 1; i < n; ++i) EXPECT_LE(values[i - 1], values[i]);
    expect_orthonormal(vectors);
    EXPECT_LT((a * vectors - vectors * values.asDiagonal()).norm(), 1e-12 * (1.0 + a.norm()));
    SmallValues only;
    symmetric_eigen(a, only, nullptr);
    EXPECT_LT((only - values).norm(), 1e-14 * (1.0 + a.norm()));
  }
}

TEST(SmallDecompositions, SymmetricEigenOfAGramMatrixWithRepeatedAndZeroEigenvalues) {
  std::mt19937_64 rng(11);
  const Eigen::MatrixXd q = decomposition_random_rotation(6, rng);
  Eigen::VectorXd known(6);
  known << 0.0, 0.0, 1e-9, 2.0, 2.0, 5.0;  // a rank-deficient Jacobian's J Jᵀ, ascending
  const SmallSymmetric a = q * known.asDiagonal() * q.transpose();
  SmallValues values;
  SmallSymmetric vectors;
  symmetric_eigen(a, values, &vectors);
  EXPECT_LT((values - known).cwiseAbs().maxCoeff(), 1e-13);
  expect_orthonormal(vectors);
  EXPECT_LT((a * vectors - vectors * values.asDiagonal()).norm(), 1e-13);
  symmetric_eigen(SmallSymmetric::Zero(4, 4), values, &vectors);
  EXPECT_EQ(values.size(), 4);
  EXPECT_EQ(values.cwiseAbs().maxCoeff(), 0.0);
  expect_orthonormal(vectors);
}

TEST(SmallDecompositions, SingularValuesOfMatricesBuiltFromKnownOnes) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < test::cases(300, 60); ++trial) {
    const Eigen::Index rows = 6, cols = 1 + trial % 9;  // Jacobians of 1 to 9 joints
    const Eigen::Index k = std::min(rows, cols);
    Eigen::VectorXd known(k);
    for (Eigen::Index i = 0; i < k; ++i) known[i] = std::pow(10.0, -3.0 * i / k) * (k - i);
    if (trial % 4 == 0) known[k - 1] = 0.0;  // a singular Jacobian
    Eigen::MatrixXd s = Eigen::MatrixXd::Zero(rows, cols);
    for (Eigen::Index i = 0; i < k; ++i) s(i, i) = known[i];
    const Eigen::MatrixXd a =
        decomposition_random_rotation(rows, rng) * s * decomposition_random_rotation(cols, rng);
    Eigen::VectorXd sigma;
    Eigen::MatrixXd v;
    singular_values(a, sigma, &v);
    ASSERT_EQ(sigma.size(), k);
    EXPECT_LT((sigma - known).cwiseAbs().maxCoeff(), 1e-12) << rows << " x " << cols;
    ASSERT_EQ(v.rows(), cols);
    ASSERT_EQ(v.cols(), cols);
    expect_orthonormal(v);
    // A V's columns are orthogonal with norms sigma (then zero past min(rows, cols)).
    const Eigen::MatrixXd av = a * v;
    for (Eigen::Index i = 0; i < cols; ++i) {
      EXPECT_NEAR(av.col(i).norm(), i < k ? sigma[i] : 0.0, 1e-12);
      for (Eigen::Index j = i + 1; j < cols; ++j) EXPECT_NEAR(av.col(i).dot(av.col(j)), 0.0, 1e-12);
    }
    EXPECT_LT((singular_values(a) - sigma).norm(), 1e-14);
  }
}

TEST(SmallDecompositions, TheLastRightSingularVectorOfARedundantArmIsItsSelfMotion) {
  std::mt19937_64 rng(5);
  const Eigen::MatrixXd jacobian = decomposition_random_matrix(6, 7, rng);
  Eigen::VectorXd sigma;
  Eigen::MatrixXd v;
  singular_values(jacobian, sigma, &v);
  EXPECT_EQ(sigma.size(), 6);
  EXPECT_GT(sigma[5], 1e-6);
  EXPECT_LT((jacobian * v.col(6)).norm(), 1e-12);
  EXPECT_NEAR(v.col(6).norm(), 1.0, 1e-12);
}

TEST(SmallDecompositions, LeastSquaresMeetsTheNormalEquationsWithTheSmallestNorm) {
  std::mt19937_64 rng(9);
  for (int trial = 0; trial < test::cases(300, 60); ++trial) {
    const Eigen::MatrixXd a = decomposition_random_matrix(6, 3, rng);
    const Eigen::VectorXd b = decomposition_random_matrix(6, 1, rng);
    const Eigen::VectorXd x = least_squares(a, b);
    EXPECT_LT((a.transpose() * (a * x - b)).norm(), 1e-12);
    // Consistent system: the exact solution comes back.
    const Eigen::VectorXd exact = decomposition_random_matrix(3, 1, rng);
    EXPECT_LT((least_squares(a, a * exact) - exact).norm(), 1e-12);
  }
  // Rank-deficient: two equal columns. The minimum-norm solution splits their weight evenly.
  Eigen::MatrixXd a(3, 2);
  a << 1, 1, 2, 2, 0, 0;
  const Eigen::VectorXd x = least_squares(a, Eigen::Vector3d(1, 2, 5));
  EXPECT_NEAR(x[0], 0.5, 1e-12);
  EXPECT_NEAR(x[1], 0.5, 1e-12);
  EXPECT_EQ(least_squares(Eigen::MatrixXd::Zero(3, 2), Eigen::Vector3d(1, 2, 3)).norm(), 0.0);
}

}  // namespace
}  // namespace kinetic
