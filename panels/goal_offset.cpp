#include "panels/goal_offset.hpp"

namespace kinetic::panels {

Pose offset_pose(const Pose& pose, const Vector3& translation, const Vector3& rpy,
                 OffsetAxes axes) {
  const Eigen::Matrix3d turn =
      (Eigen::AngleAxisd(rpy.z(), Vector3::UnitZ()) * Eigen::AngleAxisd(rpy.y(), Vector3::UnitY()) *
       Eigen::AngleAxisd(rpy.x(), Vector3::UnitX()))
          .toRotationMatrix();
  Pose moved = pose;
  if (axes == OffsetAxes::Tool) {
    moved.translation() += pose.linear() * translation;
    moved.linear() = pose.linear() * turn;
  } else {
    moved.translation() += translation;
    moved.linear() = turn * pose.linear();  // about the base axes, through the TCP
  }
  return moved;
}

}  // namespace kinetic::panels
