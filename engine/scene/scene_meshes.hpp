#pragma once
// Mesh objects of a scene whose file cannot be read (gone, unreadable, no triangles): found when a
// scene is opened, so the user hears of it then and not from the next failed plan.
#include <string>
#include <vector>

#include "engine/scene/planning_scene.hpp"

namespace kinetic {

struct SceneMeshProblem {
  std::string object;  // the obstacle's or attached object's name
  std::string message;  // the collision mesh reader's error
};

// Reads every mesh object's collision mesh (cached, so planning does not read it again); one
// entry per object that fails, obstacles first.
std::vector<SceneMeshProblem> unreadable_scene_meshes(const PlanningScene& scene);

}  // namespace kinetic
