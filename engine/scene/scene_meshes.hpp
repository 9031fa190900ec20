#pragma once
// Mesh objects of a scene whose file cannot be read (gone, unreadable, no triangles): found when a
// scene is opened, so the user hears of it then and not from the next failed plan. And mesh
// objects so large they were likely drawn in millimetres and read as metres.
#include <string>
#include <vector>

#include "engine/geometry/collision_mesh.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic {

struct SceneMeshProblem {
  std::string object;   // the obstacle's or attached object's name
  std::string message;  // the collision mesh reader's error
};

// Reads every mesh object's collision mesh (cached, so planning does not read it again); one
// entry per object that fails, obstacles first.
std::vector<SceneMeshProblem> unreadable_scene_meshes(const PlanningScene& scene);

// m: a mesh larger than this across (a robot cell is a few metres) is likely in millimetres.
inline constexpr double kLargestPlausibleMesh = 10.0;

// Largest extent (m) of a loaded mesh's axis-aligned bounds in its own frame, scale applied.
double mesh_extent(const CollisionMesh& mesh);

// One note per readable mesh object over kLargestPlausibleMesh across ("'part' is 100.0 m across
// as read: if it was drawn in millimetres, give it scale 0.001 on every axis"), obstacles first.
std::vector<SceneMeshProblem> oversized_scene_meshes(const PlanningScene& scene);

}  // namespace kinetic
