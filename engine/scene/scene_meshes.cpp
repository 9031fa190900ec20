#include "engine/scene/scene_meshes.hpp"

#include "engine/collision/collision_mesh.hpp"
#include "engine/core/error.hpp"

namespace kinetic {

std::vector<SceneMeshProblem> unreadable_scene_meshes(const PlanningScene& scene) {
  std::vector<SceneMeshProblem> problems;
  const auto check = [&](const std::string& name, const Shape& shape) {
    if (shape.type != Shape::Type::Mesh) return;
    try {
      load_collision_mesh(shape.mesh_path, shape.mesh_scale);
    } catch (const Error& error) {
      problems.push_back({name, error.what()});
    }
  };
  for (const Obstacle& object : scene.obstacles()) check(object.name, object.shape);
  for (const AttachedObject& object : scene.attached_objects()) check(object.name, object.shape);
  return problems;
}

}  // namespace kinetic
