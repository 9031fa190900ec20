#pragma once
// Inner spheres: a few balls that lie wholly inside a closed mesh's volume. A solid obstacle that
// reaches into one of them and cannot fit inside the mesh has points inside the mesh and outside
// it, so it meets the mesh's surface: a collision proven with one distance, where a bar through
// the middle of a link (between the hull vertices that witness_check tests) sent the pair to the
// sphere walk and the leaf triangles every time.
#include <array>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

struct InnerSphere {
  Vector3 center = Vector3::Zero();  // mesh frame
  double radius = 0.0;
};

// Meshes with more triangles than this go without (the search below reads every triangle once
// per candidate centre).
inline constexpr std::size_t kMaxInnerSphereTriangles = 20000;

// Up to `count` inner spheres of the mesh, largest first, spread over its volume (each centre
// outside the spheres chosen before). Empty where the mesh is not closed: each edge must border
// exactly two triangles, in opposite directions, once vertices at the same position are joined.
// Every centre is confirmed inside by its winding number, and every radius is the centre's
// distance to the nearest triangle less a relative slack.
std::vector<InnerSphere> inner_spheres(const std::vector<Vector3>& vertices,
                                       const std::vector<std::array<int, 3>>& triangles,
                                       std::size_t count);

// Whether the triangles close a volume (the test inner_spheres makes first).
bool mesh_is_closed(const std::vector<Vector3>& vertices,
                    const std::vector<std::array<int, 3>>& triangles);

// Whether the triangles form one piece (each reaches every other through shared corners, once
// vertices at the same position are joined): a closed mesh of one piece bounds one volume whose
// surface is connected.
bool mesh_is_one_piece(const std::vector<Vector3>& vertices,
                       const std::vector<std::array<int, 3>>& triangles);

}  // namespace kinetic
