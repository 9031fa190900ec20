#pragma once
// Witness points: a few extreme vertices of each moving body's mesh hulls (the ones that reach an
// obstacle first), tested against a box or cylinder obstacle in single precision. A vertex of the
// mesh within the padding of the obstacle proves the pair colliding, as the exact tier would find
// it, with none of its work: the sphere walk and the leaf triangles spent a blocked search step's
// time confirming what one vertex inside a shelf board already shows. "Not proven" sends the pair
// on to the tiers as before, so every verdict stays the exact one.
#include "engine/collision/body_in_obstacle.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/collision/state_check.hpp"

namespace kinetic {

// Witnesses per moving body with meshes: a farthest-point spread of its hulls' vertices. 16 are
// tested in the time of a few of the tiers' steps; all of a link's 150-260 hull vertices caught
// more collisions but cost the pairs that do not collide as much as they saved.
inline constexpr std::size_t kWitnessesPerBody = 16;
// Fills world.witness_begin / witness_x, _y, _z (body frame) for the world's moving bodies.
void choose_witnesses(CollisionWorld& world);

// Whether some witness of slot m lies within `padding` of the obstacle `frame` (a box or a
// cylinder) at the state's poses, by more than single precision's rounding: the pair then
// collides at that padding. False where it cannot tell (no witnesses, another shape, coordinates
// beyond 50 m).
bool witness_within(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                    const CollisionWorld::ObstacleFrame& frame, double padding);
// The same with the body already placed in the obstacle's frame (body_in_obstacle).
bool witness_within(const CollisionWorld& world, std::size_t m,
                    const CollisionWorld::ObstacleFrame& frame, const BodyInObstacle& placed,
                    double padding);

// As witness_within, over every candidate vertex of slot m (all its hulls' vertices) and no inner
// spheres: for a pair whose hulls touch, where the exact tier's leaves would follow. Most such
// pairs among a cage's bars collide, and in about half of them a hull vertex lies in the bar.
bool hull_vertex_within(const CollisionWorld& world, const CollisionState& state, std::size_t m,
                        const CollisionWorld::ObstacleFrame& frame, double padding);

// Whether the robot bodies of slots ma and mb (each one closed mesh of one piece, with inner
// spheres) are proven to touch at the state's poses: a witness of one (a vertex of its mesh) lies
// inside an inner sphere of the other (inside its volume) while another lies outside the other's
// root sphere, so the first's connected surface crosses the second's; or an inner sphere of each
// overlap while each has a witness outside the other. The exact tier finds contact there at any
// padding. False where it cannot tell.
bool self_contact_witnessed(const CollisionWorld& world, const CollisionState& state,
                            std::size_t ma, std::size_t mb);

}  // namespace kinetic
