#pragma once
// Exact distance between a triangle and a convex primitive (box, cylinder, sphere), between two
// primitives, and between two triangles. The exact tier uses these on the few triangles the sphere
// tier could not decide, instead of running FCL's traversal over the whole mesh.
//
// Boxes and cylinders go through GJK (Gilbert–Johnson–Keerthi) on support functions, written here
// because FCL's GJK (libccd) stops at a 1e-6 tolerance and costs microseconds per call; this one
// converges to ~1e-10 relative in a few hundred nanoseconds. Spheres and triangle pairs are
// closed-form (closest point on a triangle; FCL's PQP triangle distance).
#include <cstdint>
#include <limits>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/geometry/point_columns.hpp"
#include "engine/geometry/shape.hpp"

namespace kinetic {

struct ConvexDistance {
  double distance = 0.0;  // 0 when the sets intersect (the points are then a common point)
  Vector3 point_a = Vector3::Zero(), point_b = Vector3::Zero();  // |point_a - point_b| = distance
  // The true distance lies in [lower_bound, distance]. Equal for closed-form answers; GJK on a
  // cylinder rim can stall a few micrometres short (rounding in nearly degenerate simplices), so
  // collision verdicts use lower_bound and never call a touching pair free.
  double lower_bound = 0.0;
};

// Triangle (a, b, c, in the primitive's frame) against a box, cylinder or sphere centred at the
// origin of that frame. point_a lies on the triangle, point_b on the primitive (a solid).
// The search may stop early once the answer to the caller's question is known: when the lower
// bound reaches `stop_at_or_above` (the pair is at least that far apart) or the distance falls
// below `stop_below` (the pair is closer than that).
ConvexDistance triangle_primitive_distance(
    const Vector3& a, const Vector3& b, const Vector3& c, const Shape& primitive,
    double stop_at_or_above = std::numeric_limits<double>::infinity(), double stop_below = 0.0);

// Two posed boxes, cylinders or spheres (solids); points in the frame the poses are given in.
// loose_beyond: once the lower bound exceeds it, a lower bound within kLooseRatio of the distance
// is enough (conservative advancement needs a lower bound, not digits: GJK converges slowly on
// curved shapes).
inline constexpr double kLooseRatio = 0.9;
ConvexDistance primitive_distance(const Shape& a, const Pose& pose_a, const Shape& b,
                                  const Pose& pose_b,
                                  double stop_at_or_above = std::numeric_limits<double>::infinity(),
                                  double stop_below = 0.0,
                                  double loose_beyond = std::numeric_limits<double>::infinity());

// Two triangles in one frame; 0 when they intersect.
ConvexDistance triangle_triangle_distance(const Vector3 (&p)[3], const Vector3 (&q)[3]);

// A convex set GJK can measure: a box, cylinder or sphere centred at its frame's origin, or the
// convex hull of points (a mesh's vertices: the hull holds every triangle of the mesh, so sets
// apart prove the mesh apart; for a convex mesh the two are the same).
struct ConvexSet {
  const Shape* primitive = nullptr;              // a box, cylinder or sphere
  const std::vector<Vector3>* points = nullptr;  // or the hull of these (not empty)
  const PointColumns* columns = nullptr;         // the same points as columns (optional: faster)
  std::uint32_t* start = nullptr;  // with columns: the vertex support searches climb from (updated)
};

// Two posed convex sets; points in the frame the poses are given in. Stops once the lower bound
// reaches `stop_at_or_above`, or the distance falls below `stop_below` (a caller asking whether
// they are at least some distance apart needs no more digits either way), or once the lower bound
// exceeds `loose_beyond` and lies within kLooseRatio of the distance (as primitive_distance).
// first_axis (optional, nonzero; in the frame the poses are given in): the direction from b
// towards a the search starts along, where it knows a better one than the line between the
// sets' origins (the axis that separated them at a nearby pose).
ConvexDistance convex_set_distance(
    const ConvexSet& a, const Pose& pose_a, const ConvexSet& b, const Pose& pose_b,
    double stop_at_or_above = std::numeric_limits<double>::infinity(), double stop_below = 0.0,
    double loose_beyond = std::numeric_limits<double>::infinity(),
    const Vector3* first_axis = nullptr);

// How far set a lies beyond set b along the unit direction n (from b towards a): the least n.x
// over a minus the greatest over b. Where positive, a lower bound on their distance: the test of
// one separating axis, two support scans, as an axis kept from a nearby pose makes it.
double convex_set_gap_along(const ConvexSet& a, const Pose& pose_a, const ConvexSet& b,
                            const Pose& pose_b, const Vector3& n);

// How far a box, cylinder or sphere centred at the origin reaches along a unit direction.
double support_extent(const Shape& primitive, const Vector3& unit_direction);

// Closest point of triangle (a, b, c) to point p (Ericson, Real-Time Collision Detection 5.1.5).
Vector3 closest_point_on_triangle(const Vector3& p, const Vector3& a, const Vector3& b,
                                  const Vector3& c);

}  // namespace kinetic
