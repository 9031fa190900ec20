#pragma once
// Flat broad phase for the fixed obstacles of a scene of up to a few hundred: their bounding
// spheres in single-precision arrays, tested four at a time into a bit mask with no branch per
// obstacle. In a free state nearly every (link, obstacle) pair is culled, and a tree walk spends
// its time on mispredicted branches and pointer chasing instead (ObstacleTree stays the broad
// phase for larger scenes). Radii are rounded up so the float test never culls a sphere the exact
// test would keep.
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "engine/collision/obstacle_tree.hpp"

namespace kinetic {

class SphereSet {
 public:
  // An entry's solid, where it is a box or a cylinder (solid_mask): blocks of entries whose
  // bounding spheres come within reach are tested against the solids themselves, so a link beside
  // a long shelf board (inside the board's bounding sphere, centimetres from the board) is culled
  // here, four at a time, rather than by a distance call per pair.
  struct Solid {
    Eigen::Matrix3d to_local = Eigen::Matrix3d::Identity();  // world -> the solid's frame
    Vector3 origin = Vector3::Zero();
    Vector3 half = Vector3::Zero();  // box: half extents; cylinder: (0, 0, half length)
    double radial = 0.0;             // cylinder: radius (a box: 0)
  };
  // Beyond this distance from the origin float rounding would need a larger slack than the one
  // built in: such scenes and queries use ObstacleTree.
  static constexpr double kMaxCoordinate = 1.0e4;

  // `solids`, when given, holds per entry its solid or nullopt (the bounding sphere alone).
  void build(const std::vector<ObstacleTree::Entry>& entries,
             const std::vector<std::optional<Solid>>* solids = nullptr);
  std::size_t size() const { return ids_.size(); }
  // False when some entry lies too far out for the float test.
  bool usable() const { return usable_; }
  // The entries' bounding spheres (radii rounded up) and ids, padded to a multiple of 4 with
  // spheres at infinity (id -1), for callers that test them their own way (lane_check.cpp).
  const float* x() const { return x_.data(); }
  const float* y() const { return y_.data(); }
  const float* z() const { return z_.data(); }
  const float* r() const { return r_.data(); }
  const int* ids() const { return ids_.data(); }
  // The rounding slack any_near adds to a reach: a caller testing the spheres itself adds it too.
  static constexpr float kReachSlack = 1e-5f;

  // Calls visit(id) for every entry whose sphere may come within `reach` of `center` (every entry
  // within reach is visited; a few just beyond it may be); stops and returns true as soon as visit
  // returns true. Precondition: usable(), |center| components <= kMaxCoordinate.
  template <class Visit>
  bool any_near(const Vector3& center, double reach, const Visit& visit) const {
    const float cx = static_cast<float>(center.x()), cy = static_cast<float>(center.y()),
                cz = static_cast<float>(center.z());
    const float extra = static_cast<float>(reach * (1.0 + 1e-6)) + kReachSlack;
    // Local copies: `visit` is opaque to the compiler, which would reload the arrays after it.
    const float *x = x_.data(), *y = y_.data(), *z = z_.data(), *r = r_.data();
    const int* ids = ids_.data();
    const std::size_t padded = x_.size();
    for (std::size_t base = 0; base < padded; base += 4) {
      unsigned mask = block_mask(x + base, y + base, z + base, r + base, cx, cy, cz, extra);
      if (mask != 0 && has_solids_) mask &= solid_mask(base, cx, cy, cz, extra);
      for (; mask != 0; mask &= mask - 1) {
        const std::size_t k = base + static_cast<std::size_t>(std::countr_zero(mask));
        if (ids[k] >= 0 && visit(ids[k])) return true;  // (padding entries match NaN queries)
      }
    }
    return false;
  }

 private:
  static constexpr float kSlack = kReachSlack;  // m: float rounding of centres to kMaxCoordinate

  // Bit k set: entry base + k is near. Not-greater comparisons keep NaN queries conservative
  // (every entry visited); padding entries sit at infinity and never match.
  static unsigned block_mask(const float* x, const float* y, const float* z, const float* r,
                             float cx, float cy, float cz, float extra) {
#if defined(__SSE2__)
    const __m128 dx = _mm_sub_ps(_mm_loadu_ps(x), _mm_set1_ps(cx));
    const __m128 dy = _mm_sub_ps(_mm_loadu_ps(y), _mm_set1_ps(cy));
    const __m128 dz = _mm_sub_ps(_mm_loadu_ps(z), _mm_set1_ps(cz));
    const __m128 limit = _mm_add_ps(_mm_loadu_ps(r), _mm_set1_ps(extra));
    const __m128 d2 =
        _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)), _mm_mul_ps(dz, dz));
    return static_cast<unsigned>(_mm_movemask_ps(_mm_cmpngt_ps(d2, _mm_mul_ps(limit, limit))));
#else
    unsigned mask = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      const float dx = x[k] - cx, dy = y[k] - cy, dz = z[k] - cz;
      const float limit = r[k] + extra;
      mask |= static_cast<unsigned>(!(dx * dx + dy * dy + dz * dz > limit * limit)) << k;
    }
    return mask;
#endif
  }

  // Bit k set: entry base + k's solid may come within `extra` of the point (entries without a
  // solid: always set). Conservative under float rounding: the solids carry a slack.
  unsigned solid_mask(std::size_t base, float cx, float cy, float cz, float extra) const;

  std::vector<float> x_, y_, z_, r_;  // padded to a multiple of 4
  // The solids, column by column (rotation rows, origin, half extents, radial radius, slack);
  // an entry without one has radial = -1.
  std::vector<float> m_[9], ox_, oy_, oz_, hx_, hy_, hz_, radial_, slack_;
  bool has_solids_ = false;
  std::vector<int> ids_;
  bool usable_ = true;
};

}  // namespace kinetic
