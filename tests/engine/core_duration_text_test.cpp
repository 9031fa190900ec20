// duration_text: plan and run times for people to read, with the digits that matter.
#include <gtest/gtest.h>

#include <limits>

#include "engine/core/duration_text.hpp"

namespace kinetic {
namespace {

TEST(DurationText, KeepsTheDigitsThatMatterFromMicrosecondsToSeconds) {
  EXPECT_EQ(duration_text(0.043), "0.043 ms");  // a fast plan (it read "0.0 ms")
  EXPECT_EQ(duration_text(0.5), "0.5 ms");
  EXPECT_EQ(duration_text(0.0), "0.000 ms");
  EXPECT_EQ(duration_text(0.00004), "0.000 ms");  // no exponent
  EXPECT_EQ(duration_text(12.5), "12.5 ms");
  EXPECT_EQ(duration_text(250.4), "250 ms");
  EXPECT_EQ(duration_text(1250.0), "1.25 s");
}

TEST(DurationText, BandsDoNotRoundIntoTheNextOne) {
  EXPECT_EQ(duration_text(0.9996), "1.0 ms");
  EXPECT_EQ(duration_text(0.994), "0.99 ms");
  EXPECT_EQ(duration_text(99.96), "100 ms");
  EXPECT_EQ(duration_text(999.6), "1.00 s");
}

TEST(DurationText, NegativeAndNonFiniteValuesStayReadable) {
  EXPECT_EQ(duration_text(-0.5), "0.000 ms");  // a clock that stepped back
  EXPECT_EQ(duration_text(std::numeric_limits<double>::quiet_NaN()), "? ms");
  EXPECT_EQ(duration_text(std::numeric_limits<double>::infinity()), "? ms");
}

// A limit the user set reads as they wrote it: a 0.01 ms timeout read "within 0 ms".
TEST(LimitMsText, KeepsEveryDigitGivenWithoutAnExponent) {
  EXPECT_EQ(limit_ms_text(0.01), "0.01 ms");
  EXPECT_EQ(limit_ms_text(0.0001), "0.0001 ms");
  EXPECT_EQ(limit_ms_text(2.5), "2.5 ms");
  EXPECT_EQ(limit_ms_text(50.0), "50 ms");
  EXPECT_EQ(limit_ms_text(5000.0), "5000 ms");
  EXPECT_EQ(limit_ms_text(3600000.0), "3600000 ms");  // not 3.6e+06
  EXPECT_EQ(limit_ms_text(0.0), "0 ms");
}

TEST(LimitMsText, TinyAndNonFiniteValuesStayReadable) {
  EXPECT_EQ(limit_ms_text(1e-12), "1e-12 ms");  // more decimals than anyone writes: never "0 ms"
  EXPECT_EQ(limit_ms_text(std::numeric_limits<double>::infinity()), "? ms");
}

}  // namespace
}  // namespace kinetic
