#pragma once
// CollisionBody: everything the checker knows about one rigid body (a robot link, an attached
// object, an obstacle): its sphere tree for the fast tier and its FCL geometry for the exact tier,
// all in the body frame. Immutable after construction; share it between checkers and threads.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fcl/geometry/collision_geometry.h>

#include "engine/geometry/sphere_cover.hpp"
#include "engine/geometry/sphere_tree.hpp"

namespace kinetic {

struct FclPart {
  Shape shape;
  Pose pose = Pose::Identity();                       // in the body frame
  std::shared_ptr<fcl::CollisionGeometryd> geometry;  // primitives; null for meshes (see mesh)
  std::shared_ptr<const CollisionMesh> mesh;          // Mesh parts only
  // bounding_radius(shape), kept: the part-pair culls of every solid check ask it.
  double radius = 0.0;
  // What FCL queries take: a mesh's BVH is built on the first query that needs it.
  std::shared_ptr<fcl::CollisionGeometryd> fcl_geometry() const {
    return mesh ? mesh->bvh() : geometry;
  }
};

struct CollisionBody {
  std::string name;
  SphereTree tree;             // empty only for a lone half-space
  SphereCover cover;           // robot links only (make_collision_body's with_cover); else empty
  std::vector<FclPart> parts;  // exact geometry
  // A body made of one non-mesh primitive: the fast tier tests spheres against it analytically.
  bool single_primitive = false;
  // What the tiers ask of every pair they see, known at construction (the body is immutable):
  // the parts are all boxes, cylinders and spheres; some part is a mesh; some is a half-space.
  // Worked out per pair visit they were 2.4% of a plan's instructions (the built-in Panda among
  // 20 boxes).
  bool simple_primitives = false;
  bool has_mesh = false;
  bool has_half_space = false;
  // Radius around the body origin that holds all geometry (speed bounds); infinite for half-spaces.
  double extent = 0.0;
  bool empty() const { return parts.empty(); }
};

// A body made only of boxes, cylinders and spheres (a built-in arm's link, an obstacle, a finger):
// its parts are measured exactly by GJK.
inline bool all_simple_primitives(const CollisionBody& body) {
  return body.simple_primitives;
}

// Radius around a primitive's centre (its pose's origin) that holds it; 0 for meshes and
// half-spaces (callers check the type first).
double bounding_radius(const Shape& shape);

// Loads meshes (shared cache) and builds both tiers. Throws Error(MissingMesh) naming the file.
// with_cover: the body also gets its sphere cover (a robot link's, of meshes or of boxes and
// cylinders: the lanes' test, and for meshes the first test of its pairs). Thread-safe; the same
// name, shapes, poses and meshes give the body already built (the most recent stay cached after
// their last user is gone), so each link is built once per robot.
std::shared_ptr<const CollisionBody> make_collision_body(
    const std::string& name, const std::vector<std::pair<Shape, Pose>>& shapes,
    SphereResolution resolution, bool with_cover = false);

// FCL geometry of a shape (meshes through the shared cache, their BVH built now).
std::shared_ptr<fcl::CollisionGeometryd> make_fcl_geometry(
    const Shape& shape, std::shared_ptr<const CollisionMesh>* mesh_out = nullptr);

}  // namespace kinetic
