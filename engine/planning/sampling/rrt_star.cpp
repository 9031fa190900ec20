// RRT* (Karaman & Frazzoli 2011): one tree from the start; each new state takes the cheapest
// collision-free parent among its neighbours, then rewires neighbours through itself when that
// shortens them. Goals are tried directly from every new state within range. After the first
// solution the search continues for rrt_star_refine_factor times the iterations it took,
// keeping the shortest path found. A single tree finds a first path slowly where a goal sits in
// a pocket (40,194 iterations for one UR5e problem among 20 boxes, where RRT-Connect needs a few
// dozen): with none after kRescueAfter iterations, a bidirectional search finds one and the tree
// takes it as a chain of nodes, which the refinement then rewires like any other.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/planning/sampling/bidirectional_search.hpp"
#include "engine/planning/sampling/geometric_planners.hpp"
#include "engine/planning/sampling/node_tree.hpp"

namespace kinetic {

namespace {

constexpr long kRescueAfter = 1000;

// One RRT* search: the tree with each node's cost from the start and its children (for
// rewiring), the best solution so far and the iteration the search stops at. One member function
// per step of an iteration.
class RrtStarSearch {
 public:
  RrtStarSearch(PlanningSpace& space, const JointVector& start,
                const std::vector<JointVector>& goals, const PlannerOptions& options,
                SearchClock& clock)
      : space_(space),
        start_(start),
        goals_(goals),
        options_(options),
        clock_(clock),
        rng_(options.seed),
        range_(extension_range(space, options)),
        dim_(space.dof()),
        // Rewiring radius constant: large enough for asymptotic optimality in a box of this size.
        gamma_(2.0 * std::pow(1.0 + 1.0 / dim_, 1.0 / dim_) * space.extent()),
        tree_(space.dof()),
        stop_at_(options.max_iterations) {
    tree_.add(start, -1);
  }

  SearchOutcome run() {
    SearchOutcome out;
    for (const JointVector& goal : goals_)
      if (space_.motion_valid(start_, goal)) {  // open space: the straight line is optimal
        out.path = {start_, goal};
        out.stats.tree_size = 1;
        out.stats.time_ms = clock_.elapsed_ms();
        return out;
      }
    for (long it = 0; it < stop_at_; ++it) {
      out.stats.iterations = static_cast<int>(it + 1 + rescue_iterations_);
      clock_.poll("planning", static_cast<int>(it), tree_.size());
      if (clock_.expired()) break;
      if (it == kRescueAfter && best_node_ < 0) {
        rescue(it);
        out.stats.iterations = static_cast<int>(it + 1 + rescue_iterations_);
      }
      extend(it);
    }
    if (best_node_ >= 0) {
      out.path = tree_.path_from_root(best_node_);
      out.path.push_back(goals_[best_goal_]);
    }
    out.stats.tree_size = tree_.size();
    out.stats.time_ms = clock_.elapsed_ms();
    return out;
  }

 private:
  // One iteration: a state steered towards a sample (a goal one time in twenty), added under its
  // cheapest parent; its neighbours rewired through it; the goals within range tried from it.
  void extend(long it) {
    JointVector target;
    if (unit_(rng_) < 0.05)
      target = goals_[std::uniform_int_distribution<std::size_t>(0, goals_.size() - 1)(rng_)];
    else
      space_.sample(rng_, target);
    const int nearest = tree_.nearest(target);
    const JointVector q = steer(tree_.state(nearest), target, range_);
    if (!space_.valid(q) || !space_.motion_valid(tree_.state(nearest), q)) return;

    const double n = tree_.size() + 1;
    const double radius = std::min(range_, gamma_ * std::pow(std::log(n) / n, 1.0 / dim_));
    std::vector<int> near = tree_.within(q, radius);
    const auto [parent, parent_cost] = choose_parent(q, nearest, near);
    const int node = tree_.add(q, parent);
    cost_.push_back(parent_cost);
    children_.emplace_back();
    children_[parent].push_back(node);
    rewire(q, node, parent, parent_cost, near);
    try_goals(q, node, parent_cost, it);
  }

  // The cheapest neighbour q can be reached from (the nearest node when none is cheaper), and
  // the cost of q through it. Sorts `near` by that cost.
  std::pair<int, double> choose_parent(const JointVector& q, int nearest,
                                       std::vector<int>& near) const {
    int parent = nearest;
    double parent_cost = cost_[nearest] + PlanningSpace::distance(tree_.state(nearest), q);
    std::sort(near.begin(), near.end(), [&](int a, int b) {
      return cost_[a] + PlanningSpace::distance(tree_.state(a), q) <
             cost_[b] + PlanningSpace::distance(tree_.state(b), q);
    });
    for (int c : near) {
      const double via = cost_[c] + PlanningSpace::distance(tree_.state(c), q);
      if (via >= parent_cost) break;  // sorted: nothing cheaper follows
      if (c != nearest && space_.motion_valid(tree_.state(c), q)) {
        parent = c;
        parent_cost = via;
        break;
      }
    }
    return {parent, parent_cost};
  }

