#pragma once
// Samples of a joint box from the Halton sequence (one prime base per joint), shifted by a random
// offset per joint (Cranley-Patterson rotation: a seed gives its own sequence, as reproducible as
// the uniform one). Successive samples fill the box evenly, where independent uniform samples
// leave gaps and clumps; VAMP's RRT-Connect samples so too. Not thread-safe: one per search.
// Each joint keeps the sample index's digits in its base and counts up in them, so a sample costs
// no integer division: dividing the index down digit by digit, 64-bit divisions by a runtime
// base, was 5% of a narrow bookshelf problem's planning, where most samples are blocked.
#include <cstdint>
#include <random>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

class HaltonSampler {
 public:
  // Joints beyond this many would share a base: searches over more joints sample uniformly.
  static constexpr int kMaxJoints = 16;
  // `dof` (<= kMaxJoints) joints; the offsets are drawn from `rng`.
  HaltonSampler(int dof, std::mt19937_64& rng);
  // The next sample, in the box [lower, upper] (dof values each).
  void next(const JointVector& lower, const JointVector& upper, JointVector& out);

 private:
  std::vector<double> offsets_;
  // Per joint, the index's digits in the joint's base, least significant first (no leading zero).
  std::vector<std::vector<std::uint32_t>> digits_;
};

}  // namespace kinetic
