#pragma once
// Picking: the instance (link, obstacle, ...) under a ray, by ray/triangle tests on the CPU copy of
// each mesh. Overlay instances (gizmo) are skipped: use pick_gizmo() first, then pick().
#include <cstddef>
#include <optional>

#include "viewer/camera.hpp"
#include "viewer/mesh_library.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::viewer {

struct PickHit {
  uint32_t pick_id = 0;
  size_t instance = 0;  // index into scene.instances
  float distance = 0;   // along the ray, world units
  Vec3 point = Vec3::Zero();
};

// Nearest pickable instance (pick_id != 0, not an overlay) hit by the ray.
std::optional<PickHit> pick(const RenderScene& scene, const MeshLibrary& meshes, const Ray& ray);

}  // namespace kinetic::viewer
