#include "engine/geometry/point_columns.hpp"

#include <algorithm>
#include <cmath>
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

namespace {
// The cube map's cell of a direction: the face of its largest coordinate, and its other two
// coordinates over that one, each cut into `side` ranges. -1 for a zero or non-finite direction.
int map_cell(const Vector3& d, int side) {
  const double ax = std::abs(d.x()), ay = std::abs(d.y()), az = std::abs(d.z());
  int face;
  double u, v, along;
  if (ax >= ay && ax >= az) {
    face = d.x() >= 0.0 ? 0 : 1;
    u = d.y();
    v = d.z();
    along = ax;
  } else if (ay >= az) {
    face = d.y() >= 0.0 ? 2 : 3;
    u = d.x();
    v = d.z();
    along = ay;
  } else {
    face = d.z() >= 0.0 ? 4 : 5;
    u = d.x();
    v = d.y();
    along = az;
  }
  if (!(along > 0.0) || !(along < std::numeric_limits<double>::infinity())) return -1;
  const double scale = 0.5 * side / along;
  const int cu = std::clamp(static_cast<int>((u + along) * scale), 0, side - 1);
  const int cv = std::clamp(static_cast<int>((v + along) * scale), 0, side - 1);
  return (face * side + cu) * side + cv;
}
}  // namespace

PointColumns::PointColumns(const ConvexHull& hull) : PointColumns(hull.vertices) {
  neighbour_start_ = hull.neighbour_start;
  neighbours_ = hull.neighbours;
  if (neighbour_start_.empty() || count_ == 0) return;
  direction_map_.assign(6 * kMapSide * kMapSide, 0);
  for (int face = 0; face < 6; ++face)
    for (int cu = 0; cu < kMapSide; ++cu)
      for (int cv = 0; cv < kMapSide; ++cv) {
        const double u = (cu + 0.5) * 2.0 / kMapSide - 1.0, v = (cv + 0.5) * 2.0 / kMapSide - 1.0;
        const double sign = face % 2 == 0 ? 1.0 : -1.0;
        const Vector3 d = face < 2   ? Vector3(sign, u, v)
                          : face < 4 ? Vector3(u, sign, v)
                                     : Vector3(u, v, sign);
        const int cell = map_cell(d, kMapSide);
        direction_map_[static_cast<std::size_t>(cell)] =
            static_cast<std::uint32_t>(support_index(d));
      }
}

std::uint32_t PointColumns::mapped_start(const Vector3& d) const {
  const int cell = map_cell(d, kMapSide);
  return cell < 0 ? 0 : direction_map_[static_cast<std::size_t>(cell)];
}

std::size_t PointColumns::support_index(const Vector3& d, std::uint32_t& start) const {
  // Below this many points the branch-free scan is as quick as a climb's few dependent steps.
  constexpr std::size_t kClimbFrom = 32;
  if (neighbour_start_.empty() || count_ < kClimbFrom)
    return start = static_cast<std::uint32_t>(support_index(d));
  // From the better of the last answer (a nearby direction's, often this one's) and the cube
  // map's vertex for this direction, which is a step or two from the answer wherever it points.
  std::uint32_t at = mapped_start(d);
  double best = d.x() * x_[at] + d.y() * y_[at] + d.z() * z_[at];
  if (start < count_ && start != at) {
    const double warm = d.x() * x_[start] + d.y() * y_[start] + d.z() * z_[start];
    if (warm > best) {
      best = warm;
      at = start;
    }
  }
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
