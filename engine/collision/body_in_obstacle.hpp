#pragma once
// A moving body's frame in an obstacle primitive's frame, in single precision: what the cover
// test and the witness scan of one (slot, obstacle) pair both read. Composed in double and
// rounded once, once per pair visit (each test composed it again: 27 products and the checks).
#include <cstddef>

#include "engine/collision/collision_world.hpp"
#include "engine/collision/state_check.hpp"

namespace kinetic {

// Beyond this distance from the primitive single precision would round a cover sphere or a
// witness by more than their slacks: such pairs go without them.
inline constexpr double kMaxSinglePrecisionCoordinate = 50.0;  // m

struct BodyInObstacle {
  float rotation[9];  // row-major: body frame -> the obstacle's frame
  float offset[3];
  bool usable = false;  // finite, within kMaxSinglePrecisionCoordinate, the obstacle a primitive
};

// Slot m's body frame in `frame`'s at the state's poses.
BodyInObstacle body_in_obstacle(const CollisionWorld& world, const CollisionState& state,
                                std::size_t m, const CollisionWorld::ObstacleFrame& frame);

}  // namespace kinetic
