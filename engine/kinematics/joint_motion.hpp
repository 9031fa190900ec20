#pragma once
// One joint step of forward kinematics, child = parent * origin * motion(value), precomputed so
// the per-call work is as small as possible:
// - joint axes along ±X/±Y/±Z (nearly every robot file) rotate two columns of the frame instead of
//   a full 3×3 product;
// - origin rotations that are signed axis permutations within 1e-12 (URDF rpy of multiples of
//   pi/2, e.g. the Panda's ±90° about X, which arrive with 6e-17 residues) become exact column
//   moves and sign flips, merged with the joint's own rotation: no multiplies at all;
// - frames are plain 4×4 column-major arrays (Eigen::Isometry3d's layout: column c at [4c, 4c+3),
//   translation at [12, 15)), so the kernel writes straight into Pose storage without temporaries.
// The caller supplies the joint's sine and cosine (fast_sincos.hpp computes them for all joints in
// one pass).
#include <Eigen/Geometry>
#include <cmath>
#include <cstdint>

namespace kinetic::detail {

enum class AxisKind : std::uint8_t { X, Y, Z, General };

struct JointAxis {
  AxisKind kind = AxisKind::Z;
  double sign = 1.0;                                // axis = sign * e_kind for aligned axes
  Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();  // unit axis in the joint frame

  static JointAxis classify(const Eigen::Vector3d& raw_axis) {
    JointAxis result;
    const double norm = raw_axis.norm();
    result.axis = norm > 0.0 ? Eigen::Vector3d(raw_axis / norm) : Eigen::Vector3d::UnitZ();
    result.kind = AxisKind::General;
    for (int k = 0; k < 3; ++k) {
      for (const double sign : {1.0, -1.0}) {
        if ((result.axis - sign * Eigen::Vector3d::Unit(k)).cwiseAbs().maxCoeff() < 1e-12) {
          result.kind = static_cast<AxisKind>(k);
          result.sign = sign;
          result.axis = sign * Eigen::Vector3d::Unit(k);
        }
      }
    }
    return result;
  }
};

enum class StepMotion : std::uint8_t { Fixed, Revolute, Prismatic };

struct FrameStep {
  double translation[3] = {0.0, 0.0, 0.0};  // origin translation, parent frame
  // Origin rotation: column j = sign[j] * e_source[j] when `permuted`, else `rotation`
  // (column-major) with source = {0, 1, 2} and sign = 1 applied after it.
  bool permuted = true;
  double rotation[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  std::uint8_t source[3] = {0, 1, 2};
  double sign[3] = {1.0, 1.0, 1.0};
  StepMotion motion = StepMotion::Fixed;
  JointAxis axis;
  // Aligned revolute joints: columns a, b (the plane of rotation) and m (the axis) of the result.
  std::uint8_t a = 0, b = 1, m = 2;

  static FrameStep make(const Eigen::Isometry3d& origin, const Eigen::Vector3d& raw_axis,
                        StepMotion motion) {
    FrameStep step;
    const Eigen::Matrix3d rotation = origin.linear();
    for (int r = 0; r < 3; ++r) step.translation[r] = origin.translation()[r];
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) step.rotation[3 * c + r] = rotation(r, c);
    bool used[3] = {false, false, false};
    for (int c = 0; c < 3 && step.permuted; ++c) {
      int source = -1;
      for (int r = 0; r < 3; ++r) {
        const double value = std::fabs(rotation(r, c));
        if (std::fabs(value - 1.0) <= 1e-12 && source < 0 && !used[r])
          source = r;
        else if (value > 1e-12)
          step.permuted = false;
      }
      if (source < 0) {
        step.permuted = false;
      } else {
        used[source] = true;
        step.source[c] = static_cast<std::uint8_t>(source);
        step.sign[c] = rotation(source, c) > 0.0 ? 1.0 : -1.0;
      }
    }
    if (!step.permuted) {
      for (int c = 0; c < 3; ++c) {
        step.source[c] = static_cast<std::uint8_t>(c);
        step.sign[c] = 1.0;
      }
    }
    step.motion = motion;
    step.axis = JointAxis::classify(raw_axis);
    if (step.axis.kind != AxisKind::General) {
      step.m = static_cast<std::uint8_t>(step.axis.kind);
      step.a = static_cast<std::uint8_t>((step.m + 1) % 3);
      step.b = static_cast<std::uint8_t>((step.m + 2) % 3);
    }
    return step;
  }

