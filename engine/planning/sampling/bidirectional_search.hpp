#pragma once
// The loop shared by the bidirectional tree planners (RRT-Connect, BiTRRT, EST, KPIECE): grow one
// tree a step, then greedily connect the other tree to the new state; the smaller tree grows
// next, and so on. The
// planners differ only in how they pick the node to grow and the state to grow towards (and
// BiTRRT in which steps it accepts), which a GrowthStrategy supplies.
#include <random>
#include <vector>

#include "engine/planning/sampling/geometric_planners.hpp"
#include "engine/planning/sampling/node_tree.hpp"

namespace kinetic {

class GrowthStrategy {
 public:
  virtual ~GrowthStrategy() = default;
  // Picks the node of tree `tree_id` (0: start tree, 1: goal tree) to extend and a target state.
  // Returns false to skip this iteration.
  virtual bool propose(const NodeTree& tree, int tree_id, std::mt19937_64& rng, int& node,
                       JointVector& target) = 0;
  // Whether a collision-free step from `from` to `to` is taken (BiTRRT's transition test).
  virtual bool accept(int /*tree_id*/, const JointVector& /*from*/, const JointVector& /*to*/,
                      std::mt19937_64& /*rng*/) {
    return true;
  }
  // Told about every node added (including roots).
  virtual void added(const NodeTree& /*tree*/, int /*tree_id*/, int /*node*/) {}
  // Told about every step from `node` that was blocked.
  virtual void blocked(int /*tree_id*/, int /*node*/) {}
};

SearchOutcome grow_bidirectional(PlanningSpace& space, const JointVector& start,
                                 const std::vector<JointVector>& goals,
                                 const PlannerOptions& options, SearchClock& clock,
                                 GrowthStrategy& strategy, std::mt19937_64& rng);

// A state at most `range` from `from` along the line to `to`.
JointVector steer(const Eigen::Ref<const Eigen::VectorXd>& from, const JointVector& to,
                  double range);

}  // namespace kinetic
