#pragma once
// A point set as three columns (x, y, z), padded to an even count: the support scan of GJK (the
// point farthest along a direction) then runs two points per SSE2 instruction with no branch per
// point. A mesh's hull points are scanned this way a dozen times per GJK, and as Eigen vectors the
// scan was a third of MotionBenchMaker planning time (its compare-and-keep branch mispredicts).
// Given a convex hull's edges, the search instead climbs from a vertex near the answer (the last
// one found for a nearby direction, or a cube map's vertex for this direction where that is
// farther along) to a neighbour farther along until none is: on a convex
// polytope a vertex no neighbour improves on is a farthest one. Self pairs of the Panda's wrist
// asked a hundred-odd-point scan a dozen times per GJK, half of MotionBenchMaker planning time.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/core/types.hpp"
#include "engine/geometry/convex_hull.hpp"

namespace kinetic {

class PointColumns {
 public:
  PointColumns() = default;
  explicit PointColumns(const std::vector<Vector3>& points);
  explicit PointColumns(const ConvexHull& hull);  // its vertices, and its edges to climb

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Index (into the points given) of a point with the greatest d.p. Precondition: !empty().
  std::size_t support_index(const Vector3& d) const;
  // The same, climbing from `start` along the hull's edges where there are enough points for that
  // to pay (a scan otherwise); `start` becomes the answer, to start the next nearby search from.
  std::size_t support_index(const Vector3& d, std::uint32_t& start) const;

 private:
  std::vector<double> x_, y_, z_;  // padded with copies of the last point
  std::size_t count_ = 0;
  std::vector<std::uint32_t> neighbour_start_, neighbours_;  // the hull's edges (empty: scan)
  // Where a climb starts: the farthest point along the centre direction of each cell of a cube
  // map (kMapSide x kMapSide cells on each of its six faces), filled with the edges.
  static constexpr int kMapSide = 8;
  std::vector<std::uint32_t> direction_map_;
  std::uint32_t mapped_start(const Vector3& d) const;
};

}  // namespace kinetic
