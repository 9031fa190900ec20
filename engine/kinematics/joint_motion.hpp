#pragma once
// The motion of one joint applied to an accumulated frame, specialised for axis-aligned joint axes
// (nearly every robot file uses ±X, ±Y or ±Z): rotating about a frame axis touches two columns of
// the rotation instead of a full 3×3 product, which is what makes FK cheap.
#include <Eigen/Geometry>
#include <cmath>
#include <cstdint>

namespace kinetic::detail {

enum class AxisKind : std::uint8_t { X, Y, Z, General };

struct JointAxis {
  AxisKind kind = AxisKind::Z;
  double sign = 1.0;                                 // axis = sign * e_kind for aligned axes
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

// rotation <- rotation * Rot(axis, angle)
inline void apply_rotation(Eigen::Matrix3d& rotation, const JointAxis& axis, double angle) {
  if (axis.kind == AxisKind::General) {
    rotation = rotation * Eigen::AngleAxisd(angle, axis.axis).toRotationMatrix();
    return;
  }
  const double s = axis.sign * std::sin(angle);
  const double c = std::cos(angle);
  // Columns (a, b) of the rotation mix as in the 2-D rotation about the remaining axis.
  int a = 0, b = 1;
  if (axis.kind == AxisKind::X) {
    a = 1;
    b = 2;
  } else if (axis.kind == AxisKind::Y) {
    a = 2;
    b = 0;
  }
  const Eigen::Vector3d col_a = rotation.col(a);
  const Eigen::Vector3d col_b = rotation.col(b);
  rotation.col(a) = c * col_a + s * col_b;
  rotation.col(b) = c * col_b - s * col_a;
}

// position <- position + rotation * axis * distance
inline void apply_translation(Eigen::Vector3d& position, const Eigen::Matrix3d& rotation,
                              const JointAxis& axis, double distance) {
  if (axis.kind == AxisKind::General)
    position += rotation * (axis.axis * distance);
  else
    position += rotation.col(static_cast<int>(axis.kind)) * (axis.sign * distance);
}

}  // namespace kinetic::detail
