#pragma once
// Back-face culling only where it is safe: on closed, consistently wound, outward-facing shells.
//
// Robot meshes are not reliably closed, so the renderer draws both sides of every triangle. But
// most parts of a mesh are closed shells (every edge shared by exactly two triangles that run it in
// opposite directions, positive enclosed volume); seen from outside, their back faces are always
// hidden behind their front faces. Culling them halves the triangles a CPU rasterizer (lavapipe)
// sets up and rasterizes for those parts without changing a pixel.
#include <cstdint>
#include <vector>

#include "viewer/mesh_data.hpp"

namespace kinetic::viewer {

// Reorders `indices` (a triangle list over `vertices`) so that the triangles of closed,
// outward-facing shells come first; returns how many indices that prefix holds (0: none). Shells
// are connected by shared positions (vertices split by normal or colour still connect).
uint32_t order_closed_shells_first(const std::vector<MeshVertex>& vertices,
                                   std::vector<uint32_t>& indices);

}  // namespace kinetic::viewer
