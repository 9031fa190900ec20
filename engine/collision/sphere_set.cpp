#include "engine/collision/sphere_set.hpp"

#include <algorithm>
#include <limits>

namespace kinetic {

void SphereSet::build(const std::vector<ObstacleTree::Entry>& entries,
                      const std::vector<std::optional<Solid>>* solids) {
  const std::size_t padded = (entries.size() + 3) / 4 * 4;
  constexpr float kFar = std::numeric_limits<float>::infinity();
  x_.assign(padded, kFar);
  y_.assign(padded, kFar);
  z_.assign(padded, kFar);
  r_.assign(padded, 0.0f);
  ids_.assign(padded, -1);
  usable_ = true;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ObstacleTree::Entry& e = entries[i];
    usable_ &= e.center.cwiseAbs().maxCoeff() <= kMaxCoordinate && std::isfinite(e.radius);
    x_[i] = static_cast<float>(e.center.x());
    y_[i] = static_cast<float>(e.center.y());
    z_[i] = static_cast<float>(e.center.z());
    // Rounded up: the float sphere holds the double one.
    r_[i] = std::nextafter(static_cast<float>(e.radius * (1.0 + 1e-6)), kFar);
    ids_[i] = e.id;
  }
  has_solids_ = false;
  for (auto* column : {&ox_, &oy_, &oz_, &hx_, &hy_, &hz_, &slack_}) column->assign(padded, 0.0f);
  for (auto& column : m_) column.assign(padded, 0.0f);
  radial_.assign(padded, -1.0f);  // no solid: the bounding sphere's verdict stands
  if (!solids || solids->size() != entries.size()) return;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::optional<Solid>& solid = (*solids)[i];
    if (!solid || !solid->to_local.allFinite() || !solid->origin.allFinite() ||
        !solid->half.allFinite() || !std::isfinite(solid->radial))
      continue;
    has_solids_ = true;
    for (int k = 0; k < 9; ++k) m_[k][i] = static_cast<float>(solid->to_local(k / 3, k % 3));
    ox_[i] = static_cast<float>(solid->origin.x());
    oy_[i] = static_cast<float>(solid->origin.y());
    oz_[i] = static_cast<float>(solid->origin.z());
    hx_[i] = static_cast<float>(solid->half.x());
    hy_[i] = static_cast<float>(solid->half.y());
    hz_[i] = static_cast<float>(solid->half.z());
    radial_[i] = static_cast<float>(std::max(solid->radial, 0.0));
    // Float rounding of the dozen operations below, relative to the sizes involved (the query
    // point lies within reach of the solid where the verdict is close).
    const double size =
        solid->origin.cwiseAbs().maxCoeff() + solid->half.cwiseAbs().maxCoeff() + solid->radial;
    slack_[i] = static_cast<float>(kSlack + 4e-6 * size);
  }
}

unsigned SphereSet::solid_mask(std::size_t base, float cx, float cy, float cz, float extra) const {
  const float reach = extra * (1.0f + 4e-6f);
#if defined(__SSE2__)
  const auto load = [&](const std::vector<float>& column) { return _mm_loadu_ps(&column[base]); };
  const __m128 zero = _mm_setzero_ps();
  const __m128 sign = _mm_set1_ps(-0.0f);
  const __m128 dx = _mm_sub_ps(_mm_set1_ps(cx), load(ox_));
  const __m128 dy = _mm_sub_ps(_mm_set1_ps(cy), load(oy_));
  const __m128 dz = _mm_sub_ps(_mm_set1_ps(cz), load(oz_));
  const auto row = [&](int r) {
    return _mm_add_ps(
        _mm_add_ps(_mm_mul_ps(load(m_[3 * r]), dx), _mm_mul_ps(load(m_[3 * r + 1]), dy)),
        _mm_mul_ps(load(m_[3 * r + 2]), dz));
  };
  // Beyond each half extent (0 inside it): a box's distance is the length of these.
  const auto beyond = [&](__m128 local, const std::vector<float>& half) {
    return _mm_max_ps(_mm_sub_ps(_mm_andnot_ps(sign, local), load(half)), zero);
  };
  const __m128 qx = beyond(row(0), hx_), qy = beyond(row(1), hy_), qz = beyond(row(2), hz_);
  const __m128 radial = load(radial_);
  // Across the axis: a cylinder's radial gap (half extents 0 there), a box's plain x-y part.
  const __m128 across = _mm_max_ps(
      _mm_sub_ps(_mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(qx, qx), _mm_mul_ps(qy, qy))), radial), zero);
  const __m128 d2 = _mm_add_ps(_mm_mul_ps(across, across), _mm_mul_ps(qz, qz));
  const __m128 limit = _mm_add_ps(_mm_set1_ps(reach), load(slack_));
  const unsigned near =
      static_cast<unsigned>(_mm_movemask_ps(_mm_cmpngt_ps(d2, _mm_mul_ps(limit, limit))));
  const unsigned no_solid = static_cast<unsigned>(_mm_movemask_ps(_mm_cmplt_ps(radial, zero)));
  return near | no_solid;
#else
  unsigned mask = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const std::size_t i = base + k;
    if (radial_[i] < 0.0f) {
      mask |= 1u << k;
      continue;
    }
    const float dx = cx - ox_[i], dy = cy - oy_[i], dz = cz - oz_[i];
    const float lx = m_[0][i] * dx + m_[1][i] * dy + m_[2][i] * dz;
    const float ly = m_[3][i] * dx + m_[4][i] * dy + m_[5][i] * dz;
    const float lz = m_[6][i] * dx + m_[7][i] * dy + m_[8][i] * dz;
    const float qx = std::max(std::abs(lx) - hx_[i], 0.0f),
                qy = std::max(std::abs(ly) - hy_[i], 0.0f),
                qz = std::max(std::abs(lz) - hz_[i], 0.0f);
    const float across = std::max(std::sqrt(qx * qx + qy * qy) - radial_[i], 0.0f);
    const float limit = reach + slack_[i];
    mask |= static_cast<unsigned>(!(across * across + qz * qz > limit * limit)) << k;
  }
  return mask;
#endif
}

}  // namespace kinetic