  // Neighbours that are cheaper through the new node (at q) take it as their parent.
  void rewire(const JointVector& q, int node, int parent, double node_cost,
              const std::vector<int>& near) {
    for (int c : near) {
      if (c == parent || c == 0) continue;
      const double via = node_cost + PlanningSpace::distance(q, tree_.state(c));
      if (via + 1e-12 < cost_[c] && space_.motion_valid(q, tree_.state(c))) {
        reparent(c, node);
        propagate(c, via - cost_[c]);
      }
    }
  }

  // A goal within range of the new node that makes a cheaper solution; the first solution sets
  // when the refinement stops.
  void try_goals(const JointVector& q, int node, double node_cost, long it) {
    for (int g = 0; g < static_cast<int>(goals_.size()); ++g) {
      const double to_goal = PlanningSpace::distance(q, goals_[g]);
      if (to_goal > range_ || node_cost + to_goal >= best_cost_) continue;
      if (!space_.motion_valid(q, goals_[g])) continue;
      if (best_node_ < 0) stop_refining_after(it);
      best_node_ = node;
      best_goal_ = g;
      best_cost_ = node_cost + to_goal;
    }
  }

  void stop_refining_after(long it) {
    stop_at_ =
        std::min<long>(options_.max_iterations,
                       it + 1 + static_cast<long>(options_.rrt_star_refine_factor * (it + 1)));
  }

  // Adds delta to the cost of `node` and of everything below it.
  void propagate(int node, double delta) {
    std::vector<int> stack{node};
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      cost_[n] += delta;
      for (int c : children_[n]) stack.push_back(c);
    }
  }

  void reparent(int node, int parent) {
    auto& siblings = children_[tree_.parent(node)];
    siblings.erase(std::find(siblings.begin(), siblings.end(), node));
    tree_.set_parent(node, parent);
    children_[parent].push_back(node);
  }

  // No solution after kRescueAfter iterations: a bidirectional search's path joins the tree as a
  // chain of nodes, a solution the refinement then rewires like any other.
  void rescue(long it) {
    PlannerOptions connect_options = options_;
    connect_options.max_iterations =
        static_cast<int>(std::max<long>(1, options_.max_iterations - it));
    const SearchOutcome found = plan_rrt_connect(space_, start_, goals_, connect_options, clock_);
    rescue_iterations_ = found.stats.iterations;
    if (found.path.size() < 2) return;
    int node = 0;  // the start
    for (std::size_t i = 1; i + 1 < found.path.size(); ++i) {
      const int next = tree_.add(found.path[i], node);
      cost_.push_back(cost_[node] + PlanningSpace::distance(tree_.state(node), found.path[i]));
      children_.emplace_back();
      children_[node].push_back(next);
      node = next;
    }
    int goal = 0;
    for (int g = 1; g < static_cast<int>(goals_.size()); ++g)
      if (PlanningSpace::distance(goals_[g], found.path.back()) <
          PlanningSpace::distance(goals_[goal], found.path.back()))
        goal = g;
    best_node_ = node;
    best_goal_ = goal;
    best_cost_ = cost_[node] + PlanningSpace::distance(tree_.state(node), goals_[goal]);
    stop_refining_after(it);
  }

  PlanningSpace& space_;
  const JointVector& start_;
  const std::vector<JointVector>& goals_;
  const PlannerOptions& options_;
  SearchClock& clock_;
  std::mt19937_64 rng_;
  std::uniform_real_distribution<double> unit_{0.0, 1.0};
  const double range_;
  const double dim_;
  const double gamma_;
  NodeTree tree_;
  std::vector<double> cost_{0.0};  // per node: path length from the start
  std::vector<std::vector<int>> children_ = std::vector<std::vector<int>>(1);  // per node
  int best_node_ = -1, best_goal_ = -1;
  double best_cost_ = std::numeric_limits<double>::infinity();
  long stop_at_;
  long rescue_iterations_ = 0;  // the bidirectional search's, counted in the result
};

}  // namespace

SearchOutcome plan_rrt_star(PlanningSpace& space, const JointVector& start,
                            const std::vector<JointVector>& goals, const PlannerOptions& options,
                            SearchClock& clock) {
  return RrtStarSearch(space, start, goals, options, clock).run();
}

}  // namespace kinetic
