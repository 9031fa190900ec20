#pragma once
// Basic value types shared by every engine module.
#include <Eigen/Geometry>
#include <string>
#include <vector>

namespace kinetic {

using Pose = Eigen::Isometry3d;       // rigid transform, metres and radians
using JointVector = Eigen::VectorXd;  // one value per active joint variable, model order
using Vector3 = Eigen::Vector3d;
using Quaternion = Eigen::Quaterniond;

// Roll-pitch-yaw (URDF convention: fixed axes X, then Y, then Z) to a rotation.
Eigen::Matrix3d rotation_from_rpy(double roll, double pitch, double yaw);
Eigen::Vector3d rpy_from_rotation(const Eigen::Matrix3d& rotation);
Pose pose_from_xyz_rpy(const Vector3& xyz, const Vector3& rpy);

}  // namespace kinetic
