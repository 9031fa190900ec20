// RRT-Connect (Kuffner & LaValle 2000): grow towards samples of the joint box from the nearest
// node. Each tree draws its own Halton sequence (halton_sampler.hpp); a search over more joints
// than it has bases draws uniform samples. On MotionBenchMaker (700 problems x 4 seeds, no
// margin) Halton samples took the mean planning time from 2.10 to 1.74 ms and the cage's median
// from 6.3 to 4.6 ms. One sequence shared by the two trees would hand each every other sample,
// and the even indices of base 2 all lie in the box's lower half.
#include <optional>

#include "engine/planning/sampling/bidirectional_search.hpp"
#include "engine/planning/sampling/halton_sampler.hpp"

namespace kinetic {

namespace {
class SpreadNearest : public GrowthStrategy {
 public:
  SpreadNearest(const PlanningSpace& space, std::mt19937_64& rng) : space_(space) {
    if (space.dof() <= HaltonSampler::kMaxJoints)
      for (auto& sampler : samplers_) sampler.emplace(space.dof(), rng);
  }
  bool propose(const NodeTree& tree, int tree_id, std::mt19937_64& rng, int& node,
               JointVector& target) override {
    std::optional<HaltonSampler>& sampler = samplers_[tree_id == 0 ? 0 : 1];
    if (sampler)
      sampler->next(space_.lower(), space_.upper(), target);
    else
      space_.sample(rng, target);
    node = tree.nearest(target);
    return node >= 0;
  }

 private:
  const PlanningSpace& space_;
  std::optional<HaltonSampler> samplers_[2];  // the start's tree, the goals' tree
};
}  // namespace

SearchOutcome plan_rrt_connect(PlanningSpace& space, const JointVector& start,
                               const std::vector<JointVector>& goals, const PlannerOptions& options,
                               SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  SpreadNearest strategy(space, rng);
  return grow_bidirectional(space, start, goals, options, clock, strategy, rng);
}

}  // namespace kinetic
