// The analytic solvers' hand-written atan2 against std::atan2: accuracy over random and
// structured arguments (every octant, the octant borders, the 7/16 reduction border, tiny and
// huge magnitudes) and the IEEE special cases it hands back to the library.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "engine/kinematics/fast_atan2.hpp"

namespace kinetic {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kTolerance = 2.0;  // units in the last place of std::atan2's result

// |fast - std| in units of the last place of the std result.
double error_of(double y, double x) {
  const double expected = std::atan2(y, x);
  const double ulp = std::nextafter(std::fabs(expected), HUGE_VAL) - std::fabs(expected);
  return std::fabs(detail::fast_atan2(y, x) - expected) / ulp;
}

TEST(FastAtan2, MatchesStdOnRandomArguments) {
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> coordinate(-3.0, 3.0);
  double worst = 0.0;
  for (int i = 0; i < 2'000'000; ++i) {
    const double y = coordinate(rng), x = coordinate(rng);
    worst = std::max(worst, error_of(y, x));
  }
  EXPECT_LE(worst, kTolerance);
}

TEST(FastAtan2, MatchesStdAroundTheCircleAndReductionBorders) {
  double worst = 0.0;
  for (int i = 0; i <= 1'000'000; ++i) {
    const double angle = -kPi + 2.0 * kPi * i / 1'000'000;
    worst = std::max(worst, error_of(std::sin(angle), std::cos(angle)));
  }
  // Ratios just below and above the kernel's 7/16 switch and the octant border 1, both ways.
  const std::vector<double> ratios = {0.4375,
                                      std::nextafter(0.4375, 0.0),
                                      std::nextafter(0.4375, 1.0),
                                      1.0,
                                      std::nextafter(1.0, 0.0),
                                      std::nextafter(1.0, 2.0),
                                      1e-300,
                                      1e-20,
                                      1e20};
  for (const double ratio : ratios)
    for (const double sx : {1.0, -1.0})
      for (const double sy : {1.0, -1.0}) {
        worst = std::max(worst, error_of(sy * ratio, sx * 1.0));
        worst = std::max(worst, error_of(sy * 1.0, sx * ratio));
      }
  EXPECT_LE(worst, kTolerance);
}

TEST(FastAtan2, ScaleDoesNotMatter) {
  for (const double scale : {1e-300, 1e-150, 1e-8, 1.0, 1e8, 1e150, 1e300}) {
    EXPECT_LE(error_of(0.3 * scale, -0.7 * scale), kTolerance) << scale;
    EXPECT_LE(error_of(-0.9 * scale, 0.2 * scale), kTolerance) << scale;
  }
}

TEST(FastAtan2, SpecialCasesFollowTheLibrary) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double specials[] = {0.0, -0.0, 1.0, -1.0, inf, -inf};
  for (const double y : specials)
    for (const double x : specials) {
      if (std::isfinite(x) && std::isfinite(y) && x != 0.0 && y != 0.0) {
        EXPECT_LE(error_of(y, x), kTolerance);
        continue;
      }
      const double expected = std::atan2(y, x);
      const double got = detail::fast_atan2(y, x);
      EXPECT_EQ(got, expected) << "atan2(" << y << ", " << x << ")";
      EXPECT_EQ(std::signbit(got), std::signbit(expected)) << "atan2(" << y << ", " << x << ")";
    }
  EXPECT_TRUE(std::isnan(detail::fast_atan2(nan, 1.0)));
  EXPECT_TRUE(std::isnan(detail::fast_atan2(1.0, nan)));
}

}  // namespace
}  // namespace kinetic
