#pragma once
// atan2 for the analytic IK solvers.
//
// Why hand-written: one UR or OPW solve takes up to 19 atan2s, and glibc's correctly-rounded
// atan2 (~25 ns each) was half of the solve. Here the octant reduction needs a single division:
// with a = min(|x|, |y|) and b = max(|x|, |y|), atan(a/b) is taken directly when a/b <= 7/16 and
// as pi/4 + atan((a - b) / (a + b)) otherwise, so the argument of fdlibm's minimax atan kernel
// always lies in [-7/16, 7/16] and both cases share one branch-free formula. The result is within
// 2 ulp of std::atan2 (tests: random, structured and edge-case arguments).
// Zeros, infinities and NaN fall back to std::atan2, so the IEEE special cases are unchanged.
#include <cmath>

namespace kinetic::detail {

namespace atan_constants {
inline constexpr double kPio4Hi = 7.85398163397448278999e-01;
inline constexpr double kPio4Lo = 3.06161699786838301793e-17;
inline constexpr double kPio2Hi = 1.57079632679489655800e+00;
inline constexpr double kPio2Lo = 6.12323399573676603587e-17;
inline constexpr double kPiHi = 3.14159265358979311600e+00;
inline constexpr double kPiLo = 1.22464679914735317720e-16;
// fdlibm's atan kernel on [-7/16, 7/16]: atan(x) = x - x * (s_odd + s_even).
inline constexpr double kT0 = 3.33333333333329318027e-01, kT1 = -1.99999999998764832476e-01,
                        kT2 = 1.42857142725034663711e-01, kT3 = -1.11111104054623557880e-01,
                        kT4 = 9.09088713343650656196e-02, kT5 = -7.69187620504482999495e-02,
                        kT6 = 6.66107313738753120669e-02, kT7 = -5.83357013379057348645e-02,
                        kT8 = 4.97687799461593236017e-02, kT9 = -3.65315727442169155270e-02,
                        kT10 = 1.62858201153657823623e-02;
}  // namespace atan_constants

inline double fast_atan2(double y, double x) {
  using namespace atan_constants;
  const double ax = std::fabs(x), ay = std::fabs(y);
  const bool steep = ay > ax;
  const double small = steep ? ax : ay, large = steep ? ay : ax;
  // Zeros, infinities and NaN (every comparison false) keep the library's exact conventions.
  if (!(small > 0.0 && large < HUGE_VAL)) [[unlikely]]
    return std::atan2(y, x);
  const bool shifted = small > 0.4375 * large;
  const double t = shifted ? (small - large) / (small + large) : small / large;
  const double hi = shifted ? kPio4Hi : 0.0, lo = shifted ? kPio4Lo : 0.0;
  const double z = t * t, w = z * z;
  const double s_odd = z * (kT0 + w * (kT2 + w * (kT4 + w * (kT6 + w * (kT8 + w * kT10)))));
  const double s_even = w * (kT1 + w * (kT3 + w * (kT5 + w * (kT7 + w * kT9))));
  double angle = hi - ((t * (s_odd + s_even) - lo) - t);  // atan(small / large), in [0, pi/4]
  if (steep) angle = (kPio2Hi - angle) + kPio2Lo;
  if (std::signbit(x)) angle = (kPiHi - angle) + kPiLo;
  return std::copysign(angle, y);
}

}  // namespace kinetic::detail
