#pragma once
// Queries between two posed collision bodies, in two tiers: the sphere trees answer clearly-free
// and clearly-colliding pairs; FCL (or exact half-space support functions) answers the rest.
// Free functions on immutable bodies: safe to call from any number of threads.
#include <cstdint>
#include <limits>
#include <optional>

#include "engine/collision/collision_body.hpp"

namespace kinetic {

enum class PairVerdict { Free, Colliding, Ambiguous };

// Sphere tier. padding: the pair collides when its distance is < padding. threshold (>= padding):
// report Colliding when two geometry points are proven to lie within `threshold` of each other
// (threshold - padding is the refinement margin: false positives stay within it).
PairVerdict classify_pair(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                          const Pose& pose_b, double padding, double threshold);

// Exact tier: true when the exact distance is < padding (for padding 0: the bodies intersect).
// Meshes use the leaf triangles of their sphere trees (engine/collision/leaf_exact), the rest FCL.
// hulls_tried: the caller's hulls_apart at this padding said false, so it is not asked again.
// hint (may be null): the pair's HullHint, which the hull proof here tries and updates.
struct HullHint;
bool exact_pair_collision(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                          const Pose& pose_b, double padding, bool hulls_tried = false,
                          HullHint* hint = nullptr);

// Both tiers together.
bool pair_in_collision(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                       const Pose& pose_b, double padding, double margin, bool hulls_tried = false,
                       HullHint* hint = nullptr);

// The convex-hull proof: every part pair's convex hulls (a mesh's by its vertices, a primitive as
// it is) lie more than `padding` apart, so the parts do, as each lies inside its hull. For convex
// collision meshes (most robots ship them) this decides nearly every pair the sphere tier leaves
// open at the cost of one GJK, where the leaves' triangles would be tested by the dozen. It
// applies to bodies with a mesh, no half-space and few parts (hulls_apart is false otherwise).
bool hull_proof_applies(const CollisionBody& a, const CollisionBody& b);
// What a pair's last hull proof found, kept for its next pose (nearly the same along an edge):
// a unit direction from b towards a (world frame; zero: none) tried first, one support search per
// body, and the hull vertices those searches climb from. Where GJK is needed and proves the pair
// apart, the axis becomes the direction GJK found (bodies of one part each).
struct HullHint {
  Vector3 axis = Vector3::Zero();
  std::uint32_t start_a = 0, start_b = 0;
};
// kept_axis_tried: the hint's axis failed at this pose already (hull_axis_apart): straight to GJK.
bool hulls_apart(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                 const Pose& pose_b, double padding, HullHint* hint = nullptr,
                 bool kept_axis_tried = false);
// The hint's axis alone (bodies of one part each, a proof kept from an earlier pose): whether
// it proves the hulls farther apart than `padding`. Two support climbs, no GJK: false where it
// cannot tell.
bool hull_axis_apart(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                     const Pose& pose_b, double padding, HullHint& hint);
// A lower bound on the distance of the two bodies' convex hulls (part by part; 0 where they touch,
// or where hull_proof_applies does not), or `cap` once it is known to be at least that.
double hull_distance_bound(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                           const Pose& pose_b, double cap);

// hull_distance_bound for a step of a continuous check: the hint's axis first (one separating
// axis: its gap is the bound when it reaches `enough`), then GJK, whose direction becomes the
// hint, and which beyond `loose_beyond` stops within kLooseRatio of the distance (bodies of one
// part each; otherwise hull_distance_bound).
double hull_distance_hinted(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                            const Pose& pose_b, double enough, double loose_beyond, double cap,
                            HullHint& hint);

// Whether two bodies of one mesh each intersect (their triangles cross or touch): FCL's BVH
// collision test, which stops at the first crossing triangle pair. For meshes deep in each other
// it is much quicker than the leaf triangles' walk, which visits the nearest (most overlapping)
// leaves first and measures each triangle pair's distance: two Fanuc links folded into each other
// took 0.9 ms a state there, 36 µs here. Precondition: both bodies are one mesh part each.
bool meshes_intersect(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                      const Pose& pose_b);
// A body of exactly one part, a mesh: what meshes_intersect takes.
bool single_mesh(const CollisionBody& body);

struct PairDistance {
  double distance = 0.0;  // <= 0 when intersecting (negative: penetration where FCL reports it)
  Vector3 point_a = Vector3::Zero(), point_b = Vector3::Zero();  // world frame
};

struct DistanceBounds {
  double lower = 0.0;  // the true distance is >= lower (sphere gaps)
  double upper = 0.0;  // and <= upper (anchor points)
};

// Sphere-tier bounds; node pairs whose gap exceeds `cutoff` are not refined (then lower may be
// anything >= cutoff).
DistanceBounds pair_distance_bounds(const CollisionBody& a, const Pose& pose_a,
                                    const CollisionBody& b, const Pose& pose_b, double cutoff);

// Exact distance and closest points: meshes against meshes and primitives from the sphere
// trees' leaf triangles, half-spaces analytically, everything else with FCL. A result at or above
// `cutoff` only says the distance is not below it (the search stops early).
PairDistance exact_pair_distance(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                                 const Pose& pose_b,
                                 double cutoff = std::numeric_limits<double>::infinity());

// Penetration depth when the exact distance is < padding (or 0, touching): for intersecting
// bodies the deepest contact FCL reports (>= 0), otherwise padding - distance (0 for touching
// bodies and no padding).
std::optional<double> exact_pair_penetration(const CollisionBody& a, const Pose& pose_a,
                                             const CollisionBody& b, const Pose& pose_b,
                                             double padding);

}  // namespace kinetic
