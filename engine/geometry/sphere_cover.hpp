#pragma once
// A sphere cover of a body's geometry: a few dozen spheres whose union holds every surface point
// (every triangle lies whole inside one sphere, so the cover is conservative: spheres clear of an
// obstacle prove the geometry clear of it), each sticking out of the geometry's convex hull by
// about `tolerance` at most. The spheres sit inside the body, not on its surface: a slice of a
// tube-shaped link is held by one sphere on its axis, where a surface tree needs a sphere per
// patch and sticks out by the patch's radius. This is the robot model the collision checks test
// first (as VAMP's spherized robots, but generated from the meshes and never smaller than them).
#include <vector>

#include "engine/geometry/sphere_tree.hpp"

namespace kinetic {

struct SphereCover {
  std::vector<Vector3> centers;  // in the body frame
  std::vector<double> radii;
  bool empty() const { return centers.empty(); }
  std::size_t size() const { return centers.size(); }
};

struct SphereCoverOptions {
  double tolerance =
      0.01;  // m: how far a sphere may stick out of the convex hull (measured on 96 directions)
  double min_radius = 0.012;      // m: spheres this small are kept whatever they stick out by
  std::size_t max_spheres = 400;  // beyond this many the cover is given up (empty)
};

// The cover of boxes, cylinders, spheres and meshes placed in a body frame (half-spaces have no
// finite cover: empty). Cylinders are covered through a circumscribed prism.
SphereCover cover_with_spheres(const std::vector<PlacedShape>& shapes,
                               const SphereCoverOptions& options = {});

}  // namespace kinetic
