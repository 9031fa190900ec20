#include "engine/collision/witness_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "engine/collision/collision_body.hpp"
#include "engine/collision/lane_math.hpp"

KINETIC_LANES_FUSE_BEGIN

namespace kinetic {
namespace {

// Beyond this distance from the box single precision rounds more than kWitnessSlack covers.
constexpr double kMaxWitnessCoordinate = kMaxSinglePrecisionCoordinate;
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

// Points of a solid primitive (its frame) a witness may be: a box's corners, a cylinder's rims
// (eight points each), a sphere's poles, and each one's centre. Any point of the solid proves the
// body colliding where it lies inside an obstacle, as a mesh's hull vertex does.
std::vector<Vector3> solid_witness_candidates(const Shape& shape) {
  std::vector<Vector3> points{Vector3::Zero()};
  switch (shape.type) {
    case Shape::Type::Box:
      for (int i = 0; i < 8; ++i)
        points.emplace_back((i & 1 ? 0.5 : -0.5) * shape.box_size.x(),
                            (i & 2 ? 0.5 : -0.5) * shape.box_size.y(),
                            (i & 4 ? 0.5 : -0.5) * shape.box_size.z());
      break;
    case Shape::Type::Cylinder:
      for (const double z : {-0.5 * shape.length, 0.5 * shape.length})
        for (int i = 0; i < 8; ++i) {
          const double angle = i * (std::numbers::pi / 4.0);
          points.emplace_back(shape.radius * std::cos(angle), shape.radius * std::sin(angle), z);
        }
      break;
    case Shape::Type::Sphere:
      for (int axis = 0; axis < 3; ++axis)
        for (const double sign : {-1.0, 1.0})
          points.push_back(sign * shape.radius * Vector3::Unit(axis));
      break;
    case Shape::Type::Mesh:
    case Shape::Type::HalfSpace:
      return {};
  }
  return points;
}

// One witness_within's points and obstacle, in single precision in the obstacle's frame.
struct WitnessScan {
  float r[3][3], t[3];  // body frame -> the obstacle's frame
  const float *x, *y, *z;
  std::size_t begin, end;
  const float *ix, *iy, *iz, *ir;
  std::size_t inner_begin, inner_end;
  float reach;    // the padding less the slack
  bool box;       // else a cylinder along z
  float half[3];  // box: half extents; cylinder: (radius, -, half length)
};

// Distance (squared) from the points to the primitive and their depth inside it.
[[gnu::always_inline]] inline void place_in_primitive(const WitnessScan& s, LaneF x, LaneF y,
                                                      LaneF z, LaneF& outside_squared,
                                                      LaneF& depth) {
  const LaneF lx = (s.r[0][0] * x + s.r[0][1] * y) + (s.r[0][2] * z + s.t[0]);
  const LaneF ly = (s.r[1][0] * x + s.r[1][1] * y) + (s.r[1][2] * z + s.t[1]);
  const LaneF az = lane_abs((s.r[2][0] * x + s.r[2][1] * y) + (s.r[2][2] * z + s.t[2]));
  if (s.box) {
    const LaneF ax = lane_abs(lx), ay = lane_abs(ly);
    const LaneF qx = lane_max0(ax - s.half[0]), qy = lane_max0(ay - s.half[1]),
                qz = lane_max0(az - s.half[2]);
    outside_squared = qx * qx + qy * qy + qz * qz;
    const LaneF dx = s.half[0] - ax, dy = s.half[1] - ay, dz = s.half[2] - az;
    depth = dx < dy ? (dx < dz ? dx : dz) : (dy < dz ? dy : dz);
  } else {
    const LaneF radial = lane_sqrt(lx * lx + ly * ly);
    const LaneF qr = lane_max0(radial - s.half[0]), qz = lane_max0(az - s.half[2]);
    outside_squared = qr * qr + qz * qz;
    const LaneF dr = s.half[0] - radial, dz = s.half[2] - az;
    depth = dr < dz ? dr : dz;
  }
}

// Eight points at a time (the world's arrays are padded for the last loads); lanes past a
// range's end are masked off.
[[gnu::always_inline]] inline bool scan_body(const WitnessScan& s) {
  const LaneI lane = {0, 1, 2, 3, 4, 5, 6, 7};
  const float reach_squared = s.reach > 0.0f ? s.reach * s.reach : -1.0f;
  LaneI hit{};
  LaneF x, y, z, outside, depth;
  for (std::size_t i = s.begin; i < s.end; i += kLanes) {
    std::memcpy(&x, s.x + i, sizeof(x));
    std::memcpy(&y, s.y + i, sizeof(y));
    std::memcpy(&z, s.z + i, sizeof(z));
    place_in_primitive(s, x, y, z, outside, depth);
    hit |= ((depth > kWitnessSlack) | (outside < reach_squared)) &
           (lane < static_cast<int>(s.end - i));
  }
  for (std::size_t i = s.inner_begin; i < s.inner_end; i += kLanes) {
    std::memcpy(&x, s.ix + i, sizeof(x));
    std::memcpy(&y, s.iy + i, sizeof(y));
    std::memcpy(&z, s.iz + i, sizeof(z));
    LaneF radius;
    std::memcpy(&radius, s.ir + i, sizeof(radius));
    place_in_primitive(s, x, y, z, outside, depth);
    const LaneF limit = lane_max0(radius + s.reach);
    hit |= (outside < limit * limit) & (lane < static_cast<int>(s.inner_end - i));
  }
  return lane_bits(hit) != 0;
}

bool scan_portable(const WitnessScan& s) {
  return scan_body(s);
}
#ifdef KINETIC_LANES_X86
[[gnu::target(KINETIC_LANES_TARGET)]] bool scan_avx2(const WitnessScan& s) {
  return scan_body(s);
}
#endif

}  // namespace

void choose_witnesses(CollisionWorld& world) {
  world.witness_begin.assign(1, 0);
  world.witness_x.clear();
  world.witness_y.clear();
  world.witness_z.clear();
  world.vertex_begin.assign(1, 0);
  world.vertex_x.clear();
  world.vertex_y.clear();
  world.vertex_z.clear();
  world.inner_begin.assign(1, 0);
  world.witnesses_on_one_surface.clear();
  world.inner_x.clear();
  world.inner_y.clear();
  world.inner_z.clear();
  world.inner_r.clear();
  for (const int b : world.moving_bodies) {
    // The hulls' vertices of the body's meshes and points of its solids, in the body frame
    // (state.pose's: an attached object's pose has its offset already).
    std::vector<Vector3> vertices;
    for (const FclPart& part : world.bodies[static_cast<std::size_t>(b)].body->parts) {
      if (!part.mesh) {
        for (const Vector3& p : solid_witness_candidates(part.shape))
          vertices.push_back(part.pose * p);
        continue;
      }
      const std::vector<Vector3>& hull =
          part.mesh->hull.vertices.empty() ? part.mesh->vertices : part.mesh->hull.vertices;
      // A hull Qhull gave back unreduced (a scan of a million points) is sampled evenly first:
      // the spread below reads every candidate once per witness, at every scene change.
      const std::size_t stride = hull.size() / kMaxWitnessCandidates + 1;
      for (std::size_t i = 0; i < hull.size(); i += stride) vertices.push_back(part.pose * hull[i]);
    }
    // A point beyond kMaxWitnessCoordinate of its body's origin would be rounded in single
    // precision by more than the slack: such a (strange) body goes without it.
    const auto near_origin = [](const Vector3& p) {
      return p.cwiseAbs().maxCoeff() < kMaxWitnessCoordinate;
    };
    for (const Vector3& w : spread_points(vertices, kWitnessesPerBody)) {
      if (!near_origin(w)) continue;
      world.witness_x.push_back(static_cast<float>(w.x()));
      world.witness_y.push_back(static_cast<float>(w.y()));
      world.witness_z.push_back(static_cast<float>(w.z()));
    }
    world.witness_begin.push_back(world.witness_x.size());
    for (const Vector3& v : vertices) {
      if (!near_origin(v)) continue;
      world.vertex_x.push_back(static_cast<float>(v.x()));
      world.vertex_y.push_back(static_cast<float>(v.y()));
      world.vertex_z.push_back(static_cast<float>(v.z()));
    }
    world.vertex_begin.push_back(world.vertex_x.size());
    const auto& parts = world.bodies[static_cast<std::size_t>(b)].body->parts;
    world.witnesses_on_one_surface.push_back(
        parts.size() == 1 && parts.front().mesh && parts.front().mesh->one_closed_piece ? 1 : 0);
    for (const FclPart& part : world.bodies[static_cast<std::size_t>(b)].body->parts) {
      if (!part.mesh) continue;
      for (const InnerSphere& sphere : part.mesh->inner_spheres) {
        const Vector3 c = part.pose * sphere.center;
        if (!near_origin(c) || !(sphere.radius < kMaxWitnessCoordinate)) continue;
        world.inner_x.push_back(static_cast<float>(c.x()));
        world.inner_y.push_back(static_cast<float>(c.y()));
        world.inner_z.push_back(static_cast<float>(c.z()));
        world.inner_r.push_back(static_cast<float>(sphere.radius));
      }
    }
    world.inner_begin.push_back(world.inner_x.size());
  }
  // Padding for the scan's last eight-point loads.
  for (std::vector<float>* column :
       {&world.witness_x, &world.witness_y, &world.witness_z, &world.vertex_x, &world.vertex_y,
        &world.vertex_z, &world.inner_x, &world.inner_y, &world.inner_z, &world.inner_r})
    column->resize(column->size() + kLanes, 0.0f);
}

namespace {
// The points [begin, end) of (x, y, z) and the inner spheres [inner_begin, inner_end) of a slot
// against the obstacle: whether one proves the pair colliding at the padding.
bool points_within(const CollisionWorld& world, const CollisionWorld::ObstacleFrame& frame,
                   const BodyInObstacle& placed, double padding, const float* x, const float* y,
                   const float* z, std::size_t begin, std::size_t end, std::size_t inner_begin,
                   std::size_t inner_end) {
  if ((begin == end && inner_begin == inner_end) || !frame.shape || !placed.usable) return false;
  const Shape::Type type = frame.shape->type;
  if (type != Shape::Type::Box && type != Shape::Type::Cylinder) return false;
  // Body frame to the box's frame in one transform: 9 multiply-adds a point.
  WitnessScan scan;
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col) scan.r[row][col] = placed.rotation[3 * row + col];
    scan.t[row] = placed.offset[row];
  }
  scan.x = x;
  scan.y = y;
  scan.z = z;
  scan.begin = begin;
  scan.end = end;
  scan.ix = world.inner_x.data();
  scan.iy = world.inner_y.data();
  scan.iz = world.inner_z.data();
  scan.ir = world.inner_r.data();
  scan.inner_begin = inner_begin;
  scan.inner_end = inner_end;
  scan.reach = static_cast<float>(padding) - kWitnessSlack;
  const Shape& shape = *frame.shape;
  scan.box = type == Shape::Type::Box;  // else a cylinder along its z axis
  primitive_half_sizes(shape, scan.half);
#ifdef KINETIC_LANES_X86
  const auto run = cpu_has_avx2_fma() ? &scan_avx2 : &scan_portable;
#else
  const auto run = &scan_portable;
#endif
  return run(scan);
}
}  // namespace

