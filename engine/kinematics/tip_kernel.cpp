#include "engine/kinematics/tip_kernel.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <memory>
#include <utility>

#include "engine/kinematics/fast_sincos.hpp"
#include "engine/kinematics/joint_motion.hpp"

namespace kinetic::detail {
namespace {

// A column (x, y, z, 0) of the running frame. GCC's vector extension: one AVX register where the
// kernel is compiled for AVX2, two SSE registers otherwise; the arithmetic (no FMA) is the same
// IEEE operations either way, so both builds give bit-identical poses.
using Column = double __attribute__((vector_size(32)));

// Columns x, y turn by (c, s) in their plane: x' = c x + s y, y' = c y - s x.
[[gnu::always_inline]] inline void turn(Column& x, Column& y, double c, double s) {
  const Column x0 = x;
  x = c * x0 + s * y;
  y = c * y - s * x0;
}

// p += R t, skipping the zero components of t (most link offsets lie along one axis).
[[gnu::always_inline]] inline void translate(const Column* r, const double* t, std::uint8_t mask,
                                             Column& p) {
  if (mask & 1U) p += t[0] * r[0];
  if (mask & 2U) p += t[1] * r[1];
  if (mask & 4U) p += t[2] * r[2];
}

[[gnu::always_inline]] inline void store_column(const Column& column, double* out) {
  std::memcpy(out, &column, sizeof(double) * 3);
}

// Fully unrolled for a joint count known at compile time: the frame stays in registers and the
// axis branches follow the same pattern every call.
template <int N>
[[gnu::always_inline]] inline void tip_kernel_body(const TipKernel& kernel, const double* q,
                                                   double* pose) {
  // Padded to whole vectors so the sincos pass has no scalar remainder.
  constexpr int kPadded = (N + 3) / 4 * 4;
  double angles[kPadded] = {}, sines[kPadded], cosines[kPadded];
  for (int i = 0; i < N; ++i)
    angles[i] = kernel.joints[i].multiplier * q[kernel.joints[i].slot] + kernel.joints[i].offset;
  fast_sincos_array(angles, sines, cosines, kPadded);

  Column r[3] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}};
  Column p = {0, 0, 0, 0};
#pragma GCC unroll 8
  for (int i = 0; i < N; ++i) {
    const TipKernelJoint& joint = kernel.joints[i];
    translate(r, joint.translation, joint.translation_mask, p);
    const double c = cosines[i], s = sines[i];
    if (joint.axis == 2)
      turn(r[0], r[1], c, s);
    else if (joint.axis == 1)
      turn(r[2], r[0], c, s);
    else
      turn(r[1], r[2], c, s);
  }
  translate(r, kernel.tip_translation, 7U, p);

  if (kernel.tip_permuted) [[likely]] {
    for (int c = 0; c < 3; ++c) {
      const int source = kernel.tip_source[c];
      const Column column = kernel.tip_sign[c] * (source == 0 ? r[0] : source == 1 ? r[1] : r[2]);
      store_column(column, pose + 4 * c);
    }
  } else {
    const double* m = kernel.tip_rotation;
    for (int c = 0; c < 3; ++c)
      store_column((m[3 * c] * r[0] + m[3 * c + 1] * r[1]) + m[3 * c + 2] * r[2], pose + 4 * c);
  }
  store_column(p, pose + 12);
  pose[3] = pose[7] = pose[11] = 0.0;
  pose[15] = 1.0;
}

