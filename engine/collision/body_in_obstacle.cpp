#include "engine/collision/body_in_obstacle.hpp"

#include <cstring>

namespace kinetic {
namespace {
using FourDoubles = double __attribute__((vector_size(32)));

FourDoubles load(const double* p) {
  FourDoubles v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
}  // namespace

BodyInObstacle body_in_obstacle(const CollisionWorld& world, const CollisionState& state,
                                std::size_t m, const CollisionWorld::ObstacleFrame& frame) {
  BodyInObstacle out;
  if (!frame.shape) return out;
  // The obstacle's to_local times the body's rotation and translation, column by column, four
  // doubles at a time (the fourth rides along): a third of the instructions of Eigen's 3x3
  // products, summed in another order (the last place may differ, far inside the slacks).
  const double* pose = state.pose(world.moving_bodies[m]).data();  // 4x4, column-major
  const FourDoubles l0 = load(frame.local_columns[0]), l1 = load(frame.local_columns[1]),
                    l2 = load(frame.local_columns[2]);
  FourDoubles columns[4];
  for (int c = 0; c < 4; ++c)
    columns[c] = (l0 * pose[4 * c] + l1 * pose[4 * c + 1]) + l2 * pose[4 * c + 2];
  columns[3] -= load(frame.local_origin);
  // Non-finite anywhere: a product by zero is NaN there.
  const FourDoubles zero = ((columns[0] + columns[1]) + (columns[2] + columns[3])) * 0.0;
  for (int r = 0; r < 3; ++r) {
    if (!(zero[r] == 0.0)) return out;
    if (!(columns[3][r] < kMaxSinglePrecisionCoordinate &&
          columns[3][r] > -kMaxSinglePrecisionCoordinate))
      return out;
    for (int c = 0; c < 3; ++c) out.rotation[3 * r + c] = static_cast<float>(columns[c][r]);
    out.offset[r] = static_cast<float>(columns[3][r]);
  }
  out.usable = true;
  return out;
}

}  // namespace kinetic