bool witness_within(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                    const CollisionWorld::ObstacleFrame& frame, double padding) {
  return witness_within(world, m, frame, body_in_obstacle(world, state, m, frame), padding);
}

bool witness_within(const CollisionWorld& world, std::size_t m,
                    const CollisionWorld::ObstacleFrame& frame, const BodyInObstacle& placed,
                    double padding) {
  // Inner spheres count only where the obstacle cannot lie inside the body.
  const std::size_t inner_begin = world.inner_begin[m];
  const std::size_t inner_end =
      frame.enclosing_radius >
              world.bodies[static_cast<std::size_t>(world.moving_bodies[m])].body->extent
          ? world.inner_begin[m + 1]
          : inner_begin;
  return points_within(world, frame, placed, padding, world.witness_x.data(),
                       world.witness_y.data(), world.witness_z.data(), world.witness_begin[m],
                       world.witness_begin[m + 1], inner_begin, inner_end);
}

bool hull_vertex_within(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                        const CollisionWorld::ObstacleFrame& frame, double padding) {
  return points_within(world, frame, body_in_obstacle(world, state, m, frame), padding,
                       world.vertex_x.data(), world.vertex_y.data(), world.vertex_z.data(),
                       world.vertex_begin[m], world.vertex_begin[m + 1], 0, 0);
}

