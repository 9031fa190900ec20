#include "engine/planning/sampling/prm.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace kinetic {

int Roadmap::find(int node) {
  while (component_[node] != node) {
    component_[node] = component_[component_[node]];
    node = component_[node];
  }
  return node;
}

void Roadmap::join(int a, int b) {
  component_[find(a)] = find(b);
}

int Roadmap::add_node(PlanningSpace& space, const JointVector& q, int neighbours) {
  const std::vector<int> near = nodes_.k_nearest(q, neighbours);
  const int node = nodes_.add(q, -1);
  edges_.emplace_back();
  component_.push_back(node);
  for (int other : near) {
    if (find(other) == find(node) && edges_[node].size() > 0) continue;  // already connected
    const JointVector s = nodes_.state(other);
    if (!space.motion_valid(q, s)) continue;
    const double length = PlanningSpace::distance(q, s);
    edges_[node].push_back({other, length});
    edges_[other].push_back({node, length});
    ++edge_count_;
    join(node, other);
  }
  return node;
}

JointPath Roadmap::shortest_path(int from, const std::vector<int>& targets) const {
  // A* with the distance to the closest target as the (admissible) heuristic.
  auto heuristic = [&](int n) {
    double h = std::numeric_limits<double>::infinity();
    for (int t : targets)
      h = std::min(h, PlanningSpace::distance(nodes_.state(n), nodes_.state(t)));
    return h;
  };
  std::vector<double> g(nodes_.size(), std::numeric_limits<double>::infinity());
  std::vector<int> came_from(nodes_.size(), -1);
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  g[from] = 0.0;
  open.push({heuristic(from), from});
  int reached = -1;
  while (!open.empty()) {
    const auto [f, n] = open.top();
    open.pop();
    if (f > g[n] + heuristic(n) + 1e-12) continue;  // stale entry
    if (std::find(targets.begin(), targets.end(), n) != targets.end()) {
      reached = n;
      break;
    }
    for (const Edge& e : edges_[n]) {
      const double candidate = g[n] + e.length;
      if (candidate < g[e.to]) {
        g[e.to] = candidate;
        came_from[e.to] = n;
        open.push({candidate + heuristic(e.to), e.to});
      }
    }
  }
  JointPath path;
  for (int n = reached; n >= 0; n = came_from[n]) path.emplace_back(nodes_.state(n));
  std::reverse(path.begin(), path.end());
  return path;
}

SearchOutcome Roadmap::query(PlanningSpace& space, const JointVector& start,
                             const std::vector<JointVector>& goals, const PlannerOptions& options,
                             SearchClock& clock) {
  if (!seeded_) {
    rng_.seed(options.seed);
    seeded_ = true;
  }
  SearchOutcome out;
  const int k = options.prm_neighbors;
  const int start_node = add_node(space, start, k);
  std::vector<int> goal_nodes;
  for (const JointVector& goal : goals) goal_nodes.push_back(add_node(space, goal, k));
  auto connected = [&] {
    for (int g : goal_nodes)
      if (find(g) == find(start_node)) return true;
    return false;
  };
  JointVector sample;
  int it = 0;
  while (!connected()) {
    clock.poll("planning", it, size());
    if (clock.expired_in_loop() || it >= options.max_iterations) break;
    ++it;
    space.sample(rng_, sample);
    if (space.valid(sample)) add_node(space, sample, k);
  }
  out.stats.iterations = it;
  if (connected()) {
    std::vector<int> targets;
    for (int g : goal_nodes)
      if (find(g) == find(start_node)) targets.push_back(g);
    out.path = shortest_path(start_node, targets);
  }
  out.stats.tree_size = size();
  out.stats.time_ms = clock.elapsed_ms();
  return out;
}

}  // namespace kinetic
