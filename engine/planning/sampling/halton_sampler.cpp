#include "engine/planning/sampling/halton_sampler.hpp"

#include <algorithm>
#include <array>

namespace kinetic {
namespace {
// Each joint's base.
constexpr std::array<std::uint64_t, HaltonSampler::kMaxJoints> kPrimes = {
    2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53};

// The radical inverse of `index` in `base`: its digits mirrored behind the point, in [0, 1).
double radical_inverse(std::uint64_t index, std::uint64_t base) {
  const double inverse_base = 1.0 / static_cast<double>(base);
  double scale = inverse_base, value = 0.0;
  for (; index > 0; index /= base, scale *= inverse_base)
    value += scale * static_cast<double>(index % base);
  return value;
}
}  // namespace

HaltonSampler::HaltonSampler(int dof, std::mt19937_64& rng)
    : offsets_(static_cast<std::size_t>(std::clamp(dof, 0, kMaxJoints))) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (double& offset : offsets_) offset = unit(rng);
}

void HaltonSampler::next(const JointVector& lower, const JointVector& upper, JointVector& out) {
  ++index_;  // index 0 is the origin in every base
  out.resize(lower.size());
  for (Eigen::Index j = 0; j < lower.size(); ++j) {
    const std::size_t k = static_cast<std::size_t>(j);
    double u = radical_inverse(index_, kPrimes.at(k)) + offsets_.at(k);
    if (u >= 1.0) u -= 1.0;
    out[j] = lower[j] + (upper[j] - lower[j]) * u;
  }
}

}  // namespace kinetic
