#pragma once
// How near each moving slot's root sphere can ever come to the scene, whatever the joints do.
// A link near a robot's base sweeps a small ball (the Panda's first two links stay within 0.2 m
// of its shoulder) that often holds no obstacle; a check whose padding lies below that distance
// skips the slot without its broad phase, in every state and lane (scene checks of all kinds).
#include <vector>

#include "engine/collision/collision_world.hpp"

namespace kinetic {

// Per moving slot (world.moving_bodies order), a lower bound on the distance from its root
// sphere to every obstacle it may touch (not allowed by the matrix), over every configuration,
// within the joint limits or not; minus infinity where no bound is known (a prismatic, floating
// or planar joint on the way to the root, a non-finite pose), plus infinity where the slot may
// touch no obstacle at all. Needs the world's bodies, matrix,
// obstacle frames and broad phase (place_obstacles, choose_pairs).
std::vector<double> slot_scene_reach_gaps(const CollisionWorld& world);

}  // namespace kinetic
