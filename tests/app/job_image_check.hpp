#pragma once
// Where a job's objects are and where its images draw them, for the tests of scene-changing steps
// (attach / detach, pick_place): an object's world pose at a robot state, the pixels drawn in the
// colour of the objects a job handles (job_rendering.cpp: a purple the robot, obstacles, trail and
// background do not have), and the pixel a world point projects to.
#include <Eigen/Core>

#include <string>

#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"
#include "viewer/camera.hpp"
#include "viewer/image.hpp"

namespace kinetic::test {

// Where an object of the scene is in the world with the robot at q: an obstacle where it stands,
// an attached object with its link.
inline Pose object_pose(const RobotModel& robot, const PlanningScene& scene, const JointVector& q,
                        const std::string& name) {
  if (scene.has_obstacle(name)) return scene.obstacle(name).pose;
  const AttachedObject& object = scene.attached(name);
  return compute_link_pose(robot, q, object.link) * object.pose;
}

struct Purple {
  int count = 0;
  Eigen::Vector2d centre = Eigen::Vector2d::Zero();
};

inline bool purple(const viewer::Rgba8& p) {
  return p.r > p.g + 20 && p.b > p.g + 40;
}

// The handled objects' pixels (within `radius` of `around`), and where they are on average.
inline Purple purple_pixels(const viewer::RgbaImage& image,
                            const Eigen::Vector2d& around = Eigen::Vector2d::Zero(),
                            double radius = 1e9) {
  Purple found;
  for (uint32_t y = 0; y < image.height(); ++y)
    for (uint32_t x = 0; x < image.width(); ++x)
      if (purple(image.at(x, y)) && (Eigen::Vector2d(x, y) - around).norm() <= radius) {
        ++found.count;
        found.centre += Eigen::Vector2d(x, y);
      }
  if (found.count) found.centre /= found.count;
  return found;
}

// The pixel a world point is drawn at (Vulkan clip space: y down).
inline Eigen::Vector2d project(const viewer::Camera& camera, const Vector3& point, uint32_t width,
                               uint32_t height) {
  const viewer::Vec4 clip =
      camera.projection_matrix(float(width) / float(height)) * camera.view_matrix() *
      viewer::Vec4(float(point.x()), float(point.y()), float(point.z()), 1.0f);
  return {(clip.x() / clip.w() + 1.0) / 2.0 * width, (clip.y() / clip.w() + 1.0) / 2.0 * height};
}

}  // namespace kinetic::test
