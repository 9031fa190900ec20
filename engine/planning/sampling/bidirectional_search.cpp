#include "engine/planning/sampling/bidirectional_search.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kinetic {

double extension_range(const PlanningSpace& space, const PlannerOptions& options) {
  if (options.range > 0.0) return options.range;
  // 1/20 of the joint box's diagonal, each rotating joint's span counted up to one turn (the
  // built-in Panda: 0.65 rad, MotionBenchMaker's 0.67). OMPL's default, 0.2 of the plain diagonal,
  // gives the UR5e (±2π joints) 5.8 rad steps and the Panda 2.6: raw paths with long detours that
  // shortcutting then pays to straighten. 1/8 was best among 20 boxes while the trees took turns;
  // with the smaller tree growing next, 1/16 planned MotionBenchMaker's 699 problems with a mean
  // of 1.8 ms where 1/8 took 3.1 (no margin), shorter paths too. 1/20 against 1/16, all 700
  // problems over 16 seeds (no margin): planning 3.5% less (interleaved runs), 1.5% fewer
  // instructions, the seeds' mean p95 5% lower, median path 4.929 -> 4.921 rad; at seed 1 alone
  // 4-6% slower, which is why seed 1 alone chose 1/16 (design-notes.md, Planning).
  const RobotModel& model = space.checker().model();
  double squared = 0.0;
  for (int i = 0; i < space.dof(); ++i) {
    double span = space.upper()[i] - space.lower()[i];
    if (model.variable_joint(space.variables()[static_cast<std::size_t>(i)]).type !=
        JointType::Prismatic)
      span = std::min(span, 2.0 * M_PI);
    squared += span * span;
  }
  return 0.05 * std::sqrt(squared);
}

JointVector steer(const Eigen::Ref<const Eigen::VectorXd>& from, const JointVector& to,
                  double range) {
  const JointVector delta = to - from;
  const double d = delta.norm();
  if (d <= range) return to;
  return from + delta * (range / d);
}

namespace {

enum class Step { Blocked, Advanced, Reached };

// Each tree grows under the sphere covers' check first (CheckOptions::covers_decide): near an
// obstacle a cover that comes within the margin blocks the step without the exact tiers' hull
// distances and sphere walks. It is stricter than the exact check, so the trees stay valid
// when a tree turns to the exact check: once it was blocked kStuckUnderCovers times in a row (a
// passage narrower than the covers' few centimetres of slack, or a root whose cover touches an
// obstacle already). On MotionBenchMaker (700 problems, no margin, the fastest of 5 runs each):
// median 0.68 -> 0.64 ms, mean 1.69 -> 1.59 ms, median path length 4.94 -> 4.91 rad. Turning
// exact after 16 blocks gained less (mean 1.60, length 4.95); never turning took one table_pick
// problem 0.5 -> 227 ms.
constexpr int kStuckUnderCovers = 64;

struct CoversFirst {
  bool covers[2] = {false, false};  // per tree: still checked by the covers
  int blocked[2] = {0, 0};          // per tree: steps blocked in a row under them
  void use(PlanningSpace& space, int tree) const { space.set_covers_decide(covers[tree]); }
  void step_blocked(int tree) {
    if (covers[tree] && ++blocked[tree] >= kStuckUnderCovers) covers[tree] = false;
  }
  void step_made(int tree) { blocked[tree] = 0; }
};

// The states a step works on, kept across steps: a step is taken tens of thousands of times a
// search, and a new vector per state was an allocation and a release each time.
struct StepStates {
  JointVector from, next;
};

// One step of `tree` from `node` towards `target`. target_in_tree: the target is a state of the
// other tree (the greedy connect's), valid already: a step that reaches it skips its state check.
Step extend(PlanningSpace& space, NodeTree& tree, int tree_id, int node, const JointVector& target,
            double range, GrowthStrategy& strategy, std::mt19937_64& rng, int& added,
            CoversFirst& checks, StepStates& states, bool target_in_tree) {
  checks.use(space, tree_id);
  JointVector& from = states.from;
  JointVector& next = states.next;
  from = tree.state(node);  // a copy: adding a node may move the tree's states
  next = target - from;
  const double distance = next.norm();
  const bool reaches = distance <= range;
  if (reaches)
    next = target;
  else
    next = from + next * (range / distance);
  if (!((reaches && target_in_tree) || space.valid(next)) ||
      !strategy.accept(tree_id, from, next, rng) || !space.motion_valid(from, next)) {
    checks.step_blocked(tree_id);
    strategy.blocked(tree_id, node);
    return Step::Blocked;
  }
  checks.step_made(tree_id);
  added = tree.add(next, node);
  strategy.added(tree, tree_id, added);
  return next == target ? Step::Reached : Step::Advanced;
}

// Which trees start under the covers' check: those whose roots pass it.
CoversFirst covers_first(PlanningSpace& space, const JointVector& start,
                         const std::vector<JointVector>& goals) {
  CoversFirst checks;
  space.set_covers_decide(true);
  checks.covers[0] = space.valid(start);
  checks.covers[1] =
      std::all_of(goals.begin(), goals.end(), [&](const JointVector& g) { return space.valid(g); });
  space.set_covers_decide(false);
  return checks;
}

}  // namespace

