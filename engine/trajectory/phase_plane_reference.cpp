#include "engine/trajectory/phase_plane_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/error.hpp"
#include "engine/core/infinity.hpp"

namespace kinetic {
namespace {

// Admissible range of s̈ at one point for x = ṡ², from |q''_j x + q'_j s̈| ≤ a_j.
struct Range {
  double low = -kInf, high = kInf;
};

Range admissible(const JointVector& dq, const JointVector& ddq, const JointVector& a, double x) {
  Range r;
  for (Eigen::Index j = 0; j < dq.size(); ++j) {
    if (std::abs(dq[j]) < 1e-12) continue;
    const double lo = (-a[j] - ddq[j] * x) / dq[j], hi = (a[j] - ddq[j] * x) / dq[j];
    r.low = std::max(r.low, std::min(lo, hi));
    r.high = std::min(r.high, std::max(lo, hi));
  }
  return r;
}

// Largest x with a non-empty range and the velocity limits met.
double max_velocity_curve(const JointVector& dq, const JointVector& ddq, const JointVector& v,
                          const JointVector& a) {
  double x = kInf;
  for (Eigen::Index j = 0; j < dq.size(); ++j) {
    if (dq[j] != 0.0) x = std::min(x, v[j] * v[j] / (dq[j] * dq[j]));
    if (std::abs(dq[j]) < 1e-12 && ddq[j] != 0.0) x = std::min(x, a[j] / std::abs(ddq[j]));
  }
  // Each pair of joints: their s̈ intervals must overlap.
  for (Eigen::Index i = 0; i < dq.size(); ++i) {
    if (std::abs(dq[i]) < 1e-12) continue;
    for (Eigen::Index k = i + 1; k < dq.size(); ++k) {
      if (std::abs(dq[k]) < 1e-12) continue;
      // |ddq_i x + dq_i u| ≤ a_i and |ddq_k x + dq_k u| ≤ a_k: eliminating u gives
      // |(ddq_i/dq_i - ddq_k/dq_k) x| ≤ a_i/|dq_i| + a_k/|dq_k|.
      const double slope = std::abs(ddq[i] / dq[i] - ddq[k] / dq[k]);
      if (slope > 0.0) x = std::min(x, (a[i] / std::abs(dq[i]) + a[k] / std::abs(dq[k])) / slope);
    }
  }
  return x;
}

}  // namespace

PhasePlaneReference phase_plane_reference(const BlendedPath& path, const TrajectoryLimits& limits,
                                          double step) {
  limits.check();
  if (!(step > 0.0)) throw Error(ErrorCode::InvalidValue, "reference grid step must be positive");
  const JointVector v = limits.scaled_velocity(), a = limits.scaled_acceleration();
  const auto intervals = static_cast<std::size_t>(std::ceil(path.length() / step));
  const double ds = path.length() / static_cast<double>(intervals);
  const std::size_t m = intervals + 1;
  std::vector<JointVector> dq(m), ddq(m);
  std::vector<double> x(m);
  for (std::size_t i = 0; i < m; ++i) {
    path.evaluate(ds * static_cast<double>(i), nullptr, &dq[i], &ddq[i]);
    x[i] = max_velocity_curve(dq[i], ddq[i], v, a);
  }
  x.front() = x.back() = 0.0;
  for (std::size_t i = 0; i + 1 < m; ++i)
    x[i + 1] = std::min(x[i + 1], x[i] + 2.0 * ds * admissible(dq[i], ddq[i], a, x[i]).high);
  for (std::size_t i = m - 1; i > 0; --i)
    x[i - 1] = std::min(x[i - 1], x[i] - 2.0 * ds * admissible(dq[i], ddq[i], a, x[i]).low);
  PhasePlaneReference result;
  result.grid_points = m;
  for (std::size_t i = 0; i + 1 < m; ++i) {
    const double speed = std::sqrt(std::max(0.0, x[i])) + std::sqrt(std::max(0.0, x[i + 1]));
    result.duration += 2.0 * ds / speed;
  }
  return result;
}

}  // namespace kinetic
