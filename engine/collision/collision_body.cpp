#include "engine/collision/collision_body.hpp"

#include <fcl/geometry/shape/box.h>
#include <fcl/geometry/shape/cylinder.h>
#include <fcl/geometry/shape/halfspace.h>
#include <fcl/geometry/shape/sphere.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <string>
#include <unordered_map>

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

namespace {

std::shared_ptr<const CollisionBody> build_collision_body(
    const std::string& name, const std::vector<std::pair<Shape, Pose>>& shapes,
    const std::vector<std::shared_ptr<const CollisionMesh>>& meshes, SphereResolution resolution,
    bool with_cover) {
  auto body = std::make_shared<CollisionBody>();
  body->name = name;
  for (const auto& entry : shapes)
    if (entry.first.type == Shape::Type::HalfSpace && shapes.size() > 1)
      throw Error(ErrorCode::InvalidValue,
                  "collision body '" + name + "': a half-space must be the body's only shape");
  std::vector<PlacedShape> placed;
  bool has_half_space = false;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const auto& [shape, pose] = shapes[i];
    FclPart part;
    part.shape = shape;
    part.pose = pose;
    part.radius = bounding_radius(shape);
    if (shape.type == Shape::Type::Mesh) {
      part.mesh = meshes[i];  // its BVH is built on first use
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
  if (with_cover && !has_half_space && !placed.empty())
    body->cover = cover_with_spheres(placed, kLinkCover);
  body->single_primitive = shapes.size() == 1 && shapes.front().first.type != Shape::Type::Mesh;
  body->simple_primitives =
      !shapes.empty() && std::all_of(shapes.begin(), shapes.end(), [](const auto& entry) {
        const Shape::Type type = entry.first.type;
        return type == Shape::Type::Box || type == Shape::Type::Cylinder ||
               type == Shape::Type::Sphere;
      });
  body->has_mesh = has_mesh;
  body->has_half_space = has_half_space;
  if (has_half_space) {
    body->extent = std::numeric_limits<double>::infinity();
  } else if (!body->tree.empty()) {
    const auto& root = body->tree.root();
    body->extent = root.center.norm() + root.radius;
  }
  return body;
}

// Bodies already built, by their name, shapes, poses and meshes: a robot's link bodies (their
// sphere trees and covers) are built once rather than once per checker (each planning request,
// each collision-matrix run and the studio's monitors make one; the PR2's 82 links took longer to
// build than to plan with). The most recent stay a while after their last user is gone; a mesh
// read again (its file changed) is another pointer, so another body.
struct BodyCache {
  std::mutex mutex;
  std::unordered_map<std::string, std::weak_ptr<const CollisionBody>> entries;
  std::deque<std::shared_ptr<const CollisionBody>> retained;  // oldest first
  std::size_t retained_triangles = 0;
  std::size_t purge_at = 2048;  // entries: forget the expired ones (doubling keeps it linear)
};
// Kept after their last user: at most this many bodies, holding at most this many mesh triangles
// (an industrial arm's links hold a million with their BVHs' hundreds of MB).
constexpr std::size_t kRetainedBodies = 512;
constexpr std::size_t kRetainedBodyTriangles = 1000000;

std::size_t mesh_triangles(const CollisionBody& body) {
  std::size_t count = 0;
  for (const FclPart& part : body.parts) count += part.mesh ? part.mesh->triangles.size() : 0;
  return count;
}

BodyCache& body_cache() {
  static BodyCache instance;
  return instance;
}

template <typename T>
void append_bytes(std::string& key, const T& value) {
  key.append(reinterpret_cast<const char*>(&value), sizeof value);
}

std::string body_key(const std::string& name, const std::vector<std::pair<Shape, Pose>>& shapes,
                     const std::vector<std::shared_ptr<const CollisionMesh>>& meshes,
                     SphereResolution resolution, bool with_cover) {
  std::string key = name;
  key.push_back('\0');
  append_bytes(key, resolution);
  append_bytes(key, with_cover);
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    const Shape& shape = shapes[i].first;
    append_bytes(key, shape.type);
    for (double v :
         {shape.box_size.x(), shape.box_size.y(), shape.box_size.z(), shape.radius, shape.length,
          shape.normal.x(), shape.normal.y(), shape.normal.z(), shape.offset})
      append_bytes(key, v);
    for (int k = 0; k < 16; ++k) append_bytes(key, shapes[i].second.matrix().data()[k]);
    append_bytes(key, meshes[i].get());
  }
  return key;
}

}  // namespace

std::shared_ptr<const CollisionBody> make_collision_body(
    const std::string& name, const std::vector<std::pair<Shape, Pose>>& shapes,
    SphereResolution resolution, bool with_cover) {
  std::vector<std::shared_ptr<const CollisionMesh>> meshes(shapes.size());
  for (std::size_t i = 0; i < shapes.size(); ++i)
    if (shapes[i].first.type == Shape::Type::Mesh) {
      shapes[i].first.validate();
      meshes[i] = load_collision_mesh(shapes[i].first.mesh_path, shapes[i].first.mesh_scale);
    }
  const std::string key = body_key(name, shapes, meshes, resolution, with_cover);
  BodyCache& cache = body_cache();
  {
    std::lock_guard<std::mutex> lock(cache.mutex);
    if (auto found = cache.entries.find(key); found != cache.entries.end())
      if (auto body = found->second.lock()) return body;
  }
  // Built outside the lock: another thread may build the same body meanwhile (the same result).
  auto body = build_collision_body(name, shapes, meshes, resolution, with_cover);
  std::lock_guard<std::mutex> lock(cache.mutex);
  if (cache.entries.size() >= cache.purge_at) {
    std::erase_if(cache.entries, [](const auto& item) { return item.second.expired(); });
    cache.purge_at = std::max<std::size_t>(2048, 2 * cache.entries.size());
  }
  cache.entries[key] = body;
  cache.retained.push_back(body);
  cache.retained_triangles += mesh_triangles(*body);
  while (cache.retained.size() > 1 && (cache.retained.size() > kRetainedBodies ||
                                       cache.retained_triangles > kRetainedBodyTriangles)) {
    cache.retained_triangles -= mesh_triangles(*cache.retained.front());
    cache.retained.pop_front();
  }
  return body;
}

}  // namespace kinetic
