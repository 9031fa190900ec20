#pragma once
// Sine and cosine of joint angles for forward kinematics.
//
// Why hand-written: FK of a 7-joint arm needs seven sin/cos pairs, and glibc's sin and cos cost
// ~15-20 ns each (two calls, argument checks, its own slow paths), which alone was most of the
// FK budget. Joint angles lie in a few turns of zero, so a branch-free evaluation is enough:
// Cody-Waite reduction by pi/2 (two exact 33-bit pieces and a tail, the subtraction compensated
// so the reduced angle keeps ~119 bits), then fdlibm's minimax kernels for sin and cos on [-pi/4,
// pi/4]. The result is within ~1 ulp of std::sin/std::cos (tests: <= 1e-15 relative over a dense
// sweep of [-4pi, 4pi]), and a whole array is computed in one loop the compiler can vectorise.
// Arguments outside
// [-kFastSinCosLimit, kFastSinCosLimit] (and NaN) fall back to std::sin/std::cos.
#include <bit>
#include <cmath>
#include <cstdint>

namespace kinetic::detail {

inline constexpr double kFastSinCosLimit = 4.0 * 3.141592653589793;

namespace sincos_constants {
// pi/2 split into 33-bit pieces (products with the small quadrant number are exact) and tails.
inline constexpr double kTwoOverPi = 6.36619772367581382433e-01;
inline constexpr double kPio2_1 = 1.57079632673412561417e+00;
inline constexpr double kPio2_2 = 6.07710050630396597660e-11;
inline constexpr double kPio2_2t = 2.02226624879595063154e-21;
inline constexpr double kRoundingShift = 6755399441055744.0;  // 1.5 * 2^52: adds round to integer

inline constexpr double kS1 = -1.66666666666666324348e-01, kS2 = 8.33333333332248946124e-03,
                        kS3 = -1.98412698298579493134e-04, kS4 = 2.75573137070700676789e-06,
                        kS5 = -2.50507602534068634195e-08, kS6 = 1.58969099521155010221e-10;
inline constexpr double kC1 = 4.16666666666666019037e-02, kC2 = -1.38888888888741095749e-03,
                        kC3 = 2.48015872894767294178e-05, kC4 = -2.75573143513906633035e-07,
                        kC5 = 2.08757232129817482790e-09, kC6 = -1.13596475577881948265e-11;
}  // namespace sincos_constants

// sin and cos of x for |x| <= kFastSinCosLimit (garbage, but no trap, elsewhere). Branch-free.
[[gnu::always_inline]] inline void fast_sincos_in_range(double x, double& sine, double& cosine) {
  using namespace sincos_constants;
  // Quadrant n = round(x * 2/pi); its low bits sit in the mantissa of the shifted sum.
  const double shifted = x * kTwoOverPi + kRoundingShift;
  const double n = shifted - kRoundingShift;
  const std::uint64_t quadrant = std::bit_cast<std::uint64_t>(shifted);

  // r = x - n*pi/2 as hi + lo. x - n*kPio2_1 is exact (33-bit piece, |n| <= 8); the subtraction of
  // n*kPio2_2 keeps its rounding error (TwoSum), and kPio2_2t carries pi/2 to ~119 bits.
  const double t = x - n * kPio2_1;
  const double w = n * kPio2_2;
  const double hi = t - w;
  const double back = hi - t;
  const double lo = ((t - (hi - back)) + (-w - back)) - n * kPio2_2t;

  const double z = hi * hi;
  // fdlibm __kernel_sin(hi, lo, 1)
  const double v = z * hi;
  const double rs = kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * kS6)));
  const double s = hi - ((z * (0.5 * lo - v * rs) - lo) - v * kS1);
  // fdlibm __kernel_cos(hi, lo)
  const double zz = z * z;
  const double rc = z * (kC1 + z * (kC2 + z * kC3)) + zz * zz * (kC4 + z * (kC5 + z * kC6));
  const double hz = 0.5 * z;
  const double one_minus = 1.0 - hz;
  const double c = one_minus + (((1.0 - one_minus) - hz) + (z * rc - hi * lo));

  // Quadrant q: (sin, cos) = (s, c), (c, -s), (-s, -c), (-c, s).
  const bool swap = (quadrant & 1u) != 0;
  const std::uint64_t sin_sign = (quadrant & 2u) << 62;
  const std::uint64_t cos_sign = ((quadrant + 1u) & 2u) << 62;
  const double sin_abs = swap ? c : s;
  const double cos_abs = swap ? s : c;
  sine = std::bit_cast<double>(std::bit_cast<std::uint64_t>(sin_abs) ^ sin_sign);
  cosine = std::bit_cast<double>(std::bit_cast<std::uint64_t>(cos_abs) ^ cos_sign);
}

// sin and cos of any x (NaN in, NaN out).
inline void fast_sincos(double x, double& sine, double& cosine) {
  if (std::fabs(x) <= kFastSinCosLimit) {
    fast_sincos_in_range(x, sine, cosine);
  } else {
    sine = std::sin(x);
    cosine = std::cos(x);
  }
}

// sines[i], cosines[i] of angles[i] for i < count: one branch-free pass, then std for outliers.
[[gnu::always_inline]] inline void fast_sincos_array(const double* angles, double* sines,
                                                     double* cosines, int count) {
  for (int i = 0; i < count; ++i) fast_sincos_in_range(angles[i], sines[i], cosines[i]);
  // One vectorisable test instead of a branch per angle: |x| as a signed integer orders like the
  // double, and NaN (exponent all ones, mantissa non-zero) lies above every finite limit.
  const std::int64_t limit_bits = std::bit_cast<std::int64_t>(kFastSinCosLimit);
  std::int64_t outliers = 0;
  for (int i = 0; i < count; ++i)
    outliers |= static_cast<std::int64_t>(
        (std::bit_cast<std::int64_t>(angles[i]) & 0x7fffffffffffffffLL) > limit_bits);
  if (outliers == 0) [[likely]]
    return;
  for (int i = 0; i < count; ++i) {
    if (!(std::fabs(angles[i]) <= kFastSinCosLimit)) {
      sines[i] = std::sin(angles[i]);
      cosines[i] = std::cos(angles[i]);
    }
  }
}

}  // namespace kinetic::detail
