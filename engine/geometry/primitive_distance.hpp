#pragma once
// distance_to_primitive (shape.hpp) for the traversal hot loops: inline, so the per-node call
// compiles to the few operations of the shape at hand instead of an out-of-line call and switch.
#include <algorithm>
#include <cmath>

#include "engine/geometry/shape.hpp"

namespace kinetic {

// Unsigned distance from a point (shape frame) to a box, cylinder, sphere or half-space; 0
// inside. Meshes: NaN (callers check the shape first; distance_to_primitive throws instead).
inline double solid_point_distance(const Shape& shape, const Vector3& p) {
  switch (shape.type) {
    case Shape::Type::Box: {
      const double x = std::max(std::abs(p.x()) - 0.5 * shape.box_size.x(), 0.0);
      const double y = std::max(std::abs(p.y()) - 0.5 * shape.box_size.y(), 0.0);
      const double z = std::max(std::abs(p.z()) - 0.5 * shape.box_size.z(), 0.0);
      return std::sqrt(x * x + y * y + z * z);
    }
    case Shape::Type::Sphere:
      return std::max(p.norm() - shape.radius, 0.0);
    case Shape::Type::Cylinder: {
      // sqrt rather than std::hypot: the inputs are bounded lengths (no overflow to guard
      // against) and hypot's careful scaling was a tenth of the planner's validation time.
      const double radial = std::max(std::sqrt(p.x() * p.x() + p.y() * p.y()) - shape.radius, 0.0);
      const double axial = std::max(std::abs(p.z()) - 0.5 * shape.length, 0.0);
      return std::sqrt(radial * radial + axial * axial);
    }
    case Shape::Type::HalfSpace:
      return std::max(shape.normal.dot(p) - shape.offset, 0.0);
    case Shape::Type::Mesh:
      break;
  }
  return std::nan("");
}

}  // namespace kinetic
