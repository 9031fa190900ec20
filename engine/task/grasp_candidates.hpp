#pragma once
// The grasp candidates of each primitive shape, in the object's frame and unscored (internal to
// generate_grasps). Each candidate's description says where it holds the object ("+z face, across
// y"); generate_grasps adds the world direction it comes from.
#include <vector>

#include "engine/task/grasp_generation.hpp"

namespace kinetic::grasp_detail {

// TCP frame at `position`: +Z along `approach`, +Y along `closing` (both unit, perpendicular).
Pose tcp_frame(const Vector3& position, const Vector3& approach, const Vector3& closing);

// Parallel gripper. Only spans within [min_opening, max_opening] are used.
std::vector<Grasp> box_parallel(const Vector3& size, const GripperSpec& gripper);
std::vector<Grasp> cylinder_parallel(double radius, double length, const GripperSpec& gripper);
// A sphere looks the same from every side: its approaches are spread in the world frame (so one
// always comes from straight above), given by the object's world rotation.
std::vector<Grasp> sphere_parallel(double radius, const Eigen::Matrix3d& object_rotation,
                                   const GripperSpec& gripper);

// Suction on flat faces: the TCP on the face's centre, yaw_steps turns about its normal (the cup's
// size is not modelled: any face holds it).
std::vector<Grasp> box_suction(const Vector3& size, const GripperSpec& gripper);
std::vector<Grasp> cylinder_suction(double length, const GripperSpec& gripper);

}  // namespace kinetic::grasp_detail
