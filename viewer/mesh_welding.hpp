#pragma once
// Welding a triangle soup into an indexed mesh that shares its vertices.
//
// CAD exports (the Panda's DAE files, every STL file) give each triangle corner its own vertex with
// the face's normal: 3 vertices per triangle, which no exact join can merge. On a CPU rasterizer
// (lavapipe) the vertex shader and vertex fetch then run three times per triangle. Welding merges
// the corners that sit at the same position with the same colour when their normals are within a
// crease angle; the merged vertex gets the angle-weighted average of the corner normals. Curved
// surfaces become smooth-shaded, hard edges (above the crease angle) stay sharp, and meshes that
// already share vertices come out unchanged. About 6 times fewer vertices on the Panda.
#include <vector>

#include "viewer/mesh_data.hpp"

namespace kinetic::viewer {

// Corners whose normals differ by more than this keep separate vertices (a hard edge).
inline constexpr float kCreaseAngleDegrees = 35.0f;

// `corners` holds three vertices per triangle. Triangles with two corners at the same position
// (zero area) are dropped. Deterministic: vertices appear in the order of their first corner.
MeshData weld_triangle_soup(const std::vector<MeshVertex>& corners,
                            float crease_angle_degrees = kCreaseAngleDegrees);

}  // namespace kinetic::viewer
