#pragma once
// The convex hull of a point set (Qhull), as its vertices and the edges between them. GJK's
// support scan over a collision mesh needs only the hull's vertices (the Panda's wrist links keep
// 152-260 of their 600-966), and the edges let a support search climb from a nearby vertex
// instead of scanning them all.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

struct ConvexHull {
  std::vector<Vector3> vertices;  // a subset of the points given
  // The neighbours of vertex v along the hull's edges are
  // neighbours[neighbour_start[v] .. neighbour_start[v + 1]). Empty when there is no solid hull.
  std::vector<std::uint32_t> neighbour_start, neighbours;

  bool has_edges() const { return !neighbour_start.empty(); }
};

// Points with no solid hull (fewer than four, all in one plane or on one line), points Qhull
// cannot take and more than kMaxHullPoints of them come back as given, without edges: their hull
// is still theirs, only not reduced. (A robot link has hundreds to tens of thousands of vertices;
// a 1M-triangle scan would cost seconds and hundreds of MB in Qhull for a hull that, around a
// room, proves nothing.)
constexpr std::size_t kMaxHullPoints = 200000;
ConvexHull convex_hull(const std::vector<Vector3>& points);

}  // namespace kinetic
