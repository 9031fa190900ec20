#include "engine/core/types.hpp"

#include <cmath>

namespace kinetic {

Eigen::Matrix3d rotation_from_rpy(double roll, double pitch, double yaw) {
  return (Eigen::AngleAxisd(yaw, Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(pitch, Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(roll, Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Vector3d rpy_from_rotation(const Eigen::Matrix3d& r) {
  // Inverse of R = Rz(yaw) Ry(pitch) Rx(roll), stable near pitch = ±90°.
  const double pitch = std::atan2(-r(2, 0), std::hypot(r(0, 0), r(1, 0)));
  double roll, yaw;
  if (std::abs(std::cos(pitch)) > 1e-9) {
    roll = std::atan2(r(2, 1), r(2, 2));
    yaw = std::atan2(r(1, 0), r(0, 0));
  } else {
    roll = 0.0;
    yaw = std::atan2(-r(0, 1), r(1, 1));
  }
  return {roll, pitch, yaw};
}

Pose pose_from_xyz_rpy(const Vector3& xyz, const Vector3& rpy) {
  Pose pose = Pose::Identity();
  pose.linear() = rotation_from_rpy(rpy.x(), rpy.y(), rpy.z());
  pose.translation() = xyz;
  return pose;
}

}  // namespace kinetic