template <int N>
void run_tip_kernel(const TipKernel& kernel, const double* q, double* pose) {
  tip_kernel_body<N>(kernel, q, pose);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define KINETIC_TIP_KERNEL_AVX2 1
template <int N>
[[gnu::target("avx2")]] void run_tip_kernel_avx2(const TipKernel& kernel, const double* q,
                                                 double* pose) {
  tip_kernel_body<N>(kernel, q, pose);
}
#endif

using KernelFunction = void (*)(const TipKernel&, const double*, double*);

template <std::size_t... I>
constexpr auto kernel_table(std::index_sequence<I...>) {
  return std::array<KernelFunction, sizeof...(I)>{&run_tip_kernel<static_cast<int>(I) + 1>...};
}
constexpr auto kKernels = kernel_table(std::make_index_sequence<kTipKernelMaxJoints>());

#ifdef KINETIC_TIP_KERNEL_AVX2
template <std::size_t... I>
constexpr auto avx2_kernel_table(std::index_sequence<I...>) {
  return std::array<KernelFunction, sizeof...(I)>{&run_tip_kernel_avx2<static_cast<int>(I) + 1>...};
}
constexpr auto kAvx2Kernels = avx2_kernel_table(std::make_index_sequence<kTipKernelMaxJoints>());
#endif

KernelFunction kernel_for(int count, bool portable_only) {
#ifdef KINETIC_TIP_KERNEL_AVX2
  if (!portable_only && __builtin_cpu_supports("avx2")) return kAvx2Kernels[count - 1];
#endif
  return kKernels[count - 1];
}

// The 24 rotations that are signed axis permutations.
std::vector<Eigen::Matrix3d> signed_permutations() {
  std::vector<Eigen::Matrix3d> result;
  const int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& order : orders)
    for (int signs = 0; signs < 8; ++signs) {
      Eigen::Matrix3d m = Eigen::Matrix3d::Zero();
      for (int c = 0; c < 3; ++c) m(order[c], c) = (signs >> c) & 1 ? -1.0 : 1.0;
      if (m.determinant() > 0) result.push_back(m);
    }
  return result;
}

// Tip rotation = Rot(e_axis, phi) * permutation, exactly enough (1e-12) to fold phi into the last
// joint's angle; the smallest |phi| wins.
struct Folding {
  double phi = 0.0;
  Eigen::Matrix3d permutation = Eigen::Matrix3d::Identity();
};

std::optional<Folding> fold_about_axis(const Eigen::Matrix3d& tip_rotation, int axis) {
  constexpr double kExact = 1e-12;
  const int a = (axis + 1) % 3, b = (axis + 2) % 3;
  std::optional<Folding> best;
  for (const Eigen::Matrix3d& permutation : signed_permutations()) {
    const Eigen::Matrix3d about = tip_rotation * permutation.transpose();
    if (std::fabs(about(axis, axis) - 1.0) > kExact) continue;
    const double phi = std::atan2(about(b, a), about(a, a));
    const Eigen::Matrix3d rebuilt =
        Eigen::AngleAxisd(phi, Eigen::Vector3d::Unit(axis)).toRotationMatrix() * permutation;
    if ((rebuilt - tip_rotation).cwiseAbs().maxCoeff() > kExact) continue;
    if (!best || std::fabs(phi) < std::fabs(best->phi)) best = Folding{phi, permutation};
  }
  return best;
}

// The axis (0..2) a rotation turns about, to 1e-12 (then it is a turn of the other two columns);
// -1 when it turns about none.
int turn_axis_of(const Eigen::Matrix3d& rotation) {
  constexpr double kExact = 1e-12;
  for (int axis = 0; axis < 3; ++axis) {
    bool fixed = std::fabs(rotation(axis, axis) - 1.0) <= kExact;
    for (int k = 0; k < 3 && fixed; ++k)
      if (k != axis)
        fixed = std::fabs(rotation(axis, k)) <= kExact && std::fabs(rotation(k, axis)) <= kExact;
    if (fixed) return axis;
  }
  return -1;
}

// --- whole trees ------------------------------------------------------------------------------

constexpr int kTreeStackValues = 64;  // joint values handled without heap scratch
constexpr int kTreeStackLinks = 64;   // link frames handled without heap scratch

// What AVX2's aligned column moves need. Not alignof(Column): outside an AVX2 function GCC caps a
// vector type's alignment at 16 bytes.
constexpr std::size_t kColumnAlignment = 32;

// `count` columns of scratch inside `storage`, aligned for the vector stores.
inline Column* aligned_columns(std::vector<double>& storage, std::size_t count) {
  storage.resize(4 * count + kColumnAlignment / sizeof(double));
  void* start = storage.data();
  std::size_t space = storage.size() * sizeof(double);
  return static_cast<Column*>(std::align(kColumnAlignment, count * sizeof(Column), start, space));
}

// out = m[0] r0 + m[1] r1 + m[2] r2 (an out parameter: a returned vector would change the ABI).
[[gnu::always_inline]] inline void combine(const Column* r, const double* m, Column& out) {
  out = (m[0] * r[0] + m[1] * r[1]) + m[2] * r[2];
}

// r = r * m (m column-major 3×3).
[[gnu::always_inline]] inline void multiply_columns(Column* r, const double* m) {
  Column turned[3];
  for (int c = 0; c < 3; ++c) combine(r, m + 3 * c, turned[c]);
  for (int c = 0; c < 3; ++c) r[c] = turned[c];
}

