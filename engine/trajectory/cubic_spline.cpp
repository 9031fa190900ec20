#include "engine/trajectory/cubic_spline.hpp"

#include <algorithm>
#include <cmath>

#include "engine/core/error.hpp"
#include "engine/trajectory/trapezoidal.hpp"

namespace kinetic {
namespace {

// Second derivatives M (one row per knot) of the clamped spline: a tridiagonal system solved by
// the Thomas algorithm, all joints at once.
Eigen::MatrixXd second_derivatives(const JointPath& path, const std::vector<double>& h) {
  const std::size_t m = path.size();
  const auto n = path[0].size();
  std::vector<double> lower(m, 0.0), diag(m, 0.0), upper(m, 0.0);
  Eigen::MatrixXd rhs(static_cast<Eigen::Index>(m), n);
  for (std::size_t k = 0; k < m; ++k) {
    const auto row = static_cast<Eigen::Index>(k);
    if (k == 0) {
      diag[k] = 2.0 * h[0];
      upper[k] = h[0];
      rhs.row(row) = 6.0 * (path[1] - path[0]).transpose() / h[0];
    } else if (k + 1 == m) {
      lower[k] = h[k - 1];
      diag[k] = 2.0 * h[k - 1];
      rhs.row(row) = -6.0 * (path[k] - path[k - 1]).transpose() / h[k - 1];
    } else {
      lower[k] = h[k - 1];
      diag[k] = 2.0 * (h[k - 1] + h[k]);
      upper[k] = h[k];
      rhs.row(row) =
          6.0 * ((path[k + 1] - path[k]) / h[k] - (path[k] - path[k - 1]) / h[k - 1]).transpose();
    }
  }
  for (std::size_t k = 1; k < m; ++k) {
    const double w = lower[k] / diag[k - 1];
    diag[k] -= w * upper[k - 1];
    rhs.row(static_cast<Eigen::Index>(k)) -= w * rhs.row(static_cast<Eigen::Index>(k - 1));
  }
  Eigen::MatrixXd M(static_cast<Eigen::Index>(m), n);
  for (std::size_t k = m; k-- > 0;) {
    const auto row = static_cast<Eigen::Index>(k);
    M.row(row) = rhs.row(row);
    if (k + 1 < m) M.row(row) -= upper[k] * M.row(row + 1);
    M.row(row) /= diag[k];
  }
  return M;
}

struct Spline {
  Eigen::MatrixXd M;              // acceleration at each knot
  Eigen::MatrixXd knot_velocity;  // velocity at each knot
};

Spline solve(const JointPath& path, const std::vector<double>& h) {
  Spline s;
  const auto m = static_cast<Eigen::Index>(path.size());
  if (m == 1) {  // standing still (a path whose waypoints are all the same): no segment to solve
    s.M = s.knot_velocity = Eigen::MatrixXd::Zero(1, path[0].size());
    return s;
  }
  s.M = second_derivatives(path, h);
  s.knot_velocity.resize(m, path[0].size());
  for (Eigen::Index k = 0; k + 1 < m; ++k) {
    const double hk = h[static_cast<std::size_t>(k)];
    s.knot_velocity.row(k) =
        (path[k + 1] - path[k]).transpose() / hk - hk * (2.0 * s.M.row(k) + s.M.row(k + 1)) / 6.0;
  }
  s.knot_velocity.row(m - 1).setZero();  // clamped end
  s.knot_velocity.row(0).setZero();      // clamped start (exactly, not up to rounding)
  return s;
}

void check_durations(const JointPath& path, const std::vector<double>& durations) {
  if (durations.size() + 1 != path.size())
    throw Error(ErrorCode::DimensionMismatch,
                "cubic spline: " + std::to_string(durations.size()) + " durations for " +
                    std::to_string(path.size()) + " waypoints",
                "give one duration per segment (waypoints - 1)");
  for (std::size_t i = 0; i < durations.size(); ++i)
    if (!(durations[i] > 0.0) || !std::isfinite(durations[i]))
      throw Error(ErrorCode::InvalidValue,
                  "cubic spline: duration of segment " + std::to_string(i) + " is " +
                      std::to_string(durations[i]),
                  "durations must be positive and finite");
}

// kept_index: for each input waypoint, the index of its knot in `path` (empty: one per knot).
Trajectory build(const JointPath& path, const std::vector<double>& h,
                 const TrajectoryLimits& limits, const std::vector<std::size_t>& kept_index = {}) {
  const Spline s = solve(path, h);
  const auto n = static_cast<std::size_t>(limits.dof());
  std::vector<double> times, values(3 * n * path.size());
  double t = 0.0;
  for (std::size_t k = 0; k < path.size(); ++k) {
    const auto row = static_cast<Eigen::Index>(k);
    double* v = values.data() + 3 * n * k;
    Eigen::Map<JointVector>(v, limits.dof()) = path[k];
    Eigen::Map<JointVector>(v + n, limits.dof()) = s.knot_velocity.row(row).transpose();
    Eigen::Map<JointVector>(v + 2 * n, limits.dof()) = s.M.row(row).transpose();
    times.push_back(t);
    if (k < h.size()) t += h[k];
  }
  std::vector<double> waypoint_times = times;
  if (!kept_index.empty()) {
    waypoint_times.clear();
    for (std::size_t k : kept_index) waypoint_times.push_back(times[k]);
  }
  return Trajectory::from_storage(limits.robot, limits.joint_names, limits.units, std::move(times),
                                  std::move(values), std::move(waypoint_times));
}

}  // namespace

Trajectory cubic_spline(const JointPath& path, const std::vector<double>& durations,
                        const TrajectoryLimits& limits) {
  check_path(path, limits);
  check_durations(path, durations);
  if (path.size() == 1) return build(path, {}, limits);
  return build(path, durations, limits);
}

Trajectory cubic_spline(const JointPath& input, const TrajectoryLimits& limits) {
  check_path(input, limits);
  std::vector<std::size_t> kept_index;
  const JointPath path = remove_duplicate_waypoints(input, &kept_index);
  if (path.size() == 1) return build(path, {}, limits);
  const JointVector v = limits.scaled_velocity(), a = limits.scaled_acceleration(),
                    j = limits.scaled_jerk();
  std::vector<double> h;
  for (std::size_t k = 0; k + 1 < path.size(); ++k)
    h.push_back(trapezoidal_segment_time(path[k], path[k + 1], v, a));
  // Worst ratio of each derivative to its limit over the whole spline.
  const Spline s = solve(path, h);
  double rv = 0.0, ra = 0.0, rj = 0.0;
  for (std::size_t k = 0; k < h.size(); ++k) {
    const auto r = static_cast<Eigen::Index>(k);
    for (Eigen::Index q = 0; q < v.size(); ++q) {
      const double m0 = s.M(r, q), m1 = s.M(r + 1, q), v0 = s.knot_velocity(r, q);
      double vmax = std::max(std::abs(v0), std::abs(s.knot_velocity(r + 1, q)));
      if (m1 != m0) {  // velocity is quadratic in time: check its vertex
        const double x = -m0 * h[k] / (m1 - m0);
        if (x > 0.0 && x < h[k])
          vmax = std::max(vmax, std::abs(v0 + m0 * x + 0.5 * (m1 - m0) * x * x / h[k]));
      }
      rv = std::max(rv, vmax / v[q]);
      ra = std::max(ra, std::max(std::abs(m0), std::abs(m1)) / a[q]);
      rj = std::max(rj, std::abs(m1 - m0) / h[k] / j[q]);
    }
  }
  const double stretch = std::max({rv, std::sqrt(ra), std::cbrt(rj)}) * (1.0 + 1e-12);
  for (double& d : h) d *= stretch;
  return build(path, h, limits, kept_index);
}

}  // namespace kinetic
