#include "engine/scene/scene_merge.hpp"

#include <map>

namespace kinetic {

SceneRenames merge_scene(PlanningScene& scene, const PlanningScene& extra,
                         const std::function<bool(const std::string&)>& taken) {
  PlanningScene merged = scene;  // the whole merge or nothing
  SceneRenames renames;
  std::map<std::string, std::string> new_name;
  const auto used = [&](const std::string& name) {
    return merged.has_obstacle(name) || merged.has_attached(name) || (taken && taken(name));
  };
  const auto free_name = [&](const std::string& name) {
    if (!used(name)) return name;
    for (int n = 2;; ++n) {
      const std::string candidate = name + "_" + std::to_string(n);
      if (!used(candidate)) {
        renames.emplace_back(name, candidate);
        return candidate;
      }
    }
  };
  for (const Obstacle& obstacle : extra.obstacles()) {
    const std::string name = free_name(obstacle.name);
    new_name[obstacle.name] = name;
    merged.add_obstacle(name, obstacle.shape, obstacle.pose);
  }
  for (AttachedObject object : extra.attached_objects()) {
    const std::string name = free_name(object.name);
    new_name[object.name] = name;
    object.name = name;
    merged.add_attached(object);
  }
  const auto renamed = [&](const std::string& name) {
    const auto it = new_name.find(name);
    return it == new_name.end() ? name : it->second;  // a link keeps its name
  };
  for (const auto& [pair, allowed] : extra.overrides()) {
    if (allowed)
      merged.allow(renamed(pair.first), renamed(pair.second));
    else
      merged.disallow(renamed(pair.first), renamed(pair.second));
  }
  scene = std::move(merged);
  return renames;
}

}  // namespace kinetic
