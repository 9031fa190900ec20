#include "engine/collision/cover_check.hpp"

#include <algorithm>
#include <cmath>

namespace kinetic {
namespace {

// Beyond this distance from the origin single precision rounds sphere centres by more than the
// slack the cover's radii carry (collision_world.cpp: kCoverSlack): the test says "cannot tell".
constexpr double kMaxCoverCoordinate = 50.0;  // m

// Slot m's spheres in the world frame at the state's poses, computed once per pose update.
bool place_cover(const CollisionWorld& world, const CollisionState& state, std::size_t m) {
  if (state.cover_stamp[m] == state.pose_stamp) return state.cover_usable[m] != 0;
  state.cover_stamp[m] = state.pose_stamp;
  const Pose& pose = state.pose(world.moving_bodies[m]);
  const bool usable =
      pose.matrix().allFinite() && pose.translation().cwiseAbs().maxCoeff() < kMaxCoverCoordinate;
  state.cover_usable[m] = usable ? 1 : 0;
  if (!usable) return false;
  const Eigen::Matrix3f r = pose.linear().cast<float>();
  const Eigen::Vector3f t = pose.translation().cast<float>();
  for (std::size_t i = world.cover_begin[m]; i < world.cover_begin[m + 1]; ++i) {
    const float x = world.cover_x[i], y = world.cover_y[i], z = world.cover_z[i];
    state.cover_x[i] = r(0, 0) * x + r(0, 1) * y + r(0, 2) * z + t.x();
    state.cover_y[i] = r(1, 0) * x + r(1, 1) * y + r(1, 2) * z + t.y();
    state.cover_z[i] = r(2, 0) * x + r(2, 1) * y + r(2, 2) * z + t.z();
  }
  return true;
}

}  // namespace

bool cover_clear_of_obstacle(const CollisionWorld& world, const CollisionState& state,
                             std::size_t m, const CollisionWorld::ObstacleFrame& frame,
                             double padding) {
  if (!frame.shape || !has_cover(world, m) || !place_cover(world, state, m)) return false;
  if (frame.origin.cwiseAbs().maxCoeff() >= kMaxCoverCoordinate) return false;
  const std::size_t begin = world.cover_begin[m], end = world.cover_begin[m + 1];
  const float* x = state.cover_x.data();
  const float* y = state.cover_y.data();
  const float* z = state.cover_z.data();
  const float* radius = world.cover_r.data();
  const Eigen::Matrix3f to_local = frame.to_local.cast<float>();
  const Eigen::Vector3f origin = frame.origin.cast<float>();
  const auto p = static_cast<float>(padding);
  const Shape& shape = *frame.shape;
  // Each loop keeps the smallest clearance (distance minus radius and padding) with no branch:
  // the compiler runs it over several spheres at once.
  float nearest = 1.0f;
  switch (shape.type) {
    case Shape::Type::Box: {
      const float hx = static_cast<float>(shape.box_size.x() / 2),
                  hy = static_cast<float>(shape.box_size.y() / 2),
                  hz = static_cast<float>(shape.box_size.z() / 2);
      for (std::size_t i = begin; i < end; ++i) {
        const float dx = x[i] - origin.x(), dy = y[i] - origin.y(), dz = z[i] - origin.z();
        const float lx = to_local(0, 0) * dx + to_local(0, 1) * dy + to_local(0, 2) * dz;
        const float ly = to_local(1, 0) * dx + to_local(1, 1) * dy + to_local(1, 2) * dz;
        const float lz = to_local(2, 0) * dx + to_local(2, 1) * dy + to_local(2, 2) * dz;
        const float qx = std::max(std::abs(lx) - hx, 0.0f), qy = std::max(std::abs(ly) - hy, 0.0f),
                    qz = std::max(std::abs(lz) - hz, 0.0f);
        // Outside distance squared against (radius + padding) squared; inside the box it is 0.
        const float reach = radius[i] + p;
        nearest = std::min(nearest, qx * qx + qy * qy + qz * qz - reach * reach);
      }
      return nearest > 0.0f;
    }
    case Shape::Type::Cylinder: {
      const float cr = static_cast<float>(shape.radius), hz = static_cast<float>(shape.length / 2);
      for (std::size_t i = begin; i < end; ++i) {
        const float dx = x[i] - origin.x(), dy = y[i] - origin.y(), dz = z[i] - origin.z();
        const float lx = to_local(0, 0) * dx + to_local(0, 1) * dy + to_local(0, 2) * dz;
        const float ly = to_local(1, 0) * dx + to_local(1, 1) * dy + to_local(1, 2) * dz;
        const float lz = to_local(2, 0) * dx + to_local(2, 1) * dy + to_local(2, 2) * dz;
        const float qr = std::max(std::sqrt(lx * lx + ly * ly) - cr, 0.0f),
                    qz = std::max(std::abs(lz) - hz, 0.0f);
        const float reach = radius[i] + p;
        nearest = std::min(nearest, qr * qr + qz * qz - reach * reach);
      }
      return nearest > 0.0f;
    }
    case Shape::Type::Sphere: {
      for (std::size_t i = begin; i < end; ++i) {
        const float dx = x[i] - origin.x(), dy = y[i] - origin.y(), dz = z[i] - origin.z();
        const float reach = radius[i] + p + static_cast<float>(shape.radius);
        nearest = std::min(nearest, dx * dx + dy * dy + dz * dz - reach * reach);
      }
      return nearest > 0.0f;
    }
    default:
      return false;
  }
}

bool cover_decides(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                   const CollisionWorld::ObstacleFrame& frame) {
  if (!frame.shape || !has_cover(world, m) || !place_cover(world, state, m)) return false;
  if (frame.origin.cwiseAbs().maxCoeff() >= kMaxCoverCoordinate) return false;
  const Shape::Type type = frame.shape->type;
  return type == Shape::Type::Box || type == Shape::Type::Cylinder || type == Shape::Type::Sphere;
}

bool covers_apart(const CollisionWorld& world, const CollisionState& state, std::size_t ma,
                  std::size_t mb, double padding) {
  if (!has_cover(world, ma) || !has_cover(world, mb) || !place_cover(world, state, ma) ||
      !place_cover(world, state, mb))
    return false;
  const float* x = state.cover_x.data();
  const float* y = state.cover_y.data();
  const float* z = state.cover_z.data();
  const float* radius = world.cover_r.data();
  const auto p = static_cast<float>(padding);
  const std::size_t b_begin = world.cover_begin[mb], b_end = world.cover_begin[mb + 1];
  for (std::size_t i = world.cover_begin[ma]; i < world.cover_begin[ma + 1]; ++i) {
    const float ax = x[i], ay = y[i], az = z[i], ar = radius[i] + p;
    float nearest = 1.0f;
    for (std::size_t j = b_begin; j < b_end; ++j) {
      const float dx = ax - x[j], dy = ay - y[j], dz = az - z[j];
      const float reach = ar + radius[j];
      nearest = std::min(nearest, dx * dx + dy * dy + dz * dz - reach * reach);
    }
    if (!(nearest > 0.0f)) return false;
  }
  return true;
}

}  // namespace kinetic