// Whole-column stores (a w lane of 0 or 1 is the pose's bottom row; the sign leaves w alone so no
// -0 appears there). Columns are picked from registers: the pattern is fixed per node.
[[gnu::always_inline]] inline void store_pose(const Column* r, const Column& p,
                                              const TreeKernelNode& node, double* pose) {
  if (node.out_identity) {  // about half a chain's links (the Panda's turn by pi/2 back and forth)
    for (int c = 0; c < 3; ++c) std::memcpy(pose + 4 * c, &r[c], sizeof r[c]);
    std::memcpy(pose + 12, &p, sizeof p);
    return;
  }
  for (int c = 0; c < 3; ++c) {
    const int source = node.out_source[c];
    const double sign = node.out_sign[c];
    const Column column = Column{sign, sign, sign, 1.0} * (source == 0   ? r[0]
                                                           : source == 1 ? r[1]
                                                                         : r[2]);
    std::memcpy(pose + 4 * c, &column, sizeof column);
  }
  std::memcpy(pose + 12, &p, sizeof p);
}

[[gnu::always_inline]] inline void tree_kernel_body(const TreeKernel& kernel, const double* q,
                                                    double* poses) {
  const int value_count = static_cast<int>(kernel.values.size());
  const int padded = (value_count + 3) / 4 * 4;
  alignas(kColumnAlignment) double stack_angles[3 * kTreeStackValues];
  std::vector<double> heap_angles;
  double* angles = stack_angles;
  if (padded > kTreeStackValues) [[unlikely]]
    angles = reinterpret_cast<double*>(
        aligned_columns(heap_angles, 3 * static_cast<std::size_t>(padded) / 4));
  double* sines = angles + padded;
  double* cosines = sines + padded;
  const TreeKernelValue* values = kernel.values.data();
  for (int i = 0; i < value_count; ++i)
    angles[i] = values[i].multiplier * q[values[i].variable] + values[i].offset;
  for (int i = value_count; i < padded; ++i) angles[i] = 0.0;
  fast_sincos_array(angles, sines, cosines, padded);

  // Physical frames per link: three rotation columns (w = 0) and the origin (w = 1).
  alignas(kColumnAlignment) Column stack_frames[4 * kTreeStackLinks];
  // Heap scratch as doubles, aligned by hand: std::vector<Column> gets 16-byte aligned memory and
  // the column stores fault.
  std::vector<double> heap_frames;
  Column* frames = stack_frames;
  if (kernel.link_count > kTreeStackLinks) [[unlikely]]
    frames = aligned_columns(heap_frames, 4 * static_cast<std::size_t>(kernel.link_count));
  Column* root = frames + 4 * kernel.root_link;
  root[0] = Column{1, 0, 0, 0};
  root[1] = Column{0, 1, 0, 0};
  root[2] = Column{0, 0, 1, 0};
  root[3] = Column{0, 0, 0, 1};
  for (const int link : kernel.identity_links) {  // the root, and links off the tree
    double* pose = poses + 16 * link;
    for (int i = 0; i < 16; ++i) pose[i] = (i % 5 == 0) ? 1.0 : 0.0;
  }

  // Along a chain the parent is the node just computed: its frame is still in registers (reading
  // it back from memory would put a store-forwarding delay on the critical path of every joint).
  Column r[3] = {root[0], root[1], root[2]};
  Column p = root[3];
  int previous = -1;
  for (const TreeKernelNode& node : kernel.nodes) {
    if (node.parent_link != previous) {
      const Column* parent = frames + 4 * node.parent_link;
      r[0] = parent[0];
      r[1] = parent[1];
      r[2] = parent[2];
      p = parent[3];
    }
    previous = node.child_link;
    translate(r, node.translation, node.translation_mask, p);
    if (node.has_pre) [[unlikely]] {
      if (node.pre_turn_axis == 2)
        turn(r[0], r[1], node.pre_cosine, node.pre_sine);
      else if (node.pre_turn_axis == 1)
        turn(r[2], r[0], node.pre_cosine, node.pre_sine);
      else if (node.pre_turn_axis == 0)
        turn(r[1], r[2], node.pre_cosine, node.pre_sine);
      else
        multiply_columns(r, node.pre);
    }
    switch (node.motion) {
      case TreeKernelNode::Motion::Fixed:
        break;
      case TreeKernelNode::Motion::RotateZ:
        turn(r[0], r[1], cosines[node.value], sines[node.value]);
        break;
      case TreeKernelNode::Motion::RotateY:
        turn(r[2], r[0], cosines[node.value], sines[node.value]);
        break;
      case TreeKernelNode::Motion::RotateX:
        turn(r[1], r[2], cosines[node.value], sines[node.value]);
        break;
      case TreeKernelNode::Motion::Slide: {
        Column along;
        combine(r, node.direction, along);
        p += angles[node.value] * along;
        break;
      }
      case TreeKernelNode::Motion::RotateGeneral: {
        // Rodrigues, as Eigen::AngleAxis::toRotationMatrix builds it (column-major).
        const double* k = node.direction;
        const double sine = sines[node.value], cosine = cosines[node.value];
        const double sx = sine * k[0], sy = sine * k[1], sz = sine * k[2];
        const double cx = (1.0 - cosine) * k[0], cy = (1.0 - cosine) * k[1],
                     cz = (1.0 - cosine) * k[2];
        const double m[9] = {cx * k[0] + cosine, cx * k[1] + sz,     cx * k[2] - sy,
                             cx * k[1] - sz,     cy * k[1] + cosine, cy * k[2] + sx,
                             cx * k[2] + sy,     cy * k[2] - sx,     cz * k[2] + cosine};
        multiply_columns(r, m);
        break;
      }
    }
    if (node.branches) {  // a later node starts from this frame (not the next one)
      Column* child = frames + 4 * node.child_link;
      child[0] = r[0];
      child[1] = r[1];
      child[2] = r[2];
      child[3] = p;
    }
    store_pose(r, p, node, poses + 16 * node.child_link);
  }
}

