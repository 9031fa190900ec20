#pragma once
// A table of one self pair's distance over the joint variables it depends on, when there are
// only one or two: a wrist's links (the Panda's link5 against link7 and the hand move relative to
// each other with joints 6 and 7 alone) sit centimetres apart in every pose, so the sphere covers
// cannot prove them apart, and every state of every edge paid a convex-hull test, and every run
// proof failed under its run-wide padding. Each cell holds the distance of the two bodies' convex
// hulls (which hold the meshes) at the cell's centre, measured when first asked (or, for a small
// coarse level, all at once by measure_ahead, which a Planner asks for). With the pair's
// closing speed per variable (pair_motion.cpp: valid in every configuration) that bounds the
// distance at any configuration, and along a whole straight segment of configurations, with no
// pose and no GJK. Thread-safe: cells are filled with relaxed atomics (racing fills store the
// same value).
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/collision/collision_body.hpp"
#include "engine/core/types.hpp"
#include "engine/kinematics/forward_kinematics.hpp"

namespace kinetic {

struct CollisionWorld;

class SelfPairTable {
 public:
  // The table of self pair k of `world`, or null where the pair's distance depends on more than
  // two variables (or none), on a joint that is neither revolute nor prismatic with limits, or
  // where its bodies have no hull to measure. The same robot's same pair gets the table already
  // built (the cells measured so far are kept while a world uses it).
  static std::shared_ptr<const SelfPairTable> of_pair(const CollisionWorld& world,
                                                      std::size_t pair);

  // Whether the pair's hulls are farther apart than `padding` at q: false where the table cannot
  // prove it (the caller tests the pair as before).
  bool clear_at(const JointVector& q, double padding) const;
  // Whether they stay farther apart than `padding` on the whole segment q0 + dq * t, t0 <= t <= t1.
  bool clear_along(const JointVector& q0, const JointVector& dq, double t0, double t1,
                   double padding) const;

  // Measures the coarse level whole, once, where it is small enough (self_pair_table.cpp's
  // kMeasuredAheadCells): searches then find its bounds ready. Thread-safe.
  void measure_ahead() const;

  int variable_count() const { return static_cast<int>(axes_.size()); }
  std::size_t cell_count() const { return levels_[1].count; }  // of the fine level
  std::size_t coarse_cell_count() const { return levels_[0].count; }
  std::size_t measured_cells() const;   // both levels
  std::size_t allocated_cells() const;  // both levels, in the tiles touched so far

  struct Axis {
    int variable = 0;
    double lower = 0.0, span = 0.0;  // the table covers lower + [0, span]
    bool periodic = false;  // a revolute joint over a whole turn: the pose repeats every 2 pi
    double speed = 0.0;     // the pair's closing speed per unit of the variable
    int fine_cells = 1;
  };
  SelfPairTable(std::shared_ptr<const ForwardKinematics> fk, JointVector reference, int link_a,
                int link_b, std::shared_ptr<const CollisionBody> body_a,
                std::shared_ptr<const CollisionBody> body_b, std::vector<Axis> axes);

 private:
  // Two grids over the same axes: coarse cells (a quarter as many per axis) answer far pairs with
  // few measurements; the fine ones are measured only where the coarse bound falls short. Cells
  // come in tiles allocated when first touched, so a table holds memory for where the robot went
  // (a plan touches a few thousand cells of up to a million).
  struct Level {
    int cells[2] = {1, 1};
    double width[2] = {0.0, 0.0};
    std::size_t count = 1;
    // Tiles of a power of two cells per axis: a lookup finds its tile and place by shifts and
    // masks (the divisions by other sizes cost as much as the rest of the lookup).
    int tile_cells[2] = {1, 1}, tiles[2] = {1, 1};
    int tile_shift[2] = {0, 0};
    double inverse_width[2] = {0.0, 0.0};  // 1 / width: a cell located by a product
    std::unique_ptr<std::atomic<std::atomic<float>*>[]> tile;  // null: not touched yet
    ~Level();
    // The cell's value (NaN: not measured yet), its tile allocated if need be.
    std::atomic<float>& value(const int* cell) const;
  };
  // Lower bound on the distance at point p (one value per axis) from the level's cell holding it.
  double bound_near(const Level& level, const double* p) const;
  double centre_distance(const Level& level, const int* cell) const;
  void measure_coarse_level() const;  // every cell of levels_[0]

  mutable std::once_flag measured_ahead_;
  std::shared_ptr<const ForwardKinematics> fk_;
  JointVector reference_;  // the variables the pair does not depend on, at any value
  int link_a_, link_b_;
  std::shared_ptr<const CollisionBody> body_a_, body_b_;
  std::vector<Axis> axes_;
  Level levels_[2];
};

}  // namespace kinetic
