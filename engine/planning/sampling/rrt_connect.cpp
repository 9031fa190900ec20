// RRT-Connect (Kuffner & LaValle 2000): grow towards uniform samples from the nearest node.
#include "engine/planning/sampling/bidirectional_search.hpp"

namespace kinetic {

namespace {
class UniformNearest : public GrowthStrategy {
 public:
  explicit UniformNearest(const PlanningSpace& space) : space_(space) {}
  bool propose(const NodeTree& tree, int, std::mt19937_64& rng, int& node,
               JointVector& target) override {
    space_.sample(rng, target);
    node = tree.nearest(target);
    return node >= 0;
  }

 private:
  const PlanningSpace& space_;
};
}  // namespace

SearchOutcome plan_rrt_connect(PlanningSpace& space, const JointVector& start,
                               const std::vector<JointVector>& goals, const PlannerOptions& options,
                               SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  UniformNearest strategy(space);
  return grow_bidirectional(space, start, goals, options, clock, strategy, rng);
}

}  // namespace kinetic