void run_tree_kernel(const TreeKernel& kernel, const double* q, double* poses) {
  tree_kernel_body(kernel, q, poses);
}

#ifdef KINETIC_TIP_KERNEL_AVX2
[[gnu::target("avx2")]] void run_tree_kernel_avx2(const TreeKernel& kernel, const double* q,
                                                  double* poses) {
  tree_kernel_body(kernel, q, poses);
}
#endif

}  // namespace

std::optional<TipKernel> make_tip_kernel(const std::vector<TipKernelInput>& joints, const Pose& tip,
                                         bool portable_only) {
  const int count = static_cast<int>(joints.size());
  if (count < 1 || count > kTipKernelMaxJoints) return std::nullopt;
  TipKernel kernel;
  kernel.count = count;
  for (int i = 0; i < count; ++i) {
    const TipKernelInput& in = joints[i];
    TipKernelJoint& out = kernel.joints[i];
    for (int r = 0; r < 3; ++r) {
      out.translation[r] = in.translation[r];
      if (in.translation[r] != 0.0) out.translation_mask |= static_cast<std::uint8_t>(1U << r);
    }
    out.axis = static_cast<std::uint8_t>(in.axis);
    out.multiplier = in.axis_sign * in.multiplier;  // exact: the sign is ±1
    out.offset = in.axis_sign * in.offset;
    out.slot = in.slot;
  }

  TipKernelJoint& last = kernel.joints[count - 1];
  Eigen::Vector3d tip_translation = tip.translation();
  if (const auto folding = fold_about_axis(tip.linear(), last.axis)) {
    // R Rot(theta) [Rot(phi) Q | t] = R Rot(theta + phi) [Q | Rot(-phi) t].
    last.offset += folding->phi;
    tip_translation =
        Eigen::AngleAxisd(-folding->phi, Eigen::Vector3d::Unit(last.axis)).toRotationMatrix() *
        tip_translation;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r)
        if (folding->permutation(r, c) != 0.0) {
          kernel.tip_source[c] = static_cast<std::uint8_t>(r);
          kernel.tip_sign[c] = folding->permutation(r, c);
        }
  } else {
    kernel.tip_permuted = false;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) kernel.tip_rotation[3 * c + r] = tip.linear()(r, c);
  }
  for (int r = 0; r < 3; ++r) kernel.tip_translation[r] = tip_translation[r];
  kernel.run = kernel_for(count, portable_only);
  return kernel;
}

