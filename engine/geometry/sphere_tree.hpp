#pragma once
// Conservative sphere model of a body: a binary tree of spheres built by splitting the body's
// geometry (mesh triangles, cells of solid primitives) at the median. Every node's sphere covers
// all of the geometry below it, so separated spheres prove separated geometry. Every node also
// records `anchor`: the distance from its centre to a point that belongs to the geometry, so two
// nodes whose centres are closer than (threshold - anchor_a - anchor_b) prove the geometry is
// within `threshold` — the "clearly colliding" answer.
#include <memory>
#include <vector>

#include "engine/geometry/collision_mesh.hpp"
#include "engine/geometry/shape.hpp"

namespace kinetic {

enum class SphereResolution { Coarse, Default, Fine };

// Largest leaf radius for each resolution (m): coarse 6 cm, default 3 cm, fine 1.5 cm.
double leaf_radius(SphereResolution resolution);
const char* to_string(SphereResolution resolution);

// A shape placed in a body frame; meshes come with their loaded data.
struct PlacedShape {
  Shape shape;
  Pose pose = Pose::Identity();
  std::shared_ptr<const CollisionMesh> mesh;  // Mesh shapes only
};

struct SphereNode {
  Vector3 center = Vector3::Zero();
  double radius = 0.0;
  double anchor = 0.0;   // distance from center to a point of the geometry
  int first_child = -1;  // children at first_child and first_child + 1; -1 for a leaf
  // Leaves of a triangle tree: their triangles are triangles()[first_triangle, end_triangle).
  int first_triangle = 0, end_triangle = 0;
  bool leaf() const { return first_child < 0; }
};

// A piece of a mesh triangle (long triangles are split to fit the leaves; the pieces of one
// triangle cover exactly that triangle) with its bounding sphere, in the body frame.
struct TreeTriangle {
  Vector3 a, b, c;
  Vector3 center;
  double radius;
};

struct Sphere {
  Vector3 center = Vector3::Zero();
  double radius = 0.0;
};

class SphereTree {
 public:
  // Half-spaces have no finite cover and are rejected with Error(Unsupported).
  static SphereTree build(const std::vector<PlacedShape>& shapes, SphereResolution resolution);

  bool empty() const { return nodes_.empty(); }
  const std::vector<SphereNode>& nodes() const { return nodes_; }  // nodes()[0] is the root
  const SphereNode& root() const { return nodes_.front(); }
  std::vector<Sphere> leaves() const;
  int depth() const { return depth_; }
  // True when the geometry is all mesh triangles: then every leaf lists the triangles it covers
  // and exact answers can be computed from the leaves the sphere tier could not decide.
  bool has_triangles() const { return !triangles_.empty(); }
  const std::vector<TreeTriangle>& triangles() const { return triangles_; }

 private:
  std::vector<SphereNode> nodes_;
  std::vector<TreeTriangle> triangles_;
  int depth_ = 0;
};

}  // namespace kinetic
