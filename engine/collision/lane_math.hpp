#pragma once
// Eight floats at once, in GCC's vector types: what the lane check (eight configurations) and the
// witness scan (eight points) compute with. Functions that use them are built twice where the
// CPU may have AVX2 (KINETIC_LANES_X86): once for it, chosen at run time, once portable.
#include <cmath>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define KINETIC_LANES_X86 1
#endif

#include "engine/collision/lane_check.hpp"

namespace kinetic {

// A box's, cylinder's or sphere's sizes as the single-precision tests read them: box: half
// extents; cylinder (along z): (radius, 0, half length); sphere: (radius, 0, 0). False (half
// untouched) for other shapes.
inline bool primitive_half_sizes(const Shape& shape, float half[3]) {
  switch (shape.type) {
    case Shape::Type::Box:
      for (int a = 0; a < 3; ++a) half[a] = static_cast<float>(shape.box_size[a] / 2);
      return true;
    case Shape::Type::Cylinder:
      half[0] = static_cast<float>(shape.radius);
      half[1] = 0.0f;
      half[2] = static_cast<float>(shape.length / 2);
      return true;
    case Shape::Type::Sphere:
      half[0] = static_cast<float>(shape.radius);
      half[1] = half[2] = 0.0f;
      return true;
    default:
      return false;
  }
}

#ifdef KINETIC_LANES_X86
// The vector builds' target: AVX2 with fused multiply-adds (FMA3 came with AVX2 on every x86 CPU
// since 2013). The files that build them let GCC fuse a*b+c there (their single-precision tests
// carry slack for rounding, and a fused operation rounds once where the pair rounded twice),
// though the engine is otherwise built unfused (fast_sincos.hpp): KINETIC_LANES_FUSE_BEGIN/END.
#define KINETIC_LANES_TARGET "avx2,fma"
// Whether this CPU runs the vector builds (asked once, after start-up).
inline bool cpu_has_avx2_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
#endif
// Around the definitions of the vector kernels: a*b+c may be fused there (GCC; clang, which
// builds only the fuzz targets, keeps them unfused).
#if defined(__GNUC__) && !defined(__clang__)
#define KINETIC_LANES_FUSE_BEGIN \
  _Pragma("GCC push_options") _Pragma("GCC optimize(\"fp-contract=fast\")")
#define KINETIC_LANES_FUSE_END _Pragma("GCC pop_options")
#else
#define KINETIC_LANES_FUSE_BEGIN
#define KINETIC_LANES_FUSE_END
#endif

// One float per lane. may_alias: the lanes live in LaneState's float blocks.
typedef float LaneF __attribute__((vector_size(kLanes * sizeof(float)), __may_alias__));
typedef int LaneI __attribute__((vector_size(kLanes * sizeof(int))));

[[gnu::always_inline]] inline LaneF splat(float value) {
  return LaneF{} + value;
}

// Bit l: lane l of the mask is set (masks are all ones or all zeros per lane).
[[gnu::always_inline]] inline unsigned lane_bits(LaneI mask) {
#ifdef KINETIC_LANES_X86
  __m128 low, high;
  std::memcpy(&low, &mask, sizeof(low));
  std::memcpy(&high, reinterpret_cast<const char*>(&mask) + sizeof(low), sizeof(high));
  return static_cast<unsigned>(_mm_movemask_ps(low)) |
         (static_cast<unsigned>(_mm_movemask_ps(high)) << 4);
#else
  unsigned bits = 0;
  for (int l = 0; l < kLanes; ++l) bits |= static_cast<unsigned>(mask[l] != 0) << l;
  return bits;
#endif
}

// The least of the lanes.
[[gnu::always_inline]] inline float lane_min(LaneF x) {
  float least = x[0];
  for (int l = 1; l < kLanes; ++l) least = x[l] < least ? x[l] : least;
  return least;
}

[[gnu::always_inline]] inline LaneF lane_abs(LaneF x) {
  return (LaneF)((LaneI)x & 0x7fffffff);
}
[[gnu::always_inline]] inline LaneF lane_max0(LaneF x) {
  return x > 0.0f ? x : splat(0.0f);
}

// The halves taken and joined in registers: through memory, two 16-byte stores read back as one
// 32-byte load cannot be forwarded and stall (a dozen cycles) in the AVX2 builds.
[[gnu::always_inline]] inline LaneF lane_sqrt(LaneF x) {
#ifdef KINETIC_LANES_X86
  static_assert(kLanes == 8, "two halves of four");
  const __m128 low = _mm_sqrt_ps(__builtin_shufflevector(x, x, 0, 1, 2, 3));
  const __m128 high = _mm_sqrt_ps(__builtin_shufflevector(x, x, 4, 5, 6, 7));
  return __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7);
#else
  LaneF out;
  for (int l = 0; l < kLanes; ++l) out[l] = std::sqrt(x[l]);
  return out;
#endif
}

}  // namespace kinetic
