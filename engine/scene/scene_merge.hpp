#pragma once
// Adding one scene's objects to another (the Scene panel's "Add from scene file", as RViz's scene
// import adds to what is there): a fixture file dropped into a work cell.
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "engine/scene/planning_scene.hpp"

namespace kinetic {

// (name in the file, name given) for each object that was renamed.
using SceneRenames = std::vector<std::pair<std::string, std::string>>;

// Adds `extra`'s obstacles, attached objects and pair overrides to `scene`. An object whose name
// `scene` already uses, or that `taken` refuses (a robot link's name), gets the first free
// "<name>_<n>" (n = 2, 3, ...), and the overrides naming it follow. Should PlanningScene refuse
// an object (it throws Error(InvalidValue)), `scene` is left as it was.
SceneRenames merge_scene(PlanningScene& scene, const PlanningScene& extra,
                         const std::function<bool(const std::string&)>& taken = {});

}  // namespace kinetic
