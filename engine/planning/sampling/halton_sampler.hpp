#pragma once
// Samples of a joint box from the Halton sequence (one prime base per joint), shifted by a random
// offset per joint (Cranley-Patterson rotation: a seed gives its own sequence, as reproducible as
// the uniform one). Successive samples fill the box evenly, where independent uniform samples
// leave gaps and clumps; VAMP's RRT-Connect samples so too. Not thread-safe: one per search.
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
  std::uint64_t index_ = 0;
  std::vector<double> offsets_;
};

}  // namespace kinetic
