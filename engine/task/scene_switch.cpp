#include "engine/task/scene_switch.hpp"

namespace kinetic::task_detail {
namespace {

bool same_shape(const Shape& a, const Shape& b) {
  return a.type == b.type && a.box_size == b.box_size && a.radius == b.radius &&
         a.length == b.length && a.mesh_path == b.mesh_path && a.mesh_scale == b.mesh_scale &&
         a.normal == b.normal && a.offset == b.offset;
}

bool same_pose(const Pose& a, const Pose& b) {
  return a.matrix() == b.matrix();
}

bool same_obstacle(const Obstacle& a, const Obstacle& b) {
  return a.name == b.name && same_shape(a.shape, b.shape) && same_pose(a.pose, b.pose);
}

bool same_attached(const AttachedObject& a, const AttachedObject& b) {
  return a.name == b.name && a.link == b.link && same_shape(a.shape, b.shape) &&
         same_pose(a.pose, b.pose) && a.touch_links == b.touch_links;
}

template <typename T, typename Same>
bool same_lists(const std::vector<T>& a, const std::vector<T>& b, Same same) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same(a[i], b[i])) return false;
  return true;
}

}  // namespace

bool same_scene(const PlanningScene& a, const PlanningScene& b) {
  return same_lists(a.obstacles(), b.obstacles(), same_obstacle) &&
         same_lists(a.attached_objects(), b.attached_objects(), same_attached) &&
         a.overrides() == b.overrides();
}

void use_scene(Planner& planner, const PlanningScene& scene) {
  if (!same_scene(planner.scene(), scene)) planner.set_scene(scene);
}

}  // namespace kinetic::task_detail
