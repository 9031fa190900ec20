#pragma once
// The tip pose of a short chain whose joints all turn about an axis of their (physical) frame:
// the FK hot path (KinematicChain::fk, fk_batch). Nearly every arm qualifies (Panda, UR, iiwa,
// ...); other chains keep the general per-segment loop.
//
// Why a separate kernel: the general loop keeps its running frame in memory and branches on each
// segment's kind at run time. Here the joint count is a template parameter (≤ 8), so the loop is
// fully unrolled, the frame lives in registers, and the only per-joint branch (which physical axis
// turns) is a fixed pattern the predictor learns. The last fixed transforms (flange, hand, TCP)
// are folded in at construction: a rotation about the last joint's axis becomes an angle offset
// of that joint, and a remaining signed axis permutation becomes column moves, so the tip costs a
// translation and a copy.
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic::detail {

inline constexpr int kTipKernelMaxJoints = 8;

// One aligned revolute joint: p += R t, then R turns about physical axis `axis` by
// multiplier * q[slot] + offset (the joint's axis sign is already folded into both).
struct TipKernelJoint {
  double translation[3] = {0, 0, 0};
  double multiplier = 1.0, offset = 0.0;
  int slot = 0;
  std::uint8_t axis = 2;
  std::uint8_t translation_mask = 0;  // bit r: translation[r] != 0
};

struct TipKernel {
  int count = 0;
  TipKernelJoint joints[kTipKernelMaxJoints];
  double tip_translation[3] = {0, 0, 0};  // after the last joint, in its (folded) frame
  // Tip rotation: column c = tip_sign[c] * column tip_source[c] when `tip_permuted`, else the
  // product with tip_rotation (column-major).
  bool tip_permuted = true;
  std::uint8_t tip_source[3] = {0, 1, 2};
  double tip_sign[3] = {1, 1, 1};
  double tip_rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  void (*run)(const TipKernel&, const double* q, double* pose) = nullptr;

  // Writes all 16 entries of the 4×4 column-major pose (Eigen::Isometry3d's storage).
  void operator()(const double* q, double* pose) const { run(*this, q, pose); }
};

// The input of make_tip_kernel: one entry per moving joint, in the running frame's physical
// columns (see KinematicChain), plus the fixed transform from the last joint's frame to the tip.
struct TipKernelInput {
  double translation[3];
  int axis;           // physical axis 0, 1, 2
  double axis_sign;   // the joint turns by axis_sign * (multiplier * q[slot] + offset)
  double multiplier, offset;
  int slot;
};

// nullopt when the chain does not fit (no joints, more than kTipKernelMaxJoints). The kernel is
// compiled twice, portable (SSE2) and AVX2 (bit-identical results); the AVX2 one is used where the
// CPU has it unless `portable_only` (tests run both).
std::optional<TipKernel> make_tip_kernel(const std::vector<TipKernelInput>& joints, const Pose& tip,
                                         bool portable_only = false);

}  // namespace kinetic::detail
