#pragma once
// Finiteness of a joint vector on the FK hot path. Eigen's allFinite() runs a scalar loop with an
// early exit (~10% of a Panda FK call); testing the exponent bits with an OR reduction is
// branch-free and vectorises.
#include <bit>
#include <cstdint>

namespace kinetic::detail {

[[gnu::always_inline]] inline bool all_finite(const double* values, long count) {
  constexpr std::uint64_t kExponent = 0x7ff0000000000000ULL;  // all ones: inf or NaN
  std::uint64_t non_finite = 0;
  for (long i = 0; i < count; ++i)
    non_finite |= static_cast<std::uint64_t>(
        (std::bit_cast<std::uint64_t>(values[i]) & kExponent) == kExponent);
  return non_finite == 0;
}

}  // namespace kinetic::detail
