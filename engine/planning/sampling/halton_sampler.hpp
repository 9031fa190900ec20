#pragma once
// Samples of a joint box from the Halton sequence (one prime base per joint), shifted by a random
// offset per joint (Cranley-Patterson rotation: a seed gives its own sequence, as reproducible as
// the uniform one). Successive samples fill the box evenly, where independent uniform samples
// leave gaps and clumps; VAMP's RRT-Connect samples so too. Not thread-safe: one per search.
// Each joint keeps the sample index's digits in its base and, alongside, the integer those digits
// make read backwards: the radical inverse is that integer over base^digits, one correctly rounded
// division. Counting up changes a digit or two on average, and the mirrored integer by as much,
// so a sample costs neither an integer division (dividing the index down digit by digit was 5% of
// a narrow bookshelf problem's planning, where most samples are blocked) nor a sum over every
// digit (the digits' weighted sum, a chain of dependent multiply-adds, was 4% of the search).
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
  // One joint's index in its base.
  struct Counter {
    std::uint32_t base = 2;
    // The index's digits, least significant first (no leading zero), and base^i per position.
    std::vector<std::uint32_t> digits;
    std::vector<std::uint64_t> powers{1};
    // The digits read most significant last: sum of digits[i] * base^(size - 1 - i).
    std::uint64_t mirrored = 0;
    void count_up();
    // mirrored / base^size: the index's radical inverse, in [0, 1).
    double radical_inverse() const;
  };
  std::vector<double> offsets_;
  std::vector<Counter> counters_;
};

}  // namespace kinetic
