#pragma once
// Collision meshes: triangles read with Assimp (STL, DAE, OBJ, ...) and their FCL BVH
// (OBBRSS). One shared instance per (file, scale): every robot, checker and thread that uses the
// same mesh shares the same immutable data.
//
// The FCL BVH is built on its first use, not on loading: the checker's own tiers (sphere trees
// with the triangles of their leaves) answer collision and distance queries, and FCL is asked
// only for penetration depths and for bodies that mix meshes with other shapes. For a
// 1M-triangle scan the BVH cost ~6 s and ~430 MB at every load.
#include <array>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <fcl/geometry/bvh/BVH_model.h>
#include <fcl/math/bv/OBBRSS.h>

#include "engine/core/types.hpp"
#include "engine/geometry/convex_hull.hpp"
#include "engine/geometry/inner_spheres.hpp"
#include "engine/geometry/point_columns.hpp"

namespace kinetic {

using MeshBvh = fcl::BVHModel<fcl::OBBRSSd>;

struct CollisionMesh {
  std::string path;
  Vector3 scale = Vector3::Ones();
  std::vector<Vector3> vertices;  // scaled, in the mesh frame
  std::vector<std::array<int, 3>> triangles;
  // The convex hull of the vertices holds the mesh: GJK on its vertices proves a mesh apart from
  // another body in a few support searches where the triangles would be tested by the dozen.
  ConvexHull hull;
  PointColumns hull_columns;  // the same, for the support scan
  // Balls inside the volume the triangles close (none where they do not close one).
  std::vector<InnerSphere> inner_spheres;
  // Closed and of one piece (mesh_is_one_piece): its surface is connected.
  bool one_closed_piece = false;

  // The FCL BVH of the triangles, built by the first caller (thread-safe); never modified
  // afterwards (FCL only reads it during queries).
  std::shared_ptr<MeshBvh> bvh() const;
  bool bvh_built() const;  // for tests: whether some query has needed it yet

 private:
  mutable std::once_flag bvh_once_;
  mutable std::shared_ptr<MeshBvh> bvh_;
};

// Loads (or returns the cached) mesh. Thread-safe. A file changed on disk since (its time or size)
// is read again; the most recently read meshes stay cached a while after their last user is gone.
// Throws Error(MissingMesh) naming the file when it does not exist, cannot be parsed, or holds no
// triangles.
std::shared_ptr<const CollisionMesh> load_collision_mesh(const std::string& path,
                                                         const Vector3& scale = Vector3::Ones());

// Number of meshes currently cached (for tests of the sharing).
std::size_t collision_mesh_cache_size();

}  // namespace kinetic
