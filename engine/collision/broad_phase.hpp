#pragma once
// The scene checks' broad phase: which obstacles may come near a sphere. The flat sphere test
// (SphereSet) for up to kFlatBroadPhase bounded obstacles, else the obstacle tree, then every
// unbounded obstacle (half-spaces). Shared by the state check and the lane check.
#include "engine/collision/collision_world.hpp"

namespace kinetic {

// Up to this many bounded obstacles the flat sphere test beats the tree walk (measured on the
// Panda: 100 obstacles, 11 links).
inline constexpr std::size_t kFlatBroadPhase = 512;

// Whether the flat sphere test serves a query centred at `center`.
inline bool flat_broad_phase(const SphereSet& spheres, const Vector3& center) {
  return spheres.size() <= kFlatBroadPhase && spheres.usable() &&
         center.cwiseAbs().maxCoeff() <= SphereSet::kMaxCoordinate;
}

// Whether `near` holds for some obstacle whose bounds come within `radius` + `padding` of
// `center` (every such obstacle is offered until one holds; a few beyond may be offered too).
template <class Near>
bool any_obstacle_near(const SphereSet& spheres, const ObstacleTree& tree,
                       const std::vector<int>& unbounded, const Vector3& center, double radius,
                       double padding, const Near& near) {
  if (flat_broad_phase(spheres, center) ? spheres.any_near(center, radius + padding, near)
                                        : tree.any_near(center, radius, padding, near))
    return true;
  for (const int o : unbounded)
    if (near(o)) return true;
  return false;
}

}  // namespace kinetic
