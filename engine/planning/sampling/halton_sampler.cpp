#include "engine/planning/sampling/halton_sampler.hpp"

#include <algorithm>
#include <array>

namespace kinetic {
namespace {
// Each joint's base.
constexpr std::array<std::uint32_t, HaltonSampler::kMaxJoints> kPrimes = {
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};
}  // namespace

void HaltonSampler::Counter::count_up() {
  const std::size_t size = digits.size();
  for (std::size_t i = 0; i < size; ++i) {
    // Digit i weighs base^(size - 1 - i) in the mirrored integer.
    const std::uint64_t weight = powers[size - 1 - i];
    if (++digits[i] < base) {
      mirrored += weight;
      return;
    }
    digits[i] = 0;
    mirrored -= static_cast<std::uint64_t>(base - 1) * weight;
  }
  // Every digit rolled over: the index is base^size, one more digit (a 1, all others 0). Its
  // mirror is 1. (base^size stays far below 2^64: 53^11 > 9e18 samples are never drawn.)
  digits.push_back(1);
  powers.push_back(powers.back() * base);
  mirrored = 1;
}

double HaltonSampler::Counter::radical_inverse() const {
  return static_cast<double>(mirrored) / static_cast<double>(powers.back());
}

HaltonSampler::HaltonSampler(int dof, std::mt19937_64& rng)
    : offsets_(static_cast<std::size_t>(std::clamp(dof, 0, kMaxJoints))),
      counters_(offsets_.size()) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (double& offset : offsets_) offset = unit(rng);
  for (std::size_t k = 0; k < counters_.size(); ++k) counters_[k].base = kPrimes[k];
}

void HaltonSampler::next(const JointVector& lower, const JointVector& upper, JointVector& out) {
  // Every joint's index moves on (from 0, the origin in every base), sampled or not.
  for (Counter& counter : counters_) counter.count_up();
  out.resize(lower.size());
  for (Eigen::Index j = 0; j < lower.size(); ++j) {
    const std::size_t k = static_cast<std::size_t>(j);
    double u = counters_.at(k).radical_inverse() + offsets_.at(k);
    if (u >= 1.0) u -= 1.0;
    out[j] = lower[j] + (upper[j] - lower[j]) * u;
  }
}

}  // namespace kinetic
