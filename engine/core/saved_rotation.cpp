#include "engine/core/saved_rotation.hpp"

#include <cmath>

namespace kinetic {

namespace {
// + 0.0: a -0.0 (half a turn rounds to it) is written as 0, so a file saved twice is the same
// bytes.
double rounded(double value) {
  return std::round(value * 1e14) / 1e14 + 0.0;
}

std::array<double, 4> rounded_quaternion(const Eigen::Matrix3d& rotation) {
  const Quaternion q(rotation);
  return {rounded(q.x()), rounded(q.y()), rounded(q.z()), rounded(q.w())};
}
}  // namespace

Eigen::Matrix3d rotation_from_saved_quaternion(double x, double y, double z, double w) {
  return Quaternion(w, x, y, z).normalized().toRotationMatrix();
}

std::array<double, 4> saved_quaternion(const Eigen::Matrix3d& rotation) {
  // Rounding alone still left 1.5% of rotations changing on the next save: normalising the
  // rounded quaternion moves it by about a rounding step. One pass through the reader first
  // lands on numbers that read and round back to themselves.
  const std::array<double, 4> first = rounded_quaternion(rotation);
  return rounded_quaternion(rotation_from_saved_quaternion(first[0], first[1], first[2], first[3]));
}

}  // namespace kinetic
