#include "engine/task/grasp_candidates.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

namespace kinetic::grasp_detail {

namespace {

constexpr const char* kAxisNames[3] = {"x", "y", "z"};

bool fits(double span, const GripperSpec& gripper) {
  return span >= gripper.min_opening && span <= gripper.max_opening;
}

// How deep the TCP goes below a surface whose opposite side is `half` away: finger_depth, but
// never past the middle.
double tcp_depth(double half, const GripperSpec& gripper) {
  return std::min(gripper.finger_depth, half);
}

double yaw_angle(int step, const GripperSpec& gripper) {
  return 2.0 * std::numbers::pi * step / gripper.yaw_steps;
}

std::string degrees(double radians) {
  return std::to_string(static_cast<int>(std::lround(radians * 180.0 / std::numbers::pi))) + "°";
}

std::string face_name(int axis, double sign) {
  return std::string(sign > 0 ? "+" : "-") + kAxisNames[axis] + " face";
}

Grasp make_grasp(const Pose& object_to_tcp, double width, std::string description) {
  Grasp grasp;
  grasp.object_to_tcp = object_to_tcp;
  grasp.width = width;
  grasp.description = std::move(description);
  return grasp;
}

}  // namespace

Pose tcp_frame(const Vector3& position, const Vector3& approach, const Vector3& closing) {
  Pose pose = Pose::Identity();
  pose.linear().col(0) = closing.cross(approach);
  pose.linear().col(1) = closing;
  pose.linear().col(2) = approach;
  pose.translation() = position;
  return pose;
}

std::vector<Grasp> box_parallel(const Vector3& size, const GripperSpec& gripper) {
  std::vector<Grasp> grasps;
  for (int axis = 0; axis < 3; ++axis)
    for (const double sign : {1.0, -1.0}) {
      const Vector3 normal = sign * Vector3::Unit(axis);  // outward: the approach runs against it
      const double half = 0.5 * size[axis];
      const Vector3 position = normal * (half - tcp_depth(half, gripper));
      for (int across = 0; across < 3; ++across) {
        if (across == axis || !fits(size[across], gripper)) continue;
        // Both ways round: the same grasp for the object, different joint values for the arm.
        for (const double turn : {1.0, -1.0})
          grasps.push_back(make_grasp(tcp_frame(position, -normal, turn * Vector3::Unit(across)),
                                      size[across],
                                      face_name(axis, sign) + ", across " + kAxisNames[across] +
                                          (turn > 0 ? "" : ", turned 180°")));
      }
    }
  return grasps;
}

std::vector<Grasp> cylinder_parallel(double radius, double length, const GripperSpec& gripper) {
  std::vector<Grasp> grasps;
  const double diameter = 2.0 * radius, half = 0.5 * length;
  if (fits(diameter, gripper))
    for (const double sign : {1.0, -1.0}) {  // the ends, along the axis
      const Vector3 normal = sign * Vector3::UnitZ();
      const Vector3 position = normal * (half - tcp_depth(half, gripper));
      for (int step = 0; step < gripper.yaw_steps; ++step) {
        const double yaw = yaw_angle(step, gripper);
        grasps.push_back(make_grasp(
            tcp_frame(position, -normal, Vector3(std::cos(yaw), std::sin(yaw), 0.0)), diameter,
            std::string(sign > 0 ? "+z" : "-z") + " end, across the diameter, turned " +
                degrees(yaw)));
      }
    }
  for (int step = 0; step < gripper.yaw_steps; ++step) {  // the side, at mid-length
    const double yaw = yaw_angle(step, gripper);
    const Vector3 normal(std::cos(yaw), std::sin(yaw), 0.0);
    const Vector3 position = normal * (radius - tcp_depth(radius, gripper));
    const std::string where = "side at " + degrees(yaw);
    if (fits(diameter, gripper))
      for (const double turn : {1.0, -1.0})
        grasps.push_back(make_grasp(
            tcp_frame(position, -normal, turn * Vector3::UnitZ().cross(normal)), diameter,
            where + ", across the diameter" + (turn > 0 ? "" : ", turned 180°")));
    if (fits(length, gripper))
      for (const double turn : {1.0, -1.0})
        grasps.push_back(
            make_grasp(tcp_frame(position, -normal, turn * Vector3::UnitZ()), length,
                       where + ", along the axis" + (turn > 0 ? "" : ", turned 180°")));
  }
  return grasps;
}

std::vector<Grasp> sphere_parallel(double radius, const Eigen::Matrix3d& object_rotation,
                                   const GripperSpec& gripper) {
  std::vector<Grasp> grasps;
  const double diameter = 2.0 * radius;
  if (!fits(diameter, gripper)) return grasps;
  const Eigen::Matrix3d to_object = object_rotation.transpose();
  const double depth = tcp_depth(radius, gripper);
  // normal: outward, world frame; closing: world frame, perpendicular to it.
  const auto add = [&](const Vector3& normal, const Vector3& closing,
                       const std::string& description) {
    grasps.push_back(make_grasp(tcp_frame(to_object * normal * (radius - depth),
                                          -(to_object * normal), to_object * closing),
                                diameter, description));
  };
  for (const double sign : {1.0, -1.0}) {  // the poles (world vertical), turned about it
    for (int step = 0; step < gripper.yaw_steps; ++step) {
      const double yaw = yaw_angle(step, gripper);
      add(sign * Vector3::UnitZ(), Vector3(std::cos(yaw), std::sin(yaw), 0.0),
          std::string(sign > 0 ? "top" : "bottom") + ", across the diameter, turned " +
              degrees(yaw));
    }
  }
  for (const double elevation_deg : {45.0, 0.0, -45.0}) {
    const double elevation = elevation_deg * std::numbers::pi / 180.0;
    for (int step = 0; step < gripper.yaw_steps; ++step) {
      const double yaw = yaw_angle(step, gripper);
      const Vector3 normal(std::cos(elevation) * std::cos(yaw), std::cos(elevation) * std::sin(yaw),
                           std::sin(elevation));
      const Vector3 level = Vector3::UnitZ().cross(normal).normalized();  // fingers level
      const std::string where = "at " + degrees(yaw) + ", " + degrees(elevation) + " up";
      add(normal, level, where + ", across the diameter");
      add(normal, -level, where + ", across the diameter, turned 180°");
    }
  }
  return grasps;
}

std::vector<Grasp> box_suction(const Vector3& size, const GripperSpec& gripper) {
  std::vector<Grasp> grasps;
  for (int axis = 0; axis < 3; ++axis)
    for (const double sign : {1.0, -1.0}) {
      const Vector3 normal = sign * Vector3::Unit(axis);
      // Turns about the normal start from an in-face axis.
      const Vector3 first = Vector3::Unit((axis + 1) % 3), second = normal.cross(first);
      for (int step = 0; step < gripper.yaw_steps; ++step) {
        const double yaw = yaw_angle(step, gripper);
        grasps.push_back(make_grasp(tcp_frame(normal * 0.5 * size[axis], -normal,
                                              std::cos(yaw) * first + std::sin(yaw) * second),
                                    0.0, face_name(axis, sign) + ", turned " + degrees(yaw)));
      }
    }
  return grasps;
}

std::vector<Grasp> cylinder_suction(double length, const GripperSpec& gripper) {
  std::vector<Grasp> grasps;
  for (const double sign : {1.0, -1.0}) {
    const Vector3 normal = sign * Vector3::UnitZ();
    for (int step = 0; step < gripper.yaw_steps; ++step) {
      const double yaw = yaw_angle(step, gripper);
      grasps.push_back(make_grasp(
          tcp_frame(normal * 0.5 * length, -normal, Vector3(std::cos(yaw), std::sin(yaw), 0.0)),
          0.0, std::string(sign > 0 ? "+z" : "-z") + " end, turned " + degrees(yaw)));
    }
  }
  return grasps;
}

}  // namespace kinetic::grasp_detail
