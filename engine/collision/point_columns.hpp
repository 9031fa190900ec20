#pragma once
// A point set as three columns (x, y, z), padded to an even count: the support scan of GJK (the
// point farthest along a direction) then runs two points per SSE2 instruction with no branch per
// point. A mesh's hull points are scanned this way a dozen times per GJK, and as Eigen vectors the
// scan was a third of MotionBenchMaker planning time (its compare-and-keep branch mispredicts).
#include <cstddef>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

class PointColumns {
 public:
  PointColumns() = default;
  explicit PointColumns(const std::vector<Vector3>& points);

  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Index (into the points given) of a point with the greatest d.p. Precondition: !empty().
  std::size_t support_index(const Vector3& d) const;

 private:
  std::vector<double> x_, y_, z_;  // padded with copies of the last point
  std::size_t count_ = 0;
};

}  // namespace kinetic