namespace {

// Slot b's inner spheres and root sphere placed in slot a's body frame (where a's witnesses and
// inner spheres are), in single precision.
struct OtherInA {
  float x[kLanes], y[kLanes], z[kLanes], r[kLanes];  // inner spheres, radius less the slack
  std::size_t inner = 0;
  float root[3], root_reach = 0.0f;  // root sphere, radius plus the slack
};

bool place_other(const CollisionWorld& world, const CollisionState& state, std::size_t a,
                 std::size_t b, OtherInA& out) {
  const Pose b_in_a =
      state.pose(world.moving_bodies[a]).inverse() * state.pose(world.moving_bodies[b]);
  if (!b_in_a.matrix().allFinite() ||
      !(b_in_a.translation().cwiseAbs().maxCoeff() < kMaxWitnessCoordinate))
    return false;
  const std::size_t first = world.inner_begin[b];
  out.inner = std::min<std::size_t>(world.inner_begin[b + 1] - first, kLanes);
  for (std::size_t k = 0; k < kLanes; ++k) {
    const std::size_t i = first + std::min(k, out.inner - 1);
    const Vector3 c = b_in_a * Vector3(world.inner_x[i], world.inner_y[i], world.inner_z[i]);
    out.x[k] = static_cast<float>(c.x());
    out.y[k] = static_cast<float>(c.y());
    out.z[k] = static_cast<float>(c.z());
    out.r[k] = std::max(0.0f, world.inner_r[i] - kWitnessSlack);
  }
  const int body_b = world.moving_bodies[b];
  const Vector3 root = b_in_a * world.local_root_centers[static_cast<std::size_t>(body_b)];
  for (int r = 0; r < 3; ++r) out.root[r] = static_cast<float>(root[r]);
  out.root_reach =
      static_cast<float>(world.root_radii[static_cast<std::size_t>(body_b)]) + kWitnessSlack;
  return true;
}

// Over slot a's witnesses: whether one lies inside one of b's inner spheres, and whether one
// lies outside b's root sphere (so outside b).
void scan_witnesses(const CollisionWorld& world, std::size_t a, const OtherInA& b, bool& inside,
                    bool& outside) {
  const LaneI lane = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::size_t begin = world.witness_begin[a], end = world.witness_begin[a + 1];
  LaneI in{}, out{};
  for (std::size_t i = begin; i < end; i += kLanes) {
    LaneF x, y, z;
    std::memcpy(&x, world.witness_x.data() + i, sizeof(x));
    std::memcpy(&y, world.witness_y.data() + i, sizeof(y));
    std::memcpy(&z, world.witness_z.data() + i, sizeof(z));
    const LaneI valid = lane < static_cast<int>(end - i);
    const LaneF rx = x - b.root[0], ry = y - b.root[1], rz = z - b.root[2];
    out |= (rx * rx + ry * ry + rz * rz > b.root_reach * b.root_reach) & valid;
    for (std::size_t k = 0; k < b.inner; ++k) {
      const LaneF dx = x - b.x[k], dy = y - b.y[k], dz = z - b.z[k];
      in |= (dx * dx + dy * dy + dz * dz < b.r[k] * b.r[k]) & valid;
    }
  }
  inside = lane_bits(in) != 0;
  outside = lane_bits(out) != 0;
}

// Whether an inner sphere of slot a (in its own frame) overlaps one of b's, by the slack.
bool inner_spheres_overlap(const CollisionWorld& world, std::size_t a, const OtherInA& b) {
  const LaneI lane = {0, 1, 2, 3, 4, 5, 6, 7};
  LaneF bx, by, bz, br;
  std::memcpy(&bx, b.x, sizeof(bx));
  std::memcpy(&by, b.y, sizeof(by));
  std::memcpy(&bz, b.z, sizeof(bz));
  std::memcpy(&br, b.r, sizeof(br));
  LaneI overlap{};
  for (std::size_t i = world.inner_begin[a]; i < world.inner_begin[a + 1]; ++i) {
    const LaneF dx = bx - world.inner_x[i], dy = by - world.inner_y[i], dz = bz - world.inner_z[i];
    const LaneF reach = br + std::max(0.0f, world.inner_r[i] - kWitnessSlack);
    overlap |= (dx * dx + dy * dy + dz * dz < reach * reach) & (lane < static_cast<int>(b.inner));
  }
  return lane_bits(overlap) != 0;
}

}  // namespace

