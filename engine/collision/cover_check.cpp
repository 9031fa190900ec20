#include "engine/collision/cover_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

#include "engine/collision/lane_math.hpp"

KINETIC_LANES_FUSE_BEGIN

namespace kinetic {
namespace {

// Beyond this distance from the origin (against a primitive: from the primitive's centre) single
// precision rounds sphere centres by more than the slack the cover's radii carry
// (collision_world.cpp: kCoverSlack): the test says "cannot tell".
constexpr double kMaxCoverCoordinate = kMaxSinglePrecisionCoordinate;

// Lanes [0, count) of a mask (count may exceed kLanes).
[[gnu::always_inline]] inline LaneI first_lanes(std::size_t count) {
  const LaneI lane = {0, 1, 2, 3, 4, 5, 6, 7};
  return lane < static_cast<int>(std::min<std::size_t>(count, kLanes));
}

[[gnu::always_inline]] inline LaneF load(const float* p) {
  LaneF v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

// The spheres [begin, end) placed by the rotation r (row-major) and translation t, eight at a time
// (the last store only writes the spheres of the range).
[[gnu::always_inline]] inline void place_body(const float* r, const float* t, const float* x,
                                              const float* y, const float* z, float* out_x,
                                              float* out_y, float* out_z, std::size_t begin,
                                              std::size_t end) {
  for (std::size_t i = begin; i < end; i += kLanes) {
    const LaneF px = load(x + i), py = load(y + i), pz = load(z + i);
    const LaneF wx = (r[0] * px + r[1] * py) + (r[2] * pz + t[0]);
    const LaneF wy = (r[3] * px + r[4] * py) + (r[5] * pz + t[1]);
    const LaneF wz = (r[6] * px + r[7] * py) + (r[8] * pz + t[2]);
    const std::size_t bytes = std::min<std::size_t>(end - i, kLanes) * sizeof(float);
    std::memcpy(out_x + i, &wx, bytes);
    std::memcpy(out_y + i, &wy, bytes);
    std::memcpy(out_z + i, &wz, bytes);
  }
}

// One cover against one primitive, in the primitive's frame: a sphere centre p of the body's frame
// lies at rotation * p + offset there (the body's pose and the primitive's composed once per pair,
// so the spheres need no placing in the world first).
struct CoverAgainstPrimitive {
  const float *x, *y, *z, *radius;
  std::size_t begin, end;
  float rotation[9];  // row-major
  float offset[3];
  Shape::Type type;
  float half[3];  // box: half extents; cylinder: (radius, -, half length); sphere: (radius)
  float padding;
};

// Whether every sphere clears the primitive by more than the padding (not-greater comparisons:
// a NaN is never clear).
[[gnu::always_inline]] inline bool cover_clear_body(const CoverAgainstPrimitive& c) {
  LaneI touching{};
  for (std::size_t i = c.begin; i < c.end; i += kLanes) {
    const LaneF px = load(c.x + i), py = load(c.y + i), pz = load(c.z + i);
    const LaneF lx = (c.rotation[0] * px + c.rotation[1] * py) + (c.rotation[2] * pz + c.offset[0]);
    const LaneF ly = (c.rotation[3] * px + c.rotation[4] * py) + (c.rotation[5] * pz + c.offset[1]);
    const LaneF lz = (c.rotation[6] * px + c.rotation[7] * py) + (c.rotation[8] * pz + c.offset[2]);
    const LaneF reach = load(c.radius + i) + c.padding;
    LaneF clearance;
    if (c.type == Shape::Type::Sphere) {
      const LaneF limit = reach + c.half[0];
      clearance = lx * lx + ly * ly + lz * lz - limit * limit;
    } else {
      if (c.type == Shape::Type::Box) {
        const LaneF qx = lane_max0(lane_abs(lx) - c.half[0]),
                    qy = lane_max0(lane_abs(ly) - c.half[1]),
                    qz = lane_max0(lane_abs(lz) - c.half[2]);
        // Outside distance squared against (radius + padding) squared; inside the box it is 0.
        clearance = qx * qx + qy * qy + qz * qz - reach * reach;
      } else {
        const LaneF qr = lane_max0(lane_sqrt(lx * lx + ly * ly) - c.half[0]),
                    qz = lane_max0(lane_abs(lz) - c.half[2]);
        clearance = qr * qr + qz * qz - reach * reach;
      }
    }
    touching |= ~(clearance > 0.0f) & first_lanes(c.end - i);
  }
  return lane_bits(touching) == 0;
}

// Every sphere of [a_begin, a_end) clears every sphere of [b_begin, b_end) by the padding.
[[gnu::always_inline]] inline bool covers_apart_body(const float* x, const float* y, const float* z,
                                                     const float* radius, std::size_t a_begin,
                                                     std::size_t a_end, std::size_t b_begin,
                                                     std::size_t b_end, float padding) {
  for (std::size_t i = a_begin; i < a_end; ++i) {
    const float ax = x[i], ay = y[i], az = z[i], ar = radius[i] + padding;
    LaneI touching{};
    for (std::size_t j = b_begin; j < b_end; j += kLanes) {
      const LaneF dx = ax - load(x + j), dy = ay - load(y + j), dz = az - load(z + j);
      const LaneF reach = ar + load(radius + j);
      touching |= ~(dx * dx + dy * dy + dz * dz - reach * reach > 0.0f) & first_lanes(b_end - j);
    }
    if (lane_bits(touching) != 0) return false;
  }
  return true;
}

void place_portable(const float* r, const float* t, const float* x, const float* y, const float* z,
                    float* out_x, float* out_y, float* out_z, std::size_t begin, std::size_t end) {
  place_body(r, t, x, y, z, out_x, out_y, out_z, begin, end);
}
bool cover_clear_portable(const CoverAgainstPrimitive& c) {
  return cover_clear_body(c);
}
bool covers_apart_portable(const float* x, const float* y, const float* z, const float* radius,
                           std::size_t a_begin, std::size_t a_end, std::size_t b_begin,
                           std::size_t b_end, float padding) {
  return covers_apart_body(x, y, z, radius, a_begin, a_end, b_begin, b_end, padding);
}
#ifdef KINETIC_LANES_X86
[[gnu::target(KINETIC_LANES_TARGET)]] void place_avx2(const float* r, const float* t,
                                                      const float* x, const float* y,
                                                      const float* z, float* out_x, float* out_y,
                                                      float* out_z, std::size_t begin,
                                                      std::size_t end) {
  place_body(r, t, x, y, z, out_x, out_y, out_z, begin, end);
}
[[gnu::target(KINETIC_LANES_TARGET)]] bool cover_clear_avx2(const CoverAgainstPrimitive& c) {
  return cover_clear_body(c);
}
[[gnu::target(KINETIC_LANES_TARGET)]] bool covers_apart_avx2(const float* x, const float* y,
                                                             const float* z, const float* radius,
                                                             std::size_t a_begin, std::size_t a_end,
                                                             std::size_t b_begin, std::size_t b_end,
                                                             float padding) {
  return covers_apart_body(x, y, z, radius, a_begin, a_end, b_begin, b_end, padding);
}
#endif

// Slot m's spheres in the world frame at the state's poses, computed once per pose update.
bool place_cover(const CollisionWorld& world, const CollisionState& state, std::size_t m) {
  if (state.cover_stamp[m] == state.pose_stamp) return state.cover_usable[m] != 0;
  state.cover_stamp[m] = state.pose_stamp;
  const Pose& pose = state.pose(world.moving_bodies[m]);
  const bool usable =
      pose.matrix().allFinite() && pose.translation().cwiseAbs().maxCoeff() < kMaxCoverCoordinate;
  state.cover_usable[m] = usable ? 1 : 0;
  if (!usable) return false;
  float r[9], t[3];
  for (int row = 0; row < 3; ++row) {
    for (int col = 0; col < 3; ++col)
      r[3 * row + col] = static_cast<float>(pose.linear()(row, col));
    t[row] = static_cast<float>(pose.translation()[row]);
  }
#ifdef KINETIC_LANES_X86
  const auto place = cpu_has_avx2_fma() ? &place_avx2 : &place_portable;
#else
  const auto place = &place_portable;
#endif
  place(r, t, world.cover_x.data(), world.cover_y.data(), world.cover_z.data(),
        state.cover_x.data(), state.cover_y.data(), state.cover_z.data(), world.cover_begin[m],
        world.cover_begin[m + 1]);
  return true;
}

}  // namespace

bool cover_clear_of_obstacle(const CollisionWorld& world, const CollisionState& state,
                             std::size_t m, const CollisionWorld::ObstacleFrame& frame,
                             double padding) {
  if (!frame.shape || !has_cover(world, m)) return false;
  return cover_clear_of_obstacle(world, m, frame, body_in_obstacle(world, state, m, frame),
                                 padding);
}

bool cover_clear_of_obstacle(const CollisionWorld& world, std::size_t m,
                             const CollisionWorld::ObstacleFrame& frame,
                             const BodyInObstacle& placed, double padding) {
  // Within kMaxSinglePrecisionCoordinate of the primitive the spheres' single-precision centres
  // stay inside the cover's slack.
  if (!placed.usable || !has_cover(world, m)) return false;
  CoverAgainstPrimitive c;
  if (!primitive_half_sizes(*frame.shape, c.half)) return false;
  c.type = frame.shape->type;
  c.x = world.cover_x.data();
  c.y = world.cover_y.data();
  c.z = world.cover_z.data();
  c.radius = world.cover_r.data();
  c.begin = world.cover_begin[m];
  c.end = world.cover_begin[m + 1];
  std::memcpy(c.rotation, placed.rotation, sizeof c.rotation);
  std::memcpy(c.offset, placed.offset, sizeof c.offset);
  c.padding = static_cast<float>(padding);
#ifdef KINETIC_LANES_X86
  return cpu_has_avx2_fma() ? cover_clear_avx2(c) : cover_clear_portable(c);
#else
  return cover_clear_portable(c);
#endif
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
  const auto args = std::make_tuple(
      state.cover_x.data(), state.cover_y.data(), state.cover_z.data(), world.cover_r.data(),
      world.cover_begin[ma], world.cover_begin[ma + 1], world.cover_begin[mb],
      world.cover_begin[mb + 1], static_cast<float>(padding));
#ifdef KINETIC_LANES_X86
  return std::apply(cpu_has_avx2_fma() ? &covers_apart_avx2 : &covers_apart_portable, args);
#else
  return std::apply(&covers_apart_portable, args);
#endif
}

}  // namespace kinetic

KINETIC_LANES_FUSE_END
