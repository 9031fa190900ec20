#include "engine/scene/scene_meshes.hpp"

#include <cstdio>

#include "engine/core/error.hpp"
#include "engine/geometry/collision_mesh.hpp"

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

double mesh_extent(const CollisionMesh& mesh) {
  if (mesh.vertices.empty()) return 0.0;
  Vector3 low = mesh.vertices.front(), high = low;
  for (const Vector3& v : mesh.vertices) {
    low = low.cwiseMin(v);
    high = high.cwiseMax(v);
  }
  return (high - low).maxCoeff();
}

std::vector<SceneMeshProblem> oversized_scene_meshes(const PlanningScene& scene) {
  std::vector<SceneMeshProblem> notes;
  const auto check = [&](const std::string& name, const Shape& shape) {
    if (shape.type != Shape::Type::Mesh) return;
    double extent = 0.0;
    try {
      extent = mesh_extent(*load_collision_mesh(shape.mesh_path, shape.mesh_scale));
    } catch (const Error&) {
      return;  // unreadable: unreadable_scene_meshes says so
    }
    if (extent <= kLargestPlausibleMesh) return;
    char text[200];
    std::snprintf(text, sizeof text,
                  "'%s' is %.1f m across as read: if it was drawn in millimetres, give it scale "
                  "0.001 on every axis",
                  name.c_str(), extent);
    notes.push_back({name, text});
  };
  for (const Obstacle& object : scene.obstacles()) check(object.name, object.shape);
  for (const AttachedObject& object : scene.attached_objects()) check(object.name, object.shape);
  return notes;
}

}  // namespace kinetic