TreeKernel make_tree_kernel(const std::vector<TreeKernelJoint>& joints, int link_count,
                            int root_link, bool portable_only) {
  TreeKernel kernel;
  kernel.link_count = link_count;
  kernel.root_link = root_link;
  // true rotation = physical * logical[link]; logical is a signed permutation (exact).
  std::vector<Eigen::Matrix3d> logical(link_count, Eigen::Matrix3d::Identity());
  for (const TreeKernelJoint& joint : joints) {
    const bool revolute = joint.kind == TreeKernelJoint::Kind::Revolute;
    const StepMotion motion = revolute ? StepMotion::Revolute
                              : joint.kind == TreeKernelJoint::Kind::Prismatic
                                  ? StepMotion::Prismatic
                                  : StepMotion::Fixed;
    const FrameStep step = FrameStep::make(joint.origin, joint.axis, motion);
    const Eigen::Matrix3d& parent_logical = logical[joint.parent_link];
    TreeKernelNode node;
    node.parent_link = joint.parent_link;
    node.child_link = joint.child_link;
    const Vector3 translation = parent_logical * joint.origin.translation();
    for (int r = 0; r < 3; ++r) {
      node.translation[r] = translation[r];
      if (translation[r] != 0.0) node.translation_mask |= static_cast<std::uint8_t>(1U << r);
    }
    Eigen::Matrix3d child_logical;
    if (step.permuted) {
      Eigen::Matrix3d permutation = Eigen::Matrix3d::Zero();  // the snapped origin rotation
      for (int c = 0; c < 3; ++c) permutation(step.source[c], c) = step.sign[c];
      child_logical = parent_logical * permutation;
    } else {
      node.has_pre = true;
      const Eigen::Matrix3d pre = parent_logical * joint.origin.linear();
      for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) node.pre[3 * c + r] = pre(r, c);
      if (const int axis = turn_axis_of(pre); axis >= 0) {
        const int i = (axis + 1) % 3, j = (axis + 2) % 3;  // Rot(e_axis): e_i -> c e_i + s e_j
        node.pre_turn_axis = axis;
        node.pre_cosine = pre(i, i);
        node.pre_sine = pre(j, i);
      }
      child_logical.setIdentity();
    }
    if (motion != StepMotion::Fixed) {
      // Q Rot(u, a) = Rot(Q u, a) Q: the joint moves the physical frame along logical * u.
      const Vector3 axis = child_logical * step.axis.axis;
      TreeKernelValue value{joint.variable, joint.multiplier, joint.offset};
      if (!revolute) {
        node.motion = TreeKernelNode::Motion::Slide;
      } else if (step.axis.kind == AxisKind::General) {
        node.motion = TreeKernelNode::Motion::RotateGeneral;
      } else {
        int physical = 0;
        for (int r = 0; r < 3; ++r)
          if (axis[r] != 0.0) physical = r;
        node.motion = physical == 0   ? TreeKernelNode::Motion::RotateX
                      : physical == 1 ? TreeKernelNode::Motion::RotateY
                                      : TreeKernelNode::Motion::RotateZ;
        value.multiplier *= axis[physical];  // exact: ±1
        value.offset *= axis[physical];
      }
      for (int r = 0; r < 3; ++r) node.direction[r] = axis[r];
      node.value = static_cast<int>(kernel.values.size());
      kernel.values.push_back(value);
    }
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r)
        if (child_logical(r, c) != 0.0) {
          node.out_source[c] = static_cast<std::uint8_t>(r);
          node.out_sign[c] = child_logical(r, c);
          node.out_identity = node.out_identity && r == c && child_logical(r, c) == 1.0;
        }
    logical[joint.child_link] = child_logical;
    kernel.nodes.push_back(node);
  }
  for (std::size_t i = 0; i < kernel.nodes.size(); ++i)
    for (std::size_t later = i + 2; later < kernel.nodes.size(); ++later)
      if (kernel.nodes[later].parent_link == kernel.nodes[i].child_link)
        kernel.nodes[i].branches = true;
  std::vector<bool> reached(link_count, false);
  for (const TreeKernelNode& node : kernel.nodes) reached[node.child_link] = true;
  for (int link = 0; link < link_count; ++link)
    if (!reached[link]) kernel.identity_links.push_back(link);
  kernel.run = &run_tree_kernel;
#ifdef KINETIC_TIP_KERNEL_AVX2
  if (!portable_only && __builtin_cpu_supports("avx2")) kernel.run = &run_tree_kernel_avx2;
#else
  (void)portable_only;
#endif
  return kernel;
}

}  // namespace kinetic::detail
