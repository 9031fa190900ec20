#pragma once
// NodeTree: the states of a search tree or roadmap in one contiguous array (dof doubles per node)
// with parent links. Nearest-neighbour queries are linear scans with early exit on the partial
// squared distance: at 6-7 DOF and a few thousand nodes that beats tree structures, whose
// pruning degrades in this dimension, and it needs no rebuilding as nodes arrive.
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

class NodeTree {
 public:
  explicit NodeTree(int dof) : dof_(dof) {}

  int dof() const { return dof_; }
  int size() const { return static_cast<int>(parents_.size()); }
  int add(const JointVector& q, int parent);
  Eigen::Map<const Eigen::VectorXd> state(int node) const {
    return Eigen::Map<const Eigen::VectorXd>(data_.data() + static_cast<std::size_t>(node) * dof_, dof_);
  }
  int parent(int node) const { return parents_[node]; }
  void set_parent(int node, int parent) { parents_[node] = parent; }

  int nearest(const JointVector& q) const;  // -1 when empty
  std::vector<int> within(const JointVector& q, double radius) const;
  std::vector<int> k_nearest(const JointVector& q, int k) const;  // closest first
  // States from the root down to `node`.
  std::vector<JointVector> path_from_root(int node) const;

 private:
  double squared_distance(int node, const double* q, double bound) const;

  int dof_;
  std::vector<double> data_;
  std::vector<int> parents_;
};

}  // namespace kinetic
