// BiTRRT (Devaurs, Siméon & Cortés 2013): RRT-Connect whose steps pass a transition test on a
// cost map. The cost here is closeness to obstacles (1 / clearance, from the checker's fast
// sphere lower bound), so the trees prefer open space; the temperature rises after rejections
// and falls after accepted uphill steps, as in the paper.
#include <algorithm>
#include <cmath>

#include "engine/planning/sampling/bidirectional_search.hpp"

namespace kinetic {

namespace {
class TransitionTest : public GrowthStrategy {
 public:
  explicit TransitionTest(PlanningSpace& space) : space_(space) {}

  bool propose(const NodeTree& tree, int, std::mt19937_64& rng, int& node,
               JointVector& target) override {
    space_.sample(rng, target);
    node = tree.nearest(target);
    return node >= 0;
  }

  bool accept(int, const JointVector& from, const JointVector& to, std::mt19937_64& rng) override {
    const double c_from = cost(from), c_to = cost(to);
    if (c_to <= c_from) return true;  // downhill (more clearance): always taken
    const double distance = std::max(PlanningSpace::distance(from, to), 1e-6);
    const double slope = (c_to - c_from) / distance;
    const double p = std::exp(-slope / (kBoltzmann * temperature_));
    if (std::uniform_real_distribution<double>(0.0, 1.0)(rng) < p) {
      temperature_ /= std::exp(slope / (kBoltzmann * kInitialTemperature * 10.0));
      temperature_ = std::max(temperature_, 1e-6);
      return true;
    }
    temperature_ *= 2.0;  // too cold: the trees are stuck, allow more uphill steps
    return false;
  }

 private:
  static constexpr double kBoltzmann = 1.0;
  static constexpr double kInitialTemperature = 1e-3;

  double cost(const JointVector& q) {
    const DistanceResult d =
        space_.checker().min_distance(space_.to_full(q), {true, true, /*exact=*/false});
    return d.found ? 1.0 / std::max(d.distance, 1e-3) : 0.0;
  }

  PlanningSpace& space_;
  double temperature_ = kInitialTemperature;
};
}  // namespace

SearchOutcome plan_bitrrt(PlanningSpace& space, const JointVector& start,
                          const std::vector<JointVector>& goals, const PlannerOptions& options,
                          SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  TransitionTest strategy(space);
  return grow_bidirectional(space, start, goals, options, clock, strategy, rng);
}

}  // namespace kinetic
