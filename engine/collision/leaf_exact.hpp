#pragma once
// The exact tier, from the sphere trees' leaves: the tree finds the few leaf pairs close enough
// to matter and the triangles stored in those leaves give the exact answer (triangle against
// triangle, or triangle against a box, cylinder or sphere); solid primitives against each other
// go straight to GJK. Same answers as FCL's traversal of the whole mesh BVH (closer, where FCL's
// libccd stops early), without visiting the parts that are clearly far.
#include <limits>
#include <vector>

#include "engine/collision/body_pair.hpp"

namespace kinetic {

// Bodies that are meshes or made of boxes, cylinders and spheres (any pairing).
bool leaf_exact_supported(const CollisionBody& a, const CollisionBody& b);

// True when the geometry is closer than padding (padding 0: the bodies intersect).
// Precondition: leaf_exact_supported(a, b).
bool leaf_exact_collision(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                          const Pose& pose_b, double padding);

// leaf_exact_collision for two bodies of boxes, cylinders and spheres over the part pairs listed
// (indices into a.parts and b.parts). A pair whose distance is the same in every configuration
// carries it (NaN otherwise) and is skipped while it clears the padding by more than 1 nm.
// extra (null: none): per listed pair, added to its padding.
struct SolidPartPair {
  int a = 0, b = 0;
  double radii = 0.0;  // sum of the two parts' bounding radii
  double constant_distance = std::numeric_limits<double>::quiet_NaN();
};
bool solid_parts_collision(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                           const Pose& pose_b, double padding,
                           const std::vector<SolidPartPair>& pairs, const double* extra = nullptr);

// Smallest distance below `cutoff`, with the closest points (world frame); distance = cutoff and
// found = false when nothing is closer. 0 when the bodies intersect.
// probe: only the nearest-looking leaf pair is measured — a quick upper bound (an attained
// distance) that lets a search over many body pairs prune hard from the start.
struct LeafDistance {
  PairDistance pair;
  bool found = false;
};
LeafDistance leaf_exact_distance(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                                 const Pose& pose_b, double cutoff, bool probe = false);

}  // namespace kinetic
