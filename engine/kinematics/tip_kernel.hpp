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
  int axis;          // physical axis 0, 1, 2
  double axis_sign;  // the joint turns by axis_sign * (multiplier * q[slot] + offset)
  double multiplier, offset;
  int slot;
};

// nullopt when the chain does not fit (no joints, more than kTipKernelMaxJoints). The kernel is
// compiled twice, portable (SSE2) and AVX2 (bit-identical results); the AVX2 one is used where the
// CPU has it unless `portable_only` (tests run both).
std::optional<TipKernel> make_tip_kernel(const std::vector<TipKernelInput>& joints, const Pose& tip,
                                         bool portable_only = false);

// Every link pose of a kinematic tree (ForwardKinematics::compute), built on the same ideas: the
// running frame of each node is kept "physical" (true rotation = physical * logical, logical a
// signed axis permutation), so origin rotations that are permutations cost nothing and aligned
// joints turn two columns; fixed joints cost one translation. Columns are whole vectors (AVX2
// where the CPU has it, bit-identical to the portable build), and each link's pose is written
// with four column stores. Nodes come parents first; a node's frame is its child link's.
struct TreeKernelNode {
  enum class Motion : std::uint8_t { Fixed, RotateX, RotateY, RotateZ, Slide, RotateGeneral };
  int parent_link = -1;  // -1: the root (identity)
  int child_link = 0;
  int value = -1;                     // index into the values: multiplier * q[variable] + offset
  double translation[3] = {0, 0, 0};  // physical frame of the parent
  std::uint8_t translation_mask = 0;
  bool has_pre = false;   // origin rotation that is no permutation (physical = physical * pre)
  bool branches = false;  // a node other than the next one starts from this frame
  Motion motion = Motion::Fixed;
  double pre[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};  // column-major
  // A pre that turns about one physical axis (the Panda hand's -45 degrees): that axis (0..2) and
  // the turn's cosine and sine, so two columns turn instead of three being multiplied; -1: none.
  int pre_turn_axis = -1;
  double pre_cosine = 1.0, pre_sine = 0.0;
  double direction[3] = {0, 0, 1};  // Slide / RotateGeneral: unit axis, physical
  // Output: column c of the true rotation = out_sign[c] * physical column out_source[c].
  std::uint8_t out_source[3] = {0, 1, 2};
  double out_sign[3] = {1, 1, 1};
  bool out_identity = true;  // the true rotation is the physical one (the columns as they are)
};

struct TreeKernelValue {
  int variable = 0;
  double multiplier = 1.0, offset = 0.0;
};

struct TreeKernel {
  std::vector<TreeKernelNode> nodes;
  std::vector<TreeKernelValue> values;  // one per moving node (angle sign folded in)
  int link_count = 0;
  int root_link = 0;
  std::vector<int> identity_links;  // the root and any link no joint reaches
  void (*run)(const TreeKernel&, const double* q, double* poses) = nullptr;

  // poses: link_count 4×4 column-major frames (Pose storage, 16 doubles each), all entries written.
  void operator()(const double* q, double* poses) const { run(*this, q, poses); }
};

// One joint of the tree: child = parent * origin * motion(multiplier * q[variable] + offset).
struct TreeKernelJoint {
  int parent_link = -1, child_link = 0;
  Pose origin = Pose::Identity();
  Vector3 axis = Vector3::UnitZ();
  enum class Kind { Fixed, Revolute, Prismatic } kind = Kind::Fixed;
  int variable = -1;
  double multiplier = 1.0, offset = 0.0;
};

// joints: parents before children. portable_only as for make_tip_kernel.
TreeKernel make_tree_kernel(const std::vector<TreeKernelJoint>& joints, int link_count,
                            int root_link, bool portable_only = false);

}  // namespace kinetic::detail
