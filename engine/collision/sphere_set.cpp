#include "engine/collision/sphere_set.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "engine/collision/lane_math.hpp"

namespace kinetic {

namespace {
std::uint64_t near_word_portable(const float* blocks, std::size_t padded, bool has_solids,
                                 std::size_t base, float cx, float cy, float cz, float extra);
#ifdef KINETIC_LANES_X86
std::uint64_t near_word_avx2(const float* blocks, std::size_t padded, bool has_solids,
                             std::size_t base, float cx, float cy, float cz, float extra);
#endif
}  // namespace

void SphereSet::build(const std::vector<ObstacleTree::Entry>& entries,
                      const std::vector<std::optional<Solid>>* solids) {
  near_word_ = &near_word_portable;
#ifdef KINETIC_LANES_X86
  if (__builtin_cpu_supports("avx2")) near_word_ = &near_word_avx2;
#endif
  padded_ = (entries.size() + kBlock - 1) / kBlock * kBlock;
  entries_ = entries.size();
  constexpr float kFar = std::numeric_limits<float>::infinity();
  x_.assign(padded_, kFar);
  y_.assign(padded_, kFar);
  z_.assign(padded_, kFar);
  r_.assign(padded_, 0.0f);
  ids_.assign(padded_, -1);
  blocks_.assign(kBlockRows * padded_, 0.0f);
  for (std::size_t i = 0; i < padded_; ++i) {
    for (const int c : {kX, kY, kZ}) at(c, i) = kFar;
    at(kRadial, i) = -1.0f;  // no solid: the bounding sphere's verdict stands
  }
  usable_ = true;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const ObstacleTree::Entry& e = entries[i];
    usable_ &= e.center.cwiseAbs().maxCoeff() <= kMaxCoordinate && std::isfinite(e.radius);
    at(kX, i) = x_[i] = static_cast<float>(e.center.x());
    at(kY, i) = y_[i] = static_cast<float>(e.center.y());
    at(kZ, i) = z_[i] = static_cast<float>(e.center.z());
    // Rounded up: the float sphere holds the double one.
    at(kR, i) = r_[i] = std::nextafter(static_cast<float>(e.radius * (1.0 + 1e-6)), kFar);
    ids_[i] = e.id;
  }
  has_solids_ = false;
  if (!solids || solids->size() != entries.size()) return;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::optional<Solid>& solid = (*solids)[i];
    if (!solid || !solid->to_local.allFinite() || !solid->origin.allFinite() ||
        !solid->half.allFinite() || !std::isfinite(solid->radial))
      continue;
    has_solids_ = true;
    for (int k = 0; k < 9; ++k) at(kM0 + k, i) = static_cast<float>(solid->to_local(k / 3, k % 3));
    for (int a = 0; a < 3; ++a) {
      at(kOx + a, i) = static_cast<float>(solid->origin[a]);
      at(kHx + a, i) = static_cast<float>(solid->half[a]);
    }
    at(kRadial, i) = static_cast<float>(std::max(solid->radial, 0.0));
    // Float rounding of the dozen operations below, relative to the sizes involved (the query
    // point lies within reach of the solid where the verdict is close).
    const double size =
        solid->origin.cwiseAbs().maxCoeff() + solid->half.cwiseAbs().maxCoeff() + solid->radial;
    at(kSlackRow, i) = static_cast<float>(kSlack + 4e-6 * size);
  }
}

namespace {
// near_word_'s test, a block of eight entries per step (SphereSet::BlockRow's layout): built
// portable and, where the CPU may have AVX2, for it (one register per eight floats). No fused
// multiply-adds in either: the same floats both ways.
[[gnu::always_inline]] inline std::uint64_t near_word_body(const float* blocks, std::size_t padded,
                                                           bool has_solids, std::size_t base,
                                                           float cx, float cy, float cz,
                                                           float extra) {
  static_assert(SphereSet::kBlock == kLanes, "a block is one vector of lanes");
  const float reach = extra * (1.0f + 4e-6f);  // the solids' test: as the bounding spheres' slack
  const std::size_t end = std::min(padded, base + 64);
  std::uint64_t word = 0;
  for (std::size_t at = base; at < end; at += SphereSet::kBlock) {
    const float* block = blocks + at * SphereSet::kBlockRows;
    const auto load = [block](int row) {
      LaneF v;
      std::memcpy(&v, block + row * kLanes, sizeof v);
      return v;
    };
    const LaneF dx = load(SphereSet::kX) - cx, dy = load(SphereSet::kY) - cy,
                dz = load(SphereSet::kZ) - cz;
    const LaneF limit = load(SphereSet::kR) + extra;
    unsigned near = lane_bits(~((dx * dx + dy * dy) + dz * dz > limit * limit));
    if (near != 0 && has_solids) {
      // The point in each solid's frame; how far beyond each half extent (0 within it).
      const LaneF sx = cx - load(SphereSet::kOx), sy = cy - load(SphereSet::kOy),
                  sz = cz - load(SphereSet::kOz);
      const auto local = [&](int r) {
        const int m = SphereSet::kM0 + 3 * r;
        return (load(m) * sx + load(m + 1) * sy) + load(m + 2) * sz;
      };
      const LaneF qx = lane_max0(lane_abs(local(0)) - load(SphereSet::kHx));
      const LaneF qy = lane_max0(lane_abs(local(1)) - load(SphereSet::kHy));
      const LaneF qz = lane_max0(lane_abs(local(2)) - load(SphereSet::kHz));
      const LaneF radial = load(SphereSet::kRadial);
      // Across the axis: a cylinder's radial gap (half extents 0 there), a box's plain x-y part.
      const LaneF across = lane_max0(lane_sqrt(qx * qx + qy * qy) - radial);
      const LaneF solid_limit = reach + load(SphereSet::kSlackRow);
      const LaneI solid_near = ~(across * across + qz * qz > solid_limit * solid_limit);
      const LaneI no_solid = radial < 0.0f;  // the bounding sphere's verdict stands
      near &= lane_bits(solid_near | no_solid);
    }
    word |= static_cast<std::uint64_t>(near) << (at - base);
  }
  return word;
}

std::uint64_t near_word_portable(const float* blocks, std::size_t padded, bool has_solids,
                                 std::size_t base, float cx, float cy, float cz, float extra) {
  return near_word_body(blocks, padded, has_solids, base, cx, cy, cz, extra);
}

#ifdef KINETIC_LANES_X86
[[gnu::target("avx2")]] std::uint64_t near_word_avx2(const float* blocks, std::size_t padded,
                                                     bool has_solids, std::size_t base, float cx,
                                                     float cy, float cz, float extra) {
  return near_word_body(blocks, padded, has_solids, base, cx, cy, cz, extra);
}
#endif
}  // namespace

}  // namespace kinetic
