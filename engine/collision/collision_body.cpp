#include "engine/collision/collision_body.hpp"

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/halfspace.h>
#include <fcl/geometry/shape/sphere.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/error.hpp"

namespace kinetic {

std::shared_ptr<fcl::CollisionGeometryd> make_fcl_geometry(
    const Shape& shape, std::shared_ptr<const CollisionMesh>* mesh_out) {
  shape.validate();
  switch (shape.type) {
    case Shape::Type::Box:
      return std::make_shared<fcl::Boxd>(shape.box_size);
    case Shape::Type::Cylinder:
      return std::make_shared<fcl::Cylinderd>(shape.radius, shape.length);
    case Shape::Type::Sphere:
      return std::make_shared<fcl::Sphered>(shape.radius);
    case Shape::Type::HalfSpace:
      return std::make_shared<fcl::Halfspaced>(shape.normal, shape.offset);
    case Shape::Type::Mesh: {
      auto mesh = load_collision_mesh(shape.mesh_path, shape.mesh_scale);
      if (mesh_out) *mesh_out = mesh;
      return mesh->bvh();  // shared: FCL only reads it during queries
    }
  }
  return nullptr;
}

bool all_simple_primitives(const CollisionBody& body) {
  if (body.parts.empty()) return false;
  for (const auto& part : body.parts) {
    const Shape::Type type = part.shape.type;
    if (type != Shape::Type::Box && type != Shape::Type::Cylinder && type != Shape::Type::Sphere)
      return false;
  }
  return true;
}

double bounding_radius(const Shape& shape) {
  switch (shape.type) {
    case Shape::Type::Box:
      return 0.5 * shape.box_size.norm();
    case Shape::Type::Cylinder:
      return std::sqrt(shape.radius * shape.radius + 0.25 * shape.length * shape.length);
    case Shape::Type::Sphere:
      return shape.radius;
    case Shape::Type::Mesh:
    case Shape::Type::HalfSpace:
      break;
  }
  return 0.0;
}

namespace {
// Links' covers stick out of their hulls by up to 3 cm. Measured on MotionBenchMaker's Panda: a
// 1 cm tolerance took 3,154 spheres for its 11 links, 2 cm 367, 3 cm 91; planning (10 problems a
// scene) was fastest from 3 cm on (4.5 cm no faster): a pair within the tolerance goes on to the
// exact tiers, and testing every sphere of a 100-sphere link against another's cost more than
// those tiers saved.
const SphereCoverOptions kLinkCover{0.03, 0.012, 400};
}  // namespace

std::shared_ptr<const CollisionBody> make_collision_body(
    const std::string& name, const std::vector<std::pair<Shape, Pose>>& shapes,
    SphereResolution resolution, bool with_cover) {
  auto body = std::make_shared<CollisionBody>();
  body->name = name;
  for (const auto& entry : shapes)
    if (entry.first.type == Shape::Type::HalfSpace && shapes.size() > 1)
      throw Error(ErrorCode::InvalidValue,
                  "collision body '" + name + "': a half-space must be the body's only shape");
  std::vector<PlacedShape> placed;
  bool has_half_space = false;
  for (const auto& [shape, pose] : shapes) {
    FclPart part;
    part.shape = shape;
    part.pose = pose;
    if (shape.type == Shape::Type::Mesh) {
      shape.validate();
      part.mesh = load_collision_mesh(shape.mesh_path, shape.mesh_scale);  // BVH on first use
    } else {
      part.geometry = make_fcl_geometry(shape);
    }
    body->parts.push_back(part);
    if (shape.type == Shape::Type::HalfSpace) {
      has_half_space = true;
      continue;
    }
    placed.push_back({shape, pose, part.mesh});
  }
  body->tree = SphereTree::build(placed, resolution);
  const bool has_mesh = std::any_of(placed.begin(), placed.end(),
                                    [](const PlacedShape& p) { return p.mesh != nullptr; });
  if (with_cover && has_mesh && !has_half_space)
    body->cover = cover_with_spheres(placed, kLinkCover);
  body->single_primitive = shapes.size() == 1 && shapes.front().first.type != Shape::Type::Mesh;
  if (has_half_space) {
    body->extent = std::numeric_limits<double>::infinity();
  } else if (!body->tree.empty()) {
    const auto& root = body->tree.root();
    body->extent = root.center.norm() + root.radius;
  }
  return body;
}

}  // namespace kinetic
