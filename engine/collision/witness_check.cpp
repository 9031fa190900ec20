#include "engine/collision/witness_check.hpp"

#include <algorithm>
#include <cmath>

#include "engine/collision/collision_body.hpp"

namespace kinetic {
namespace {

// Beyond this distance from the box single precision rounds more than kWitnessSlack covers.
constexpr double kMaxWitnessCoordinate = 50.0;  // m
// m: what single precision's rounding of placing and comparing a point within
// kMaxWitnessCoordinate can shift it by, with room to spare. A witness proves a collision only
// when it lies this much deeper than the padding.
constexpr float kWitnessSlack = 2e-5f;
// Hull vertices per mesh the witnesses are chosen from at most.
constexpr std::size_t kMaxWitnessCandidates = 2048;

// Up to `count` of `points`, each the farthest from those chosen before (the first: the farthest
// from their centroid), so that they spread over the hull's extremes.
std::vector<Vector3> spread_points(const std::vector<Vector3>& points, std::size_t count) {
  count = std::min(count, points.size());
  if (count == 0) return {};
  Vector3 centroid = Vector3::Zero();
  for (const Vector3& p : points) centroid += p;
  centroid /= static_cast<double>(points.size());
  std::vector<double> nearest(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) nearest[i] = (points[i] - centroid).squaredNorm();
  std::vector<Vector3> chosen;
  while (chosen.size() < count) {
    const auto far = std::max_element(nearest.begin(), nearest.end()) - nearest.begin();
    const Vector3 next = points[static_cast<std::size_t>(far)];
    chosen.push_back(next);
    for (std::size_t i = 0; i < points.size(); ++i)
      nearest[i] = std::min(nearest[i], (points[i] - next).squaredNorm());
  }
  return chosen;
}

}  // namespace

void choose_witnesses(CollisionWorld& world) {
  world.witness_begin.assign(1, 0);
  world.witness_x.clear();
  world.witness_y.clear();
  world.witness_z.clear();
  world.inner_begin.assign(1, 0);
  world.inner_x.clear();
  world.inner_y.clear();
  world.inner_z.clear();
  world.inner_r.clear();
  for (const int b : world.moving_bodies) {
    // The hulls' vertices of the body's meshes, in the body frame (state.pose's: an attached
    // object's pose has its offset already).
    std::vector<Vector3> vertices;
    for (const FclPart& part : world.bodies[static_cast<std::size_t>(b)].body->parts) {
      if (!part.mesh) continue;
      const std::vector<Vector3>& hull =
          part.mesh->hull.vertices.empty() ? part.mesh->vertices : part.mesh->hull.vertices;
      // A hull Qhull gave back unreduced (a scan of a million points) is sampled evenly first:
      // the spread below reads every candidate once per witness, at every scene change.
      const std::size_t stride = hull.size() / kMaxWitnessCandidates + 1;
      for (std::size_t i = 0; i < hull.size(); i += stride) vertices.push_back(part.pose * hull[i]);
    }
    for (const Vector3& w : spread_points(vertices, kWitnessesPerBody)) {
      world.witness_x.push_back(static_cast<float>(w.x()));
      world.witness_y.push_back(static_cast<float>(w.y()));
      world.witness_z.push_back(static_cast<float>(w.z()));
    }
    world.witness_begin.push_back(world.witness_x.size());
    for (const FclPart& part : world.bodies[static_cast<std::size_t>(b)].body->parts) {
      if (!part.mesh) continue;
      for (const InnerSphere& sphere : part.mesh->inner_spheres) {
        const Vector3 c = part.pose * sphere.center;
        world.inner_x.push_back(static_cast<float>(c.x()));
        world.inner_y.push_back(static_cast<float>(c.y()));
        world.inner_z.push_back(static_cast<float>(c.z()));
        world.inner_r.push_back(static_cast<float>(sphere.radius));
      }
    }
    world.inner_begin.push_back(world.inner_x.size());
  }
}

bool witness_within(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                    const CollisionWorld::ObstacleFrame& frame, double padding) {
  const std::size_t begin = world.witness_begin[m], end = world.witness_begin[m + 1];
  // Inner spheres count only where the obstacle cannot lie inside the body.
  const std::size_t inner_begin = world.inner_begin[m];
  const std::size_t inner_end =
      frame.enclosing_radius >
              world.bodies[static_cast<std::size_t>(world.moving_bodies[m])].body->extent
          ? world.inner_begin[m + 1]
          : inner_begin;
  if ((begin == end && inner_begin == inner_end) || !frame.shape) return false;
  const Shape::Type type = frame.shape->type;
  if (type != Shape::Type::Box && type != Shape::Type::Cylinder) return false;
  const Pose& pose = state.pose(world.moving_bodies[m]);
  // Body frame to the box's frame in one transform: 9 multiply-adds a point.
  const Eigen::Matrix3d rotation = frame.to_local * pose.linear();
  const Vector3 shift = frame.to_local * (pose.translation() - frame.origin);
  if (!rotation.allFinite() || !(shift.cwiseAbs().maxCoeff() < kMaxWitnessCoordinate)) return false;
  const Eigen::Matrix3f r = rotation.cast<float>();
  const Eigen::Vector3f t = shift.cast<float>();
  const float* x = world.witness_x.data();
  const float* y = world.witness_y.data();
  const float* z = world.witness_z.data();
  const float* ix = world.inner_x.data();
  const float* iy = world.inner_y.data();
  const float* iz = world.inner_z.data();
  const float* ir = world.inner_r.data();
  // A point proves the pair colliding when it lies deeper than the slack inside the primitive,
  // or (a padding beyond the slack) nearer to it than padding - slack. No branch per point: the
  // compiler runs each loop over several at once.
  const float reach = static_cast<float>(padding) - kWitnessSlack;
  const float reach_squared = reach > 0.0f ? reach * reach : -1.0f;
  const Shape& shape = *frame.shape;
  bool hit = false;
  if (type == Shape::Type::Box) {
    const float hx = static_cast<float>(shape.box_size.x() / 2),
                hy = static_cast<float>(shape.box_size.y() / 2),
                hz = static_cast<float>(shape.box_size.z() / 2);
    for (std::size_t i = begin; i < end; ++i) {
      const float ax = std::abs(r(0, 0) * x[i] + r(0, 1) * y[i] + r(0, 2) * z[i] + t.x());
      const float ay = std::abs(r(1, 0) * x[i] + r(1, 1) * y[i] + r(1, 2) * z[i] + t.y());
      const float az = std::abs(r(2, 0) * x[i] + r(2, 1) * y[i] + r(2, 2) * z[i] + t.z());
      const float qx = std::max(ax - hx, 0.0f), qy = std::max(ay - hy, 0.0f),
                  qz = std::max(az - hz, 0.0f);
      const float depth = std::min(std::min(hx - ax, hy - ay), hz - az);
      hit |= (depth > kWitnessSlack) | (qx * qx + qy * qy + qz * qz < reach_squared);
    }
    for (std::size_t i = inner_begin; i < inner_end; ++i) {
      const float ax = std::abs(r(0, 0) * ix[i] + r(0, 1) * iy[i] + r(0, 2) * iz[i] + t.x());
      const float ay = std::abs(r(1, 0) * ix[i] + r(1, 1) * iy[i] + r(1, 2) * iz[i] + t.y());
      const float az = std::abs(r(2, 0) * ix[i] + r(2, 1) * iy[i] + r(2, 2) * iz[i] + t.z());
      const float qx = std::max(ax - hx, 0.0f), qy = std::max(ay - hy, 0.0f),
                  qz = std::max(az - hz, 0.0f);
      const float limit = std::max(ir[i] + reach, 0.0f);
      hit |= qx * qx + qy * qy + qz * qz < limit * limit;
    }
  } else {  // a cylinder along its z axis
    const float radius = static_cast<float>(shape.radius),
                half_length = static_cast<float>(shape.length / 2);
    for (std::size_t i = begin; i < end; ++i) {
      const float lx = r(0, 0) * x[i] + r(0, 1) * y[i] + r(0, 2) * z[i] + t.x();
      const float ly = r(1, 0) * x[i] + r(1, 1) * y[i] + r(1, 2) * z[i] + t.y();
      const float az = std::abs(r(2, 0) * x[i] + r(2, 1) * y[i] + r(2, 2) * z[i] + t.z());
      const float radial = std::sqrt(lx * lx + ly * ly);
      const float qr = std::max(radial - radius, 0.0f), qz = std::max(az - half_length, 0.0f);
      const float depth = std::min(radius - radial, half_length - az);
      hit |= (depth > kWitnessSlack) | (qr * qr + qz * qz < reach_squared);
    }
    for (std::size_t i = inner_begin; i < inner_end; ++i) {
      const float lx = r(0, 0) * ix[i] + r(0, 1) * iy[i] + r(0, 2) * iz[i] + t.x();
      const float ly = r(1, 0) * ix[i] + r(1, 1) * iy[i] + r(1, 2) * iz[i] + t.y();
      const float az = std::abs(r(2, 0) * ix[i] + r(2, 1) * iy[i] + r(2, 2) * iz[i] + t.z());
      const float qr = std::max(std::sqrt(lx * lx + ly * ly) - radius, 0.0f),
                  qz = std::max(az - half_length, 0.0f);
      const float limit = std::max(ir[i] + reach, 0.0f);
      hit |= qr * qr + qz * qz < limit * limit;
    }
  }
  return hit;
}

}  // namespace kinetic
