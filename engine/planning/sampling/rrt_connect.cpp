// RRT-Connect (Kuffner & LaValle 2000): grow towards samples of the joint box from the nearest
// node. Each tree draws its own Halton sequence (halton_sampler.hpp); a search over more joints
// than it has bases draws uniform samples. On MotionBenchMaker (700 problems x 4 seeds, no
// margin) Halton samples took the mean planning time from 2.10 to 1.74 ms and the cage's median
// from 6.3 to 4.6 ms. One sequence shared by the two trees would hand each every other sample,
// and the even indices of base 2 all lie in the box's lower half. A target outside its nearest
// node's dynamic domain (dynamic_domain.hpp) is turned away unchecked.
#include <algorithm>
#include <optional>
#include <random>

#include "engine/planning/sampling/bidirectional_search.hpp"
#include "engine/planning/sampling/dynamic_domain.hpp"
#include "engine/planning/sampling/halton_sampler.hpp"

namespace kinetic {

namespace {

// A tree that has grown no node in this many proposals in a row is stuck (a start or goal
// between shelf boards, a hand inside a cage): a share of its targets are then drawn near its
// own nodes, a Gaussian step of kLocalSpread around one of them chosen at random, instead of
// from the whole joint box. Steps towards a far sample from a node hemmed in by obstacles
// nearly all fail; short steps around the tree find the way out. The targets the Halton
// sequence would have given are drawn the same, in turn, for the remaining share.
constexpr int kStuckProposals = 32;
constexpr double kLocalShare = 0.3;
constexpr double kLocalSpread = 0.3;  // rad (or m) per joint, standard deviation

// The dynamic domain's first radius and floor, in extension ranges: VAMP's 4 and 1 rad for the
// Panda, whose range is 0.67 rad, so that another robot's domains scale with its steps. Over 16
// seeds of MotionBenchMaker's 700 problems (no margin) planning took 3% less in two interleaved
// pairs of runs (the bookshelves 10%, the cage 1%) and 10% fewer instructions (seeds 1-4), the
// median path 4.921 -> 4.892 rad; a first radius of 3 rad (4.5 ranges) turned away so many
// targets that planning took longer, 6 rad (9 ranges) gained nothing. On seed 1 alone it once
// measured "the sum the same" and was not kept (design-notes.md, Planning).
constexpr double kDomainRanges = 6.0, kDomainFloorRanges = 1.5;

class SpreadNearest : public GrowthStrategy {
 public:
  SpreadNearest(const PlanningSpace& space, std::mt19937_64& rng, double range)
      : space_(space), domain_(kDomainRanges * range, kDomainFloorRanges * range) {
    if (space.dof() <= HaltonSampler::kMaxJoints)
      for (auto& sampler : samplers_) sampler.emplace(space.dof(), rng);
  }
  bool propose(const NodeTree& tree, int tree_id, std::mt19937_64& rng, int& node,
               JointVector& target) override {
    const int t = tree_id == 0 ? 0 : 1;
    if (++since_added_[t] > kStuckProposals && tree.size() > 0 &&
        std::uniform_real_distribution<double>(0.0, 1.0)(rng) < kLocalShare) {
      node = std::uniform_int_distribution<int>(0, tree.size() - 1)(rng);
      target = tree.state(node);
      std::normal_distribution<double> spread(0.0, kLocalSpread);
      for (int i = 0; i < space_.dof(); ++i)
        target[i] = std::clamp(target[i] + spread(rng), space_.lower()[i], space_.upper()[i]);
      return true;
    }
    std::optional<HaltonSampler>& sampler = samplers_[t];
    if (sampler)
      sampler->next(space_.lower(), space_.upper(), target);
    else
      space_.sample(rng, target);
    node = tree.nearest(target);
    // A target outside the nearest node's domain: this iteration is spent without a check.
    return node >= 0 && domain_.admits(t, node, (tree.state(node) - target).norm());
  }
  void blocked(int tree_id, int node) override { domain_.blocked(tree_id, node); }

 private:
  const PlanningSpace& space_;
  DynamicDomain domain_;
  std::optional<HaltonSampler> samplers_[2];  // the start's tree, the goals' tree
  int since_added_[2] = {0, 0};               // proposals since the tree last grew a node

 public:
  void added(const NodeTree& tree, int tree_id, int node) override {
    since_added_[tree_id == 0 ? 0 : 1] = 0;
    domain_.added(tree_id, node, tree.parent(node));
  }
};
}  // namespace

SearchOutcome plan_rrt_connect(PlanningSpace& space, const JointVector& start,
                               const std::vector<JointVector>& goals, const PlannerOptions& options,
                               SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  SpreadNearest strategy(space, rng, extension_range(space, options));
  return grow_bidirectional(space, start, goals, options, clock, strategy, rng);
}

}  // namespace kinetic
