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
#include <array>
#include <cstdint>
#include <random>

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

  // Digits an index may grow to in any base (2^48 samples: never reached; the sequence would
  // start over).
  static constexpr int kMaxDigits = 48;

 private:
  // One joint's index in its base, held in the sampler itself: with its digits and powers in
  // vectors of their own a sample cost 65 ns on a warm cache and more in a search, whose
  // collision checks evict them between samples (5% of a bookshelf search).
  struct Counter {
    const std::uint64_t* powers = nullptr;  // base^i for i = 0 ... kMaxDigits
    std::uint32_t base = 2;
    std::uint32_t size = 0;  // digits in use
    // The least significant digit may step up without a carry while it stays below this: the
    // base once the index has a digit, 0 before (the first count sets up the digits).
    std::uint32_t fast_limit = 0;
    // The digits read most significant last: sum of digits[i] * base^(size - 1 - i).
    std::uint64_t mirrored = 0;
    std::uint64_t top = 0;                          // base^(size - 1): the least digit's weight
    double span = 1.0;                              // base^size
    std::array<std::uint8_t, kMaxDigits> digits{};  // least significant first (no leading zero)
    // Inline for the common step, the least digit's alone (all but one count in `base`); a
    // sample's seven out-of-line counts and their loops were 4% of a search's instructions.
    void count_up() {
      if (digits[0] + 1U < fast_limit) {
        ++digits[0];
        mirrored += top;
        return;
      }
      count_up_carrying();
    }
    void count_up_carrying();
    // mirrored / base^size: the index's radical inverse, in [0, 1). The mirrored integer stays
    // below 2^63 (kPowers saturates there), so the signed conversion is exact and one instruction.
    double radical_inverse() const {
      return static_cast<double>(static_cast<std::int64_t>(mirrored)) / span;
    }
  };
  int dof_ = 0;
  std::array<double, kMaxJoints> offsets_{};
  std::array<Counter, kMaxJoints> counters_{};
};

}  // namespace kinetic
