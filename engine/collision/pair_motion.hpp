#pragma once
// How fast bodies and pairs of bodies can move per joint (pair_motion.cpp): the speed tables a
// CollisionWorld carries for the motion checks, built with the world.
#include "engine/collision/collision_world.hpp"

namespace kinetic {

// Fills the world's speed terms, path pairs, body and self-pair speed tables and solid plans
// (its bodies, pairs and matrix set already).
void build_motion_tables(CollisionWorld& world);
// Per variable, how fast part part_a of body a and part part_b of body b (-1: the whole body)
// can close in per unit of that variable's motion, added into `coefficients` (self false: a's own
// motion only; b an obstacle, or -1 for none).
void add_pair_speeds(const CollisionWorld& world, int a, int part_a, int b, int part_b, bool self,
                     double* coefficients);

}  // namespace kinetic
