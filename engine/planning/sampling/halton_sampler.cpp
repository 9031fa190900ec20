#include "engine/planning/sampling/halton_sampler.hpp"

#include <algorithm>
#include <array>

namespace kinetic {
namespace {
// Each joint's base.
constexpr std::array<std::uint32_t, HaltonSampler::kMaxJoints> kPrimes = {
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};

// kPowers[k][i] = kPrimes[k]^i, saturated where it would pass 2^63 (digit counts never reached:
// the mirrored integer, below the power, then converts as a signed one).
constexpr std::uint64_t kSaturated = std::uint64_t{1} << 63;
constexpr auto kPowers = [] {
  std::array<std::array<std::uint64_t, HaltonSampler::kMaxDigits + 1>, HaltonSampler::kMaxJoints>
      table{};
  for (std::size_t k = 0; k < table.size(); ++k) {
    std::uint64_t power = 1;
    for (std::uint64_t& entry : table[k]) {
      entry = power;
      power = power > kSaturated / kPrimes[k] ? kSaturated : power * kPrimes[k];
    }
  }
  return table;
}();
}  // namespace

void HaltonSampler::Counter::count_up_carrying() {
  for (std::uint32_t i = 0; i < size; ++i) {
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
  // mirror is 1. Past the digits kept (or 2^63) the sequence starts over from index 0.
  if (size + 1 > static_cast<std::uint32_t>(kMaxDigits) || powers[size + 1] == kSaturated) {
    size = 0;
    mirrored = 0;
    span = 1.0;
    fast_limit = 0;
    return;
  }
  digits[size++] = 1;
  span = static_cast<double>(powers[size]);
  mirrored = 1;
  top = powers[size - 1];
  fast_limit = base;
}

HaltonSampler::HaltonSampler(int dof, std::mt19937_64& rng) : dof_(std::clamp(dof, 0, kMaxJoints)) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int k = 0; k < dof_; ++k) offsets_[static_cast<std::size_t>(k)] = unit(rng);
  for (int k = 0; k < dof_; ++k) {
    Counter& counter = counters_[static_cast<std::size_t>(k)];
    counter.base = kPrimes[static_cast<std::size_t>(k)];
    counter.powers = kPowers[static_cast<std::size_t>(k)].data();
  }
}

void HaltonSampler::next(const JointVector& lower, const JointVector& upper, JointVector& out) {
  out.resize(lower.size());
  const Eigen::Index n = std::min<Eigen::Index>(lower.size(), dof_);
  const double *low = lower.data(), *high = upper.data();
  double* sample = out.data();
  for (Eigen::Index j = 0; j < n; ++j) {
    Counter& counter = counters_[static_cast<std::size_t>(j)];
    counter.count_up();
    double u = counter.radical_inverse() + offsets_[static_cast<std::size_t>(j)];
    if (u >= 1.0) u -= 1.0;
    sample[j] = low[j] + (high[j] - low[j]) * u;
  }
  // Every joint's index moves on (from 0, the origin in every base), sampled or not.
  for (int k = static_cast<int>(n); k < dof_; ++k)
    counters_[static_cast<std::size_t>(k)].count_up();
}

}  // namespace kinetic
