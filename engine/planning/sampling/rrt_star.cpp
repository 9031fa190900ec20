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
}  // namespace

SearchOutcome plan_rrt_star(PlanningSpace& space, const JointVector& start,
                            const std::vector<JointVector>& goals, const PlannerOptions& options,
                            SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double range = extension_range(space, options);
  const double dim = space.dof();
  // Rewiring radius constant: large enough for asymptotic optimality in a box of this size.
  const double gamma = 2.0 * std::pow(1.0 + 1.0 / dim, 1.0 / dim) * space.extent();

  NodeTree tree(space.dof());
  std::vector<double> cost{0.0};
  std::vector<std::vector<int>> children(1);
  tree.add(start, -1);

  SearchOutcome out;
  int best_node = -1, best_goal = -1;
  double best_cost = std::numeric_limits<double>::infinity();
  long stop_at = options.max_iterations;

  auto propagate = [&](int node, double delta) {
    std::vector<int> stack{node};
    while (!stack.empty()) {
      const int n = stack.back();
      stack.pop_back();
      cost[n] += delta;
      for (int c : children[n]) stack.push_back(c);
    }
  };
  auto reparent = [&](int node, int parent) {
    auto& siblings = children[tree.parent(node)];
    siblings.erase(std::find(siblings.begin(), siblings.end(), node));
    tree.set_parent(node, parent);
    children[parent].push_back(node);
  };

  for (const JointVector& goal : goals)
    if (space.motion_valid(start, goal)) {  // open space: the straight line is optimal
      out.path = {start, goal};
      out.stats.tree_size = 1;
      out.stats.time_ms = clock.elapsed_ms();
      return out;
    }

  long rescue_iterations = 0;  // the bidirectional search's, counted in the result
  auto rescue = [&](long it) {
    PlannerOptions connect_options = options;
    connect_options.max_iterations = static_cast<int>(std::max<long>(1, options.max_iterations - it));
    const SearchOutcome found = plan_rrt_connect(space, start, goals, connect_options, clock);
    rescue_iterations = found.stats.iterations;
    if (found.path.size() < 2) return;
    int node = 0;  // the start
    for (std::size_t i = 1; i + 1 < found.path.size(); ++i) {
      const int next = tree.add(found.path[i], node);
      cost.push_back(cost[node] + PlanningSpace::distance(tree.state(node), found.path[i]));
      children.emplace_back();
      children[node].push_back(next);
      node = next;
    }
    int goal = 0;
    for (int g = 1; g < static_cast<int>(goals.size()); ++g)
      if (PlanningSpace::distance(goals[g], found.path.back()) < PlanningSpace::distance(goals[goal], found.path.back()))
        goal = g;
    best_node = node;
    best_goal = goal;
    best_cost = cost[node] + PlanningSpace::distance(tree.state(node), goals[goal]);
    stop_at = std::min<long>(options.max_iterations, it + 1 + static_cast<long>(options.rrt_star_refine_factor * (it + 1)));
  };

  for (long it = 0; it < stop_at; ++it) {
    out.stats.iterations = static_cast<int>(it + 1 + rescue_iterations);
    clock.poll("planning", static_cast<int>(it), tree.size());
    if (clock.expired()) break;
    if (it == kRescueAfter && best_node < 0) {
      rescue(it);
      out.stats.iterations = static_cast<int>(it + 1 + rescue_iterations);
    }
    JointVector target;
    if (unit(rng) < 0.05)
      target = goals[std::uniform_int_distribution<std::size_t>(0, goals.size() - 1)(rng)];
    else
      space.sample(rng, target);
    const int nearest = tree.nearest(target);
    const JointVector q = steer(tree.state(nearest), target, range);
    if (!space.valid(q) || !space.motion_valid(tree.state(nearest), q)) continue;

    const double n = tree.size() + 1;
    const double radius = std::min(range, gamma * std::pow(std::log(n) / n, 1.0 / dim));
    std::vector<int> near = tree.within(q, radius);
    int parent = nearest;
    double parent_cost = cost[nearest] + PlanningSpace::distance(tree.state(nearest), q);
    std::sort(near.begin(), near.end(), [&](int a, int b) {
      return cost[a] + PlanningSpace::distance(tree.state(a), q) <
             cost[b] + PlanningSpace::distance(tree.state(b), q);
    });
    for (int c : near) {
      const double via = cost[c] + PlanningSpace::distance(tree.state(c), q);
      if (via >= parent_cost) break;  // sorted: nothing cheaper follows
      if (c != nearest && space.motion_valid(tree.state(c), q)) {
        parent = c;
        parent_cost = via;
        break;
      }
    }
    const int node = tree.add(q, parent);
    cost.push_back(parent_cost);
    children.emplace_back();
    children[parent].push_back(node);

    for (int c : near) {
      if (c == parent || c == 0) continue;
      const double via = parent_cost + PlanningSpace::distance(q, tree.state(c));
      if (via + 1e-12 < cost[c] && space.motion_valid(q, tree.state(c))) {
        reparent(c, node);
        propagate(c, via - cost[c]);
      }
    }

    for (int g = 0; g < static_cast<int>(goals.size()); ++g) {
      const double to_goal = PlanningSpace::distance(q, goals[g]);
      if (to_goal > range || parent_cost + to_goal >= best_cost) continue;
      if (!space.motion_valid(q, goals[g])) continue;
      if (best_node < 0)
        stop_at = std::min<long>(options.max_iterations,
                                 it + 1 + static_cast<long>(options.rrt_star_refine_factor * (it + 1)));
      best_node = node;
      best_goal = g;
      best_cost = parent_cost + to_goal;
    }
  }
  if (best_node >= 0) {
    out.path = tree.path_from_root(best_node);
    out.path.push_back(goals[best_goal]);
  }
  out.stats.tree_size = tree.size();
  out.stats.time_ms = clock.elapsed_ms();
  return out;
}

}  // namespace kinetic
