#pragma once
// Flat broad phase for the fixed obstacles of a scene of up to a few hundred: their bounding
// spheres in single-precision arrays, tested eight at a time into a bit mask with no branch per
// obstacle. In a free state nearly every (link, obstacle) pair is culled, and a tree walk spends
// its time on mispredicted branches and pointer chasing instead (ObstacleTree stays the broad
// phase for larger scenes). Radii are rounded up so the float test never culls a sphere the exact
// test would keep.
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/collision/obstacle_tree.hpp"

namespace kinetic {

class SphereSet {
 public:
  // An entry's solid, where it is a box or a cylinder (near_word_): blocks of entries whose
  // bounding spheres come within reach are tested against the solids themselves, so a link beside
  // a long shelf board (inside the board's bounding sphere, centimetres from the board) is culled
  // here, eight at a time, rather than by a distance call per pair.
  struct Solid {
    Eigen::Matrix3d to_local = Eigen::Matrix3d::Identity();  // world -> the solid's frame
    Vector3 origin = Vector3::Zero();
    Vector3 half = Vector3::Zero();  // box: half extents; cylinder: (0, 0, half length)
    double radial = 0.0;             // cylinder: radius (a box: 0)
  };
  // Beyond this distance from the origin float rounding would need a larger slack than the one
  // built in: such scenes and queries use ObstacleTree.
  static constexpr double kMaxCoordinate = 1.0e4;

  // `solids`, when given, holds per entry its solid or nullopt (the bounding sphere alone).
  void build(const std::vector<ObstacleTree::Entry>& entries,
             const std::vector<std::optional<Solid>>* solids = nullptr);
  std::size_t size() const { return ids_.size(); }  // entries and padding
  std::size_t entries() const { return entries_; }  // entries only: the first entries() ids
  // False when some entry lies too far out for the float test.
  bool usable() const { return usable_; }
  // The entries' bounding spheres (radii rounded up) and ids, padded to a multiple of 8 with
  // spheres at infinity (id -1), for callers that test them their own way (lane_check.cpp).
  const float* x() const { return x_.data(); }
  const float* y() const { return y_.data(); }
  const float* z() const { return z_.data(); }
  const float* r() const { return r_.data(); }
  const int* ids() const { return ids_.data(); }
  // The rounding slack any_near adds to a reach: a caller testing the spheres itself adds it too.
  static constexpr float kReachSlack = 1e-5f;

  // Calls visit(id) for every entry whose sphere may come within `reach` of `center` (every entry
  // within reach is visited; a few just beyond it may be); stops and returns true as soon as visit
  // returns true. Precondition: usable(), |center| components <= kMaxCoordinate.
  template <class Visit>
  bool any_near(const Vector3& center, double reach, const Visit& visit) const {
    const float cx = static_cast<float>(center.x()), cy = static_cast<float>(center.y()),
                cz = static_cast<float>(center.z());
    const float extra = static_cast<float>(reach * (1.0 + 1e-6)) + kReachSlack;
    const int* ids = ids_.data();  // a local: `visit` is opaque, the compiler would reload it
    for (std::size_t base = 0; base < ids_.size(); base += 64) {
      for (std::uint64_t mask =
               near_word_(blocks_.data(), padded_, has_solids_, base, cx, cy, cz, extra);
           mask != 0; mask &= mask - 1) {
        const std::size_t k = base + static_cast<std::size_t>(std::countr_zero(mask));
        if (ids[k] >= 0 && visit(ids[k])) return true;  // (padding entries match NaN queries)
      }
    }
    return false;
  }

  // The entries in blocks of kBlock, each block kBlockRows rows of kBlock floats (one row: a
  // quantity of the block's entries): the bounding spheres, then the solids (rotation rows,
  // origin, half extents, radial radius, slack; an entry without one has radial = -1). A block's
  // floats lie together, so a test reads them from one base address.
  static constexpr std::size_t kBlock = 8;
  enum BlockRow : int {
    kX,
    kY,
    kZ,
    kR,
    kM0,
    kOx = kM0 + 9,
    kOy,
    kOz,
    kHx,
    kHy,
    kHz,
    kRadial,
    kSlackRow,
    kBlockRows
  };

 private:
  static constexpr float kSlack = kReachSlack;  // m: float rounding of centres to kMaxCoordinate

  // The bounding spheres as the lanes read them (lane_check.cpp), padded to a multiple of 8.
  std::vector<float> x_, y_, z_, r_;
  float& at(int row, std::size_t i) {  // entry i's value in `row` of its block
    return blocks_[(i / kBlock * kBlockRows + static_cast<std::size_t>(row)) * kBlock + i % kBlock];
  }
  std::vector<float> blocks_;
  // Bit k set: entry base + k (base a multiple of 64, k < 64) may come within `extra` of the
  // point: its bounding sphere does, and its solid too where it has one. Not-greater comparisons
  // keep NaN queries conservative (every entry set); padding entries sit at infinity and never
  // match. Eight entries per vector operation; the kernel built for AVX2 where this CPU has it
  // (build() chooses), else the portable one.
  std::uint64_t (*near_word_)(const float* blocks, std::size_t padded, bool has_solids,
                              std::size_t base, float cx, float cy, float cz,
                              float extra) = nullptr;
  std::size_t padded_ = 0;
  bool has_solids_ = false;
  std::vector<int> ids_;
  std::size_t entries_ = 0;
  bool usable_ = true;
};

}  // namespace kinetic