bool self_contact_witnessed(const CollisionWorld& world, const CollisionState& state,
                            std::size_t ma, std::size_t mb) {
  const auto usable = [&world](std::size_t m) {
    return world.witnesses_on_one_surface[m] && world.inner_begin[m + 1] > world.inner_begin[m] &&
           world.witness_begin[m + 1] > world.witness_begin[m];
  };
  if (!usable(ma) || !usable(mb)) return false;
  OtherInA b_in_a, a_in_b;
  if (!place_other(world, state, ma, mb, b_in_a) || !place_other(world, state, mb, ma, a_in_b))
    return false;
  bool a_inside_b = false, a_outside_b = false, b_inside_a = false, b_outside_a = false;
  scan_witnesses(world, ma, b_in_a, a_inside_b, a_outside_b);
  // A surface point of a inside b and another outside b: a's connected surface crosses b's.
  if (a_inside_b && a_outside_b) return true;
  scan_witnesses(world, mb, a_in_b, b_inside_a, b_outside_a);
  if (b_inside_a && b_outside_a) return true;
  // Their volumes overlap, and neither lies inside the other: b's surface enters a's volume (on
  // the way from the shared point out of b) and leaves it again, so it crosses a's surface.
  return a_outside_b && b_outside_a && inner_spheres_overlap(world, ma, b_in_a);
}

}  // namespace kinetic

KINETIC_LANES_FUSE_END
