#pragma once
// PRM (Kavraki et al. 1996): a roadmap of collision-free states joined by collision-free edges,
// kept between queries. A query joins start and goals to their nearest roadmap states, grows the
// roadmap until they share a component, then searches it (A*). The roadmap belongs to one robot,
// group, scene and margin: the Planner facade drops it when any of them changes.
#include <cstdint>
#include <random>
#include <vector>

#include "engine/planning/sampling/geometric_planners.hpp"
#include "engine/planning/sampling/node_tree.hpp"

namespace kinetic {

class Roadmap {
 public:
  explicit Roadmap(int dof) : nodes_(dof) {}

  int size() const { return nodes_.size(); }
  int edge_count() const { return edge_count_; }

  SearchOutcome query(PlanningSpace& space, const JointVector& start,
                      const std::vector<JointVector>& goals, const PlannerOptions& options,
                      SearchClock& clock);

 private:
  struct Edge {
    int to;
    double length;
  };
  int add_node(PlanningSpace& space, const JointVector& q, int neighbours);
  int find(int node);  // union-find root of the node's component
  void join(int a, int b);
  JointPath shortest_path(int from, const std::vector<int>& targets) const;

  NodeTree nodes_;
  std::vector<std::vector<Edge>> edges_;
  std::vector<int> component_;
  int edge_count_ = 0;
  std::mt19937_64 rng_;
  bool seeded_ = false;
};

}  // namespace kinetic
