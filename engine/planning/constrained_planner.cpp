#include "engine/planning/constrained_planner.hpp"

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/planning/sampling/bidirectional_search.hpp"
#include "engine/planning/sampling/node_tree.hpp"

namespace kinetic {

namespace {

// Walks from `from` towards `to` on the constraint set in resolution steps, up to `range`.
// Appends the projected states to `walk` (excluding `from`); returns true when `to` was reached.
bool walk_towards(PlanningSpace& space, const ConstraintProjector& projector,
                  const JointVector& from, const JointVector& to, double range, JointPath& walk) {
  JointVector q = from;
  double travelled = 0.0;
  const double step = space.resolution();
  for (int guard = 0; guard < 100000; ++guard) {
    const JointVector delta = to - q;
    const double remaining = delta.norm();
    if (remaining <= step) {
      if (!space.motion_valid(q, to)) return false;
      walk.push_back(to);
      return true;
    }
    if (travelled >= range) return false;
    JointVector next = q + delta * (step / remaining);
    if (!projector.project(next)) return false;
    const double moved = (next - q).norm();
    // Projection that throws the state far or back where it was: the constraint set turns away.
    if (moved > 2.0 * step || (to - next).norm() >= remaining - 1e-9) return false;
    if (!space.valid(next) || !space.motion_valid(q, next)) return false;
    walk.push_back(next);
    travelled += moved;
    q = next;
  }
  return false;
}

}  // namespace

SearchOutcome plan_constrained(PlanningSpace& space, const ConstraintProjector& projector,
                               const JointVector& start, const std::vector<JointVector>& goals,
                               const PlannerOptions& options, SearchClock& clock) {
  std::mt19937_64 rng(options.seed);
  const double range = std::min(extension_range(space, options), 0.5);
  SearchOutcome out;
  // Trees store every walked state, so a tree path is already dense.
  NodeTree trees[2] = {NodeTree(space.dof()), NodeTree(space.dof())};
  trees[0].add(start, -1);
  for (const auto& g : goals) trees[1].add(g, -1);

  auto append_walk = [](NodeTree& tree, int from, const JointPath& walk) {
    int last = from;
    for (const auto& q : walk) last = tree.add(q, last);
    return last;
  };
  auto finish = [&](int start_node, int goal_node) {
    out.path = trees[0].path_from_root(start_node);
    for (int i = goal_node; i >= 0; i = trees[1].parent(i))
      if (!(trees[1].state(i) == out.path.back())) out.path.emplace_back(trees[1].state(i));
  };

  // The straight walk first: the common case of a motion along the constraint.
  for (int g = 0; g < static_cast<int>(goals.size()); ++g) {
    JointPath walk;
    if (walk_towards(space, projector, start, goals[g], 1e9, walk)) {
      out.path = {start};
      out.path.insert(out.path.end(), walk.begin(), walk.end());
      out.stats.tree_size = static_cast<int>(out.path.size());
      out.stats.time_ms = clock.elapsed_ms();
      return out;
    }
  }

  int current = 0;
  JointVector sample;
  for (int it = 0; it < options.max_iterations; ++it) {
    out.stats.iterations = it + 1;
    clock.poll("planning", it, trees[0].size() + trees[1].size());
    if (clock.expired_in_loop()) break;
    NodeTree& grow = trees[current];
    NodeTree& other = trees[1 - current];
    space.sample(rng, sample);
    if (!projector.project(sample)) {  // the walk may end exactly on the sample: it must comply
      current = 1 - current;
      continue;
    }
    const int near = grow.nearest(sample);
    JointPath walk;
    walk_towards(space, projector, grow.state(near), sample, range, walk);
    if (!walk.empty()) {
      const int added = append_walk(grow, near, walk);
      const JointVector reached = grow.state(added);
      const int other_near = other.nearest(reached);
      JointPath back;
      const bool joined =
          walk_towards(space, projector, other.state(other_near), reached, 1e9, back);
      const int other_end = append_walk(other, other_near, back);
      if (joined) {
        if (current == 0)
          finish(added, other_end);
        else
          finish(other_end, added);
        break;
      }
    }
    current = 1 - current;
  }
  out.stats.tree_size = trees[0].size() + trees[1].size();
  out.stats.time_ms = clock.elapsed_ms();
  return out;
}

void shortcut_constrained(PlanningSpace& space, const ConstraintProjector& projector,
                          JointPath& path, int passes, std::mt19937_64& rng, SearchClock& clock) {
  // As shortcut_path: a run of fruitless tries means the path is (nearly) locally shortest.
  const int give_up_after = std::max(16, passes / 4);
  std::vector<double> cumulative;
  int unchanged = 0;
  for (int pass = 0; pass < passes && path.size() >= 3 && unchanged < give_up_after;
       ++pass, ++unchanged) {
    clock.poll("shortcutting", pass, static_cast<int>(path.size()));
    cumulative.assign(1, 0.0);
    for (std::size_t i = 1; i < path.size(); ++i)
      cumulative.push_back(cumulative.back() + (path[i] - path[i - 1]).norm());
    std::uniform_int_distribution<std::size_t> pick(0, path.size() - 1);
    std::size_t a = pick(rng), b = pick(rng);
    if (a > b) std::swap(a, b);
    if (b < a + 2) continue;
    const double stretch = cumulative[b] - cumulative[a];
    // Not worth a walk unless the chord is clearly shorter than the stretch it would replace.
    if ((path[b] - path[a]).norm() > 0.98 * stretch) continue;
    JointPath walk;
    if (!walk_towards(space, projector, path[a], path[b], 1e9, walk)) continue;
    double walked = (walk.front() - path[a]).norm();
    for (std::size_t i = 1; i < walk.size(); ++i) walked += (walk[i] - walk[i - 1]).norm();
    if (walked >= 0.98 * stretch) continue;
    JointPath next(path.begin(), path.begin() + static_cast<long>(a) + 1);
    next.insert(next.end(), walk.begin(), walk.end());  // ends with path[b]
    next.insert(next.end(), path.begin() + static_cast<long>(b) + 1, path.end());
    path = std::move(next);
    unchanged = -1;  // the loop's increment makes it 0
  }
}

}  // namespace kinetic
