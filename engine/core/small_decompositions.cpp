#include "engine/core/small_decompositions.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kinetic {
namespace {

// Enough for the sizes these serve: Jacobi rotations converge quadratically, a 6 x 6 in 5-8 sweeps.
constexpr int kMaxSweeps = 60;
constexpr double kOrthogonal = 1e-15;  // relative size of what counts as zero off the diagonal

// tan of the rotation angle phi with cot(2 phi) = zeta, the smaller of the two roots (the rotation
// turns by at most 45 degrees, which keeps the iteration stable).
double rotation_tangent(double zeta) {
  if (std::abs(zeta) > 1e150) return 0.5 / zeta;  // zeta * zeta would overflow
  const double t = 1.0 / (std::abs(zeta) + std::sqrt(1.0 + zeta * zeta));
  return zeta >= 0.0 ? t : -t;
}

// Columns p and q of m become c p - s q and s p + c q.
template <typename Matrix>
void rotate_columns(Matrix& m, Eigen::Index p, Eigen::Index q, double c, double s) {
  for (Eigen::Index k = 0; k < m.rows(); ++k) {
    const double mp = m(k, p), mq = m(k, q);
    m(k, p) = c * mp - s * mq;
    m(k, q) = s * mp + c * mq;
  }
}

// One-sided (Hestenes) Jacobi: rotates the columns of `u` (a copy of the matrix) until they are
// mutually orthogonal, accumulating the rotations in `v` where given. The singular values are
// then the columns' norms, and u's columns are the left singular vectors scaled by them.
void orthogonalise_columns(Eigen::MatrixXd& u, Eigen::MatrixXd* v) {
  const Eigen::Index n = u.cols();
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = false;
    for (Eigen::Index p = 0; p + 1 < n; ++p)
      for (Eigen::Index q = p + 1; q < n; ++q) {
        const double alpha = u.col(p).squaredNorm(), beta = u.col(q).squaredNorm();
        const double gamma = u.col(p).dot(u.col(q));
        if (!(std::abs(gamma) > kOrthogonal * std::sqrt(alpha * beta))) continue;
        rotated = true;
        const double t = rotation_tangent((beta - alpha) / (2.0 * gamma));
        const double c = 1.0 / std::sqrt(1.0 + t * t);
        rotate_columns(u, p, q, c, c * t);
        if (v) rotate_columns(*v, p, q, c, c * t);
      }
    if (!rotated) break;
  }
}

// Column indices of u ordered by descending norm.
Eigen::VectorXi order_by_norm(const Eigen::MatrixXd& u, Eigen::VectorXd& norms) {
  const Eigen::Index n = u.cols();
  norms.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) norms[i] = u.col(i).norm();
  Eigen::VectorXi order(n);
  for (Eigen::Index i = 0; i < n; ++i) order[i] = static_cast<int>(i);
  for (Eigen::Index i = 0; i < n; ++i)  // selection sort: a handful of columns
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (norms[order[j]] > norms[order[i]]) std::swap(order[i], order[j]);
  return order;
}

}  // namespace

void symmetric_eigen(const SmallSymmetric& a_in, SmallValues& values, SmallSymmetric* vectors) {
  const Eigen::Index n = a_in.rows();
  SmallSymmetric a(n, n);
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i; j < n; ++j) a(i, j) = a(j, i) = a_in(i, j);
  SmallSymmetric v = SmallSymmetric::Identity(n, n);
  // Cyclic Jacobi: each rotation zeroes one off-diagonal pair; sweeps until none is left above
  // rounding relative to the whole matrix.
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double off = 0.0, total = 0.0;
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = 0; j < n; ++j) (i == j ? total : off) += a(i, j) * a(i, j);
    total += off;
    if (!(off > kOrthogonal * kOrthogonal * total)) break;
    for (Eigen::Index p = 0; p + 1 < n; ++p)
      for (Eigen::Index q = p + 1; q < n; ++q) {
        const double apq = a(p, q);
        if (apq == 0.0) continue;
        const double t = rotation_tangent((a(q, q) - a(p, p)) / (2.0 * apq));
        const double c = 1.0 / std::sqrt(1.0 + t * t), s = c * t;
        rotate_columns(a, p, q, c, s);          // A P
        for (Eigen::Index k = 0; k < n; ++k) {  // Pᵀ (A P)
          const double ap = a(p, k), aq = a(q, k);
          a(p, k) = c * ap - s * aq;
          a(q, k) = s * ap + c * aq;
        }
        a(p, q) = a(q, p) = 0.0;  // exactly, rather than rounding's remainder
        rotate_columns(v, p, q, c, s);
      }
  }
  values.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) values[i] = a(i, i);
  for (Eigen::Index i = 0; i < n; ++i)  // ascending, vectors along
    for (Eigen::Index j = i + 1; j < n; ++j)
      if (values[j] < values[i]) {
        std::swap(values[i], values[j]);
        v.col(i).swap(v.col(j));
      }
  if (vectors) *vectors = v;
}

void singular_values(const Eigen::MatrixXd& a, Eigen::VectorXd& sigma, Eigen::MatrixXd* v) {
  Eigen::MatrixXd u = a;
  Eigen::MatrixXd rotations;
  if (v) rotations = Eigen::MatrixXd::Identity(a.cols(), a.cols());
  orthogonalise_columns(u, v ? &rotations : nullptr);
  Eigen::VectorXd norms;
  const Eigen::VectorXi order = order_by_norm(u, norms);
  sigma.resize(std::min(a.rows(), a.cols()));
  for (Eigen::Index i = 0; i < sigma.size(); ++i) sigma[i] = norms[order[i]];
  if (v) {
    v->resize(a.cols(), a.cols());
    for (Eigen::Index i = 0; i < a.cols(); ++i) v->col(i) = rotations.col(order[i]);
  }
}

Eigen::VectorXd singular_values(const Eigen::MatrixXd& a) {
  Eigen::VectorXd sigma;
  singular_values(a, sigma, nullptr);
  return sigma;
}

Eigen::VectorXd least_squares(const Eigen::MatrixXd& a, const Eigen::VectorXd& b,
                              double relative_floor) {
  Eigen::MatrixXd u = a;
  Eigen::MatrixXd v = Eigen::MatrixXd::Identity(a.cols(), a.cols());
  orthogonalise_columns(u, &v);
  // a v = u with orthogonal columns u_i = sigma_i û_i: x = sum v_i (û_i · b) / sigma_i.
  Eigen::VectorXd norms;
  order_by_norm(u, norms);
  const double floor = relative_floor * (norms.size() ? norms.maxCoeff() : 0.0);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(a.cols());
  for (Eigen::Index i = 0; i < a.cols(); ++i)
    if (norms[i] > floor && norms[i] > 0.0)
      x += v.col(i) * (u.col(i).dot(b) / (norms[i] * norms[i]));
  return x;
}

}  // namespace kinetic
