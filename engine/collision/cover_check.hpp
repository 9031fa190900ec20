#pragma once
// The first test of a pair with a sphere cover (engine/geometry/sphere_cover.hpp): every sphere of
// the moving body against an obstacle's primitive, or every sphere of one link against every
// sphere of the other, in single precision over flat arrays (the compiler runs them four or eight
// at a time). Covers hold their bodies, so "clear" is a proof; "not clear" only sends the pair on
// to the exact tiers. Near an obstacle a cover within a centimetre of the meshes decides most
// pairs that the root spheres cannot, without a tree walk or GJK.
#include "engine/collision/body_in_obstacle.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/collision/state_check.hpp"

namespace kinetic {

// Whether moving slot m has a cover to test (a robot link with meshes).
inline bool has_cover(const CollisionWorld& world, std::size_t m) {
  return world.cover_begin[m + 1] > world.cover_begin[m];
}
// Every sphere of slot m's cover clears the obstacle `frame` (a single primitive) by more than
// `padding`. False where it cannot tell (no cover, a mesh obstacle, the body's frame too far from
// the primitive's for single precision).
bool cover_clear_of_obstacle(const CollisionWorld& world, const CollisionState& state,
                             std::size_t m, const CollisionWorld::ObstacleFrame& frame,
                             double padding);
// The same with the body already placed in the obstacle's frame (body_in_obstacle).
bool cover_clear_of_obstacle(const CollisionWorld& world, std::size_t m,
                             const CollisionWorld::ObstacleFrame& frame,
                             const BodyInObstacle& placed, double padding);
// Whether cover_clear_of_obstacle can tell for slot m and `frame` at the state's poses: slot m has
// a cover placed in single-precision range and the obstacle is a box, cylinder or sphere there.
// Where it can, "not clear" means the cover comes within the padding (CheckOptions::covers_decide
// then calls the body near).
bool cover_decides(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                   const CollisionWorld::ObstacleFrame& frame);
// Every sphere of slot ma's cover clears every sphere of slot mb's by more than `padding`.
bool covers_apart(const CollisionWorld& world, const CollisionState& state, std::size_t ma,
                  std::size_t mb, double padding);

}  // namespace kinetic
