#pragma once
// The convex hull of a point set (Qhull), as its vertices and the edges between them. GJK's
// support scan over a collision mesh needs only the hull's vertices (the Panda's wrist links keep
// 152-260 of their 600-966), and the edges let a support search climb from a nearby vertex
// instead of scanning them all.
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

// Points with no solid hull (fewer than four, all in one plane or on one line) and points Qhull
// cannot take come back as given, without edges: their hull is still theirs, only not reduced.
ConvexHull convex_hull(const std::vector<Vector3>& points);

}  // namespace kinetic
