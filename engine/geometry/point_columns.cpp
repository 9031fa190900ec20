#include "engine/geometry/point_columns.hpp"

#include <algorithm>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace kinetic {

PointColumns::PointColumns(const std::vector<Vector3>& points) : count_(points.size()) {
  const std::size_t padded = (count_ + 1) / 2 * 2;
  x_.reserve(padded);
  y_.reserve(padded);
  z_.reserve(padded);
  for (std::size_t i = 0; i < padded; ++i) {
    const Vector3& p = points[std::min(i, count_ - 1)];
    x_.push_back(p.x());
    y_.push_back(p.y());
    z_.push_back(p.z());
  }
}

PointColumns::PointColumns(const ConvexHull& hull) : PointColumns(hull.vertices) {
  neighbour_start_ = hull.neighbour_start;
  neighbours_ = hull.neighbours;
}

std::size_t PointColumns::support_index(const Vector3& d, std::uint32_t& start) const {
  // Below this many points the branch-free scan is as quick as a climb's few dependent steps.
  constexpr std::size_t kClimbFrom = 32;
  if (neighbour_start_.empty() || count_ < kClimbFrom)
    return start = static_cast<std::uint32_t>(support_index(d));
  std::uint32_t at = start < count_ ? start : 0;
  double best = d.x() * x_[at] + d.y() * y_[at] + d.z() * z_[at];
  for (;;) {
    std::uint32_t next = at;
    for (std::uint32_t k = neighbour_start_[at]; k < neighbour_start_[at + 1]; ++k) {
      const std::uint32_t n = neighbours_[k];
      const double s = d.x() * x_[n] + d.y() * y_[n] + d.z() * z_[n];
      if (s > best) {
        best = s;
        next = n;
      }
    }
    if (next == at) return start = at;  // strictly rising each step: it ends
    at = next;
  }
}

std::size_t PointColumns::support_index(const Vector3& d) const {
#if defined(__SSE2__)
  // Two running bests (one per lane) and their indices, kept with masks instead of branches.
  const __m128d dx = _mm_set1_pd(d.x()), dy = _mm_set1_pd(d.y()), dz = _mm_set1_pd(d.z());
  __m128d best = _mm_set1_pd(-std::numeric_limits<double>::infinity());
  __m128d best_index = _mm_set_pd(1.0, 0.0), index = _mm_set_pd(1.0, 0.0);
  const __m128d two = _mm_set1_pd(2.0);
  for (std::size_t i = 0; i < x_.size(); i += 2) {
    const __m128d s = _mm_add_pd(
        _mm_add_pd(_mm_mul_pd(dx, _mm_loadu_pd(&x_[i])), _mm_mul_pd(dy, _mm_loadu_pd(&y_[i]))),
        _mm_mul_pd(dz, _mm_loadu_pd(&z_[i])));
    const __m128d greater = _mm_cmpgt_pd(s, best);
    best = _mm_or_pd(_mm_and_pd(greater, s), _mm_andnot_pd(greater, best));
    best_index = _mm_or_pd(_mm_and_pd(greater, index), _mm_andnot_pd(greater, best_index));
    index = _mm_add_pd(index, two);
  }
  alignas(16) double b[2], k[2];
  _mm_store_pd(b, best);
  _mm_store_pd(k, best_index);
  const double chosen = b[1] > b[0] ? k[1] : k[0];
  return std::min(static_cast<std::size_t>(chosen), count_ - 1);
#else
  std::size_t best = 0;
  double best_dot = d.x() * x_[0] + d.y() * y_[0] + d.z() * z_[0];
  for (std::size_t i = 1; i < count_; ++i) {
    const double s = d.x() * x_[i] + d.y() * y_[i] + d.z() * z_[i];
    if (s > best_dot) {
      best_dot = s;
      best = i;
    }
  }
  return best;
#endif
}

}  // namespace kinetic
