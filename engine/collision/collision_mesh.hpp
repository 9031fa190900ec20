#pragma once
// Collision meshes: triangles read with Assimp (STL, DAE, OBJ, ...) and their FCL BVH
// (OBBRSS). One shared instance per (file, scale): every robot, checker and thread that uses the
// same mesh shares the same immutable data.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBBRSS.h>

#include "engine/core/types.hpp"

namespace kinetic {

using MeshBvh = fcl::BVHModel<fcl::OBBRSSd>;

struct CollisionMesh {
  std::string path;
  Vector3 scale = Vector3::Ones();
  std::vector<Vector3> vertices;             // scaled, in the mesh frame
  std::vector<std::array<int, 3>> triangles;
  std::shared_ptr<MeshBvh> bvh;              // built once; never modified afterwards
};

// Loads (or returns the cached) mesh. Thread-safe. Throws Error(MissingMesh) naming the file when
// it does not exist, cannot be parsed, or holds no triangles.
std::shared_ptr<const CollisionMesh> load_collision_mesh(const std::string& path,
                                                         const Vector3& scale = Vector3::Ones());

// Number of meshes currently cached (for tests of the sharing).
std::size_t collision_mesh_cache_size();

}  // namespace kinetic
