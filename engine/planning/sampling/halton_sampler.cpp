#include "engine/planning/sampling/halton_sampler.hpp"

#include <algorithm>
#include <array>

namespace kinetic {
namespace {
// Each joint's base.
constexpr std::array<std::uint64_t, HaltonSampler::kMaxJoints> kPrimes = {
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};

// Adds one to the number whose digits in `base` these are (least significant first).
void count_up(std::vector<std::uint32_t>& digits, std::uint32_t base) {
  for (std::uint32_t& digit : digits) {
    if (++digit < base) return;
    digit = 0;
  }
  digits.push_back(1);
}

// The radical inverse of the number with these digits in `base`: the digits mirrored behind the
// point, in [0, 1). The same sums in the same order as from the number itself.
double radical_inverse(const std::vector<std::uint32_t>& digits, std::uint32_t base) {
  const double inverse_base = 1.0 / static_cast<double>(base);
  double scale = inverse_base, value = 0.0;
  for (const std::uint32_t digit : digits) {
    value += scale * static_cast<double>(digit);
    scale *= inverse_base;
  }
  return value;
}
}  // namespace

HaltonSampler::HaltonSampler(int dof, std::mt19937_64& rng)
    : offsets_(static_cast<std::size_t>(std::clamp(dof, 0, kMaxJoints))),
      digits_(offsets_.size()) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (double& offset : offsets_) offset = unit(rng);
}

void HaltonSampler::next(const JointVector& lower, const JointVector& upper, JointVector& out) {
  // Every joint's index moves on (from 0, the origin in every base), sampled or not.
  for (std::size_t k = 0; k < digits_.size(); ++k)
    count_up(digits_[k], static_cast<std::uint32_t>(kPrimes[k]));
  out.resize(lower.size());
  for (Eigen::Index j = 0; j < lower.size(); ++j) {
    const std::size_t k = static_cast<std::size_t>(j);
    const auto base = static_cast<std::uint32_t>(kPrimes.at(k));
    double u = radical_inverse(digits_.at(k), base) + offsets_.at(k);
    if (u >= 1.0) u -= 1.0;
    out[j] = lower[j] + (upper[j] - lower[j]) * u;
  }
}

}  // namespace kinetic
