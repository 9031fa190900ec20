#pragma once
// Display meshes with fewer triangles. lavapipe shades vertices on one thread, so a robot's CAD
// meshes (the Panda's DAE files: 135k triangles) cost more per frame in vertex work than in pixels.
// simplify_for_display() collapses edges (meshoptimizer) while the surface moves by at most
// `max_error` times the mesh's size, keeping hard edges and colour seams, then orders triangles and
// vertices for the vertex cache and drops unreferenced vertices.
#include "viewer/mesh_data.hpp"

namespace kinetic::viewer {

// Default 1e-3: 0.15 mm on a 15 cm link, below a pixel of a full-screen robot at 4K.
MeshData simplify_for_display(MeshData mesh, float max_error = 1e-3f);

}  // namespace kinetic::viewer
