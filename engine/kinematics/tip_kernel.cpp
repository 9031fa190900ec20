#include "engine/kinematics/tip_kernel.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <utility>

#include "engine/kinematics/fast_sincos.hpp"

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
[[gnu::always_inline]] inline void translate(const Column* r, const double* t, std::uint8_t mask, Column& p) {
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
[[gnu::always_inline]] inline void tip_kernel_body(const TipKernel& kernel, const double* q, double* pose) {
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
[[gnu::target("avx2")]] void run_tip_kernel_avx2(const TipKernel& kernel, const double* q, double* pose) {
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
        Eigen::AngleAxisd(-folding->phi, Eigen::Vector3d::Unit(last.axis)).toRotationMatrix() * tip_translation;
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

}  // namespace kinetic::detail