  // Axis of the joint in the frame the step produced (`child`), for Jacobians.
  [[gnu::always_inline]] inline void world_axis(const double* child, double* out) const {
    if (axis.kind != AxisKind::General) {
      for (int r = 0; r < 3; ++r) out[r] = axis.sign * child[4 * m + r];
    } else {
      for (int r = 0; r < 3; ++r)
        out[r] =
            (child[r] * axis.axis[0] + child[4 + r] * axis.axis[1]) + child[8 + r] * axis.axis[2];
    }
  }
};

// rotation (3 columns, stride 4) * column-major 3×3 `right` -> out (stride 4).
[[gnu::always_inline]] inline void multiply_rotation(const double* rotation, const double* right,
                                                     double* out) {
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r)
      out[4 * c + r] = (rotation[r] * right[3 * c] + rotation[4 + r] * right[3 * c + 1]) +
                       rotation[8 + r] * right[3 * c + 2];
}

// child = parent * origin * motion(value), frames as 4×4 column-major arrays (the bottom row of
// `child` is left as it is). `parent` and `child` must not overlap.
[[gnu::always_inline]] inline void apply_step(const FrameStep& step, const double* parent,
                                              double* child, double value, double sine,
                                              double cosine) {
  for (int r = 0; r < 3; ++r)
    child[12 + r] =
        parent[12 + r] + ((parent[r] * step.translation[0] + parent[4 + r] * step.translation[1]) +
                          parent[8 + r] * step.translation[2]);
  double rotated[12];
  const double* base = parent;
  if (!step.permuted) [[unlikely]] {
    multiply_rotation(parent, step.rotation, rotated);
    base = rotated;
  }

  if (step.motion == StepMotion::Revolute && step.axis.kind != AxisKind::General) [[likely]] {
    // Columns a, b of (base * origin) turn in their plane; column m stays.
    const double* column_a = base + 4 * step.source[step.a];
    const double* column_b = base + 4 * step.source[step.b];
    const double* column_m = base + 4 * step.source[step.m];
    const double signed_sine = step.axis.sign * sine;
    const double cos_a = cosine * step.sign[step.a], sin_a = signed_sine * step.sign[step.a];
    const double cos_b = cosine * step.sign[step.b], sin_b = signed_sine * step.sign[step.b];
    const double sign_m = step.sign[step.m];
    double* out_a = child + 4 * step.a;
    double* out_b = child + 4 * step.b;
    double* out_m = child + 4 * step.m;
    for (int r = 0; r < 3; ++r) {
      const double va = column_a[r], vb = column_b[r];
      out_a[r] = cos_a * va + sin_b * vb;
      out_b[r] = cos_b * vb - sin_a * va;
      out_m[r] = sign_m * column_m[r];
    }
    return;
  }

  // Origin rotation applied by moving columns.
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) child[4 * c + r] = step.sign[c] * base[4 * step.source[c] + r];
  if (step.motion == StepMotion::Prismatic) {
    double axis[3];
    step.world_axis(child, axis);
    for (int r = 0; r < 3; ++r) child[12 + r] += axis[r] * value;
  } else if (step.motion == StepMotion::Revolute) {
    // General axis: Rodrigues, as Eigen::AngleAxis::toRotationMatrix builds it.
    const Eigen::Vector3d& k = step.axis.axis;
    const Eigen::Vector3d sin_axis = sine * k;
    const Eigen::Vector3d cos1_axis = (1.0 - cosine) * k;
    double motion[9];
    double tmp = cos1_axis.x() * k.y();
    motion[3] = tmp - sin_axis.z();
    motion[1] = tmp + sin_axis.z();
    tmp = cos1_axis.x() * k.z();
    motion[6] = tmp + sin_axis.y();
    motion[2] = tmp - sin_axis.y();
    tmp = cos1_axis.y() * k.z();
    motion[7] = tmp - sin_axis.x();
    motion[5] = tmp + sin_axis.x();
    motion[0] = cos1_axis.x() * k.x() + cosine;
    motion[4] = cos1_axis.y() * k.y() + cosine;
    motion[8] = cos1_axis.z() * k.z() + cosine;
    double origin_applied[12];
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) origin_applied[4 * c + r] = child[4 * c + r];
    multiply_rotation(origin_applied, motion, child);
  }
}

}  // namespace kinetic::detail