SearchOutcome grow_bidirectional(PlanningSpace& space, const JointVector& start,
                                 const std::vector<JointVector>& goals,
                                 const PlannerOptions& options, SearchClock& clock,
                                 GrowthStrategy& strategy, std::mt19937_64& rng) {
  SearchOutcome out;
  const double range = extension_range(space, options);
  NodeTree trees[2] = {NodeTree(space.dof()), NodeTree(space.dof())};
  strategy.added(trees[0], 0, trees[0].add(start, -1));
  for (const JointVector& goal : goals) strategy.added(trees[1], 1, trees[1].add(goal, -1));

  auto finish = [&](int start_node, int goal_node) {
    out.path = trees[0].path_from_root(start_node);
    JointVector previous = out.path.back();
    for (int i = goal_node; i >= 0; i = trees[1].parent(i)) {
      if (i == goal_node && trees[1].state(i) == previous) continue;  // the meeting state
      out.path.emplace_back(trees[1].state(i));
    }
  };
  auto stats = [&] {
    out.stats.tree_size = trees[0].size() + trees[1].size();
    out.stats.time_ms = clock.elapsed_ms();
  };

  // The straight line often works (open space): one edge check before growing anything.
  for (int g = 0; g < static_cast<int>(goals.size()); ++g)
    if (space.motion_valid(start, goals[g])) {
      out.path = {start, goals[g]};
      stats();
      return out;
    }

  CoversFirst checks = covers_first(space, start, goals);
  struct ExactAfterwards {  // shortcutting and the callers' checks are exact
    PlanningSpace& space;
    ~ExactAfterwards() { space.set_covers_decide(false); }
  } exact_afterwards{space};

  int current = 0;
  JointVector target, reached;
  StepStates states;
  for (int it = 0; it < options.max_iterations; ++it) {
    out.stats.iterations = it + 1;
    clock.poll("planning", it, trees[0].size() + trees[1].size());
    if (clock.expired_in_loop()) break;
    NodeTree& grow = trees[current];
    NodeTree& other = trees[1 - current];
    const int other_id = 1 - current;
    int node = -1, added = -1;
    if (strategy.propose(grow, current, rng, node, target) &&
        extend(space, grow, current, node, target, range, strategy, rng, added, checks, states,
               /*target_in_tree=*/false) != Step::Blocked) {
      // Greedy connect: keep stepping the other tree towards the new state until blocked.
      reached = grow.state(added);
      int other_node = other.nearest(reached);
      for (;;) {
        int next = -1;
        const Step step = extend(space, other, other_id, other_node, reached, range, strategy, rng,
                                 next, checks, states, /*target_in_tree=*/true);
        if (step == Step::Blocked) break;
        other_node = next;
        if (step == Step::Reached) {
          if (current == 0)
            finish(added, other_node);
          else
            finish(other_node, added);
          stats();
          return out;
        }
      }
    }
    // The smaller tree grows next (VAMP's balanced RRT-Connect), not each in turn: where one end
    // sits in a narrow place (a goal inside a shelf), its tree stays small while the other fills
    // the open space and turns were wasted there. MotionBenchMaker, 699 problems, no margin:
    // mean 12 -> 3.6 ms, p95 46 -> 16 ms.
    current = trees[0].size() <= trees[1].size() ? 0 : 1;
  }
  stats();
  return out;
}

}  // namespace kinetic
