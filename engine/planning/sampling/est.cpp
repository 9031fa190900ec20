// Bidirectional EST (Hsu, Latombe & Motwani 1997; OMPL's BiEST): expand nodes chosen with
// probability inversely proportional to how crowded their neighbourhood is, towards a random
// state near them; the trees are joined by greedy connection.
#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/planning/sampling/bidirectional_search.hpp"

namespace kinetic {

namespace {
class SparseFirst : public GrowthStrategy {
 public:
  SparseFirst(const PlanningSpace& space, double range) : space_(space), range_(range) {}

  bool propose(const NodeTree& tree, int tree_id, std::mt19937_64& rng, int& node,
               JointVector& target) override {
    const auto& weights = weights_[tree_id];
    if (weights.empty()) return false;
    double pick = std::uniform_real_distribution<double>(0.0, total_[tree_id])(rng);
    node = static_cast<int>(weights.size()) - 1;
    for (int i = 0; i < static_cast<int>(weights.size()); ++i) {
      pick -= weights[i];
      if (pick <= 0.0) {
        node = i;
        break;
      }
    }
    // A random state within range of the node (uniform in the box around it, clamped to limits).
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    target = tree.state(node);
    const double half = range_ / std::sqrt(static_cast<double>(space_.dof()));
    for (int j = 0; j < space_.dof(); ++j)
      target[j] = std::clamp(target[j] + half * unit(rng), space_.lower()[j], space_.upper()[j]);
    return true;
  }

  void added(const NodeTree& tree, int tree_id, int node) override {
    auto& counts = neighbours_[tree_id];
    auto& weights = weights_[tree_id];
    const JointVector q = tree.state(node);
    counts.push_back(0);
    weights.push_back(1.0);
    total_[tree_id] += 1.0;
    for (int other : tree.within(q, 0.5 * range_)) {
      if (other == node) continue;
      ++counts[node];
      ++counts[other];
      reweight(tree_id, other);
    }
    reweight(tree_id, node);
  }

 private:
  void reweight(int tree_id, int node) {
    const double w = 1.0 / (1.0 + neighbours_[tree_id][node]);
    total_[tree_id] += w - weights_[tree_id][node];
    weights_[tree_id][node] = w;
  }

  const PlanningSpace& space_;
  double range_;
  std::vector<int> neighbours_[2];
  std::vector<double> weights_[2];
  double total_[2] = {0.0, 0.0};
};
}  // namespace

SearchOutcome plan_est(PlanningSpace& space, const JointVector& start,
                       const std::vector<JointVector>& goals, const PlannerOptions& options,
                       SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  SparseFirst strategy(space, extension_range(space, options));
  return grow_bidirectional(space, start, goals, options, clock, strategy, rng);
}

}  // namespace kinetic
