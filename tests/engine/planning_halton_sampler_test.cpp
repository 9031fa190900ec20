// HaltonSampler (engine/planning/sampling/halton_sampler.hpp): samples inside the joint box, the
// same for the same seed and another for another seed, and spread evenly: every tenth of each
// joint's range gets its share of the first thousand samples within a few, where independent
// uniform samples miss it by two or three times as many.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <random>
#include <vector>

#include "engine/planning/sampling/halton_sampler.hpp"

using namespace kinetic;

namespace {

JointVector halton_box_lower() {
  JointVector lower(7);
  lower << -2.9, -1.8, -2.9, -3.1, -2.9, -0.1, -2.9;
  return lower;
}

JointVector halton_box_upper() {
  JointVector upper(7);
  upper << 2.9, 1.8, 2.9, -0.1, 2.9, 3.8, 2.9;
  return upper;
}

std::vector<JointVector> halton_samples(std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  HaltonSampler sampler(7, rng);
  std::vector<JointVector> out(static_cast<std::size_t>(count));
  for (JointVector& q : out) sampler.next(halton_box_lower(), halton_box_upper(), q);
  return out;
}

}  // namespace

TEST(HaltonSampler, StaysInTheBoxAndIsReproducible) {
  const std::vector<JointVector> a = halton_samples(7, 2000), b = halton_samples(7, 2000),
                                 c = halton_samples(8, 2000);
  for (const JointVector& q : a) {
    ASSERT_EQ(q.size(), 7);
    EXPECT_TRUE((q.array() >= halton_box_lower().array()).all() &&
                (q.array() < halton_box_upper().array()).all())
        << q.transpose();
  }
  EXPECT_EQ(a, b);
  int same = 0;
  for (std::size_t i = 0; i < a.size(); ++i) same += a[i] == c[i];
  EXPECT_EQ(same, 0);  // another seed, another sequence
}

TEST(HaltonSampler, FillsEveryTenthOfEachJointEvenly) {
  constexpr int kCount = 1000, kBins = 10;
  const std::vector<JointVector> samples = halton_samples(3, kCount);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int halton_worst = 0, uniform_worst = 0;
  for (int j = 0; j < 7; ++j) {
    std::vector<int> halton_bins(kBins, 0), uniform_bins(kBins, 0);
    const double lo = halton_box_lower()[j], hi = halton_box_upper()[j];
    for (const JointVector& q : samples)
      ++halton_bins[static_cast<std::size_t>(
          std::min(kBins - 1, static_cast<int>((q[j] - lo) / (hi - lo) * kBins)))];
    for (int i = 0; i < kCount; ++i)
      ++uniform_bins[static_cast<std::size_t>(
          std::min(kBins - 1, static_cast<int>(unit(rng) * kBins)))];
    for (int k = 0; k < kBins; ++k) {
      halton_worst = std::max(halton_worst,
                              std::abs(halton_bins[static_cast<std::size_t>(k)] - kCount / kBins));
      uniform_worst = std::max(
          uniform_worst, std::abs(uniform_bins[static_cast<std::size_t>(k)] - kCount / kBins));
    }
  }
  std::cout << "largest miss of a tenth's share (100 samples): Halton " << halton_worst
            << ", uniform " << uniform_worst << "\n";
  EXPECT_LE(halton_worst, 6);                  // the bases up to 17 do not divide a tenth evenly
  EXPECT_GE(uniform_worst, 2 * halton_worst);  // what the sequence is for
}

// The sampler counts up in each joint's base instead of dividing the index down: its samples are
// the radical inverses of 1, 2, 3, ... exactly (the index's digits mirrored behind the point,
// rounded once to a double, past several carries in every base), shifted by the offsets drawn
// from the seed as the constructor draws them.
TEST(HaltonSampler, IsTheRadicalInverseOfEachIndexExactly) {
  constexpr std::uint64_t kBases[7] = {2, 3, 5, 7, 11, 13, 17};
  std::mt19937_64 rng(11), same(11);
  HaltonSampler sampler(7, rng);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  double offsets[7];
  for (double& offset : offsets) offset = unit(same);
  const JointVector lower = JointVector::Zero(7), upper = JointVector::Ones(7);
  JointVector q;
  for (std::uint64_t index = 1; index <= 20000; ++index) {
    sampler.next(lower, upper, q);
    for (int j = 0; j < 7; ++j) {
      // The digits of index, least significant first, read as a number the other way round.
      std::uint64_t mirrored = 0, denominator = 1;
      for (std::uint64_t rest = index; rest > 0; rest /= kBases[j]) {
        mirrored = mirrored * kBases[j] + rest % kBases[j];
        denominator *= kBases[j];
      }
      double expected = static_cast<double>(mirrored) / static_cast<double>(denominator);
      expected += offsets[j];
      if (expected >= 1.0) expected -= 1.0;
      ASSERT_EQ(q[j], expected) << "index " << index << ", joint " << j;
    }
  }
}
