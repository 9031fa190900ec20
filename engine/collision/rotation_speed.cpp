#include "engine/collision/rotation_speed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/geometry/collision_mesh.hpp"

namespace kinetic {

namespace {
// A half-space's normal counts as along the axis within this (1 - cos of the angle: about 1.4e-7
// rad, which moves the boundary by less than 0.15 um per metre from the axis per radian).
constexpr double kParallel = 1e-14;

double distance_from_line(const Vector3& point, const Vector3& origin, const Vector3& direction) {
  const Vector3 r = point - origin;
  return (r - r.dot(direction) * direction).norm();
}
}  // namespace

double rotation_speed(const Shape& shape, const Pose& pose, const Vector3& origin,
                      const Vector3& direction) {
  const Vector3 centre = pose.translation();
  const auto from_line = [&](const Vector3& p) { return distance_from_line(p, origin, direction); };
  switch (shape.type) {
    case Shape::Type::Sphere:
      return from_line(centre);
    case Shape::Type::Cylinder: {
      // Points farthest from the line: on a cap rim (the distance is convex along the axis).
      const Vector3 axis = pose.linear().col(2);
      const Vector3 half = 0.5 * shape.length * axis;
      const double farthest =
          std::max(from_line(centre + half), from_line(centre - half)) + shape.radius;
      // The turn splits into one about the cylinder's own axis through its centre (maps it onto
      // itself), the centre's own motion, and the difference of the two axes (a turn about the
      // centre at that rate).
      const Vector3 own = axis.dot(direction) >= 0.0 ? axis : Vector3(-axis);
      const double reach =
          std::sqrt(shape.radius * shape.radius + 0.25 * shape.length * shape.length);
      return std::min(farthest, from_line(centre) + (direction - own).norm() * reach);
    }
    case Shape::Type::Box: {
      double farthest = 0.0;
      for (int corner = 0; corner < 8; ++corner) {
        const Vector3 sign((corner & 1) ? 1.0 : -1.0, (corner & 2) ? 1.0 : -1.0,
                           (corner & 4) ? 1.0 : -1.0);
        farthest = std::max(farthest, from_line(pose * (0.5 * shape.box_size.cwiseProduct(sign))));
      }
      return farthest;
    }
    case Shape::Type::HalfSpace: {
      // Maps onto itself turning about any line along its normal (a floor under a vertical joint
      // axis); turning about any other line sweeps its unbounded boundary.
      const Vector3 normal = (pose.linear() * shape.normal).normalized();
      if (std::abs(std::abs(normal.dot(direction)) - 1.0) <= kParallel) return 0.0;
      break;
    }
    case Shape::Type::Mesh:
      break;
  }
  return std::numeric_limits<double>::infinity();
}

double rotation_speed(const CollisionBody& body, int part, const Pose& offset,
                      const Vector3& origin, const Vector3& direction) {
  double speed = 0.0;
  for (int p = 0; p < static_cast<int>(body.parts.size()); ++p) {
    if (part >= 0 && p != part) continue;
    const FclPart& piece = body.parts[static_cast<std::size_t>(p)];
    const Pose pose = offset * piece.pose;
    if (piece.mesh) {
      for (const Vector3& v : piece.mesh->vertices)
        speed = std::max(speed, distance_from_line(pose * v, origin, direction));
    } else {
      speed = std::max(speed, rotation_speed(piece.shape, pose, origin, direction));
    }
  }
  return speed;
}

}  // namespace kinetic
