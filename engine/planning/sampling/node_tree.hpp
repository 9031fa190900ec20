#pragma once
// NodeTree: the states of a search tree or roadmap in one contiguous array (dof doubles per node)
// with parent links, and a k-d tree over them for the neighbour queries. Each node splits space
// at its own state along one coordinate and is linked in as it arrives; the tree is rebuilt
// balanced each time its size doubles. A linear scan costs every query the whole tree: on a hard
// problem (10,000+ nodes) that was a third of the planning time. But most searches end with a few
// dozen nodes, where the k-d tree's walk (a branch per node, a stack) cost more than reading every
// node: the nearest node of a small tree is found by a scan over the states kept again in blocks
// of four nodes (a joint's four values side by side: four nodes' distances per vector operation,
// each lane keeping its nearest, no branch per node). Answers are those of a scan in node order:
// among equally near nodes the lower index wins.
#include <utility>
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
    return Eigen::Map<const Eigen::VectorXd>(data_.data() + static_cast<std::size_t>(node) * dof_,
                                             dof_);
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
  // Rebuilds the k-d tree balanced (median splits along the widest coordinate): nodes linked in
  // as they arrive follow the search's own paths (a connect step adds a line of them), and the
  // tree grew deep and lopsided. Done whenever the size reaches a power of two from
  // kFirstRebalance on: O(log n) per node, amortised.
  void rebalance();
  int build(int* first, int* last);  // the subtree of these nodes; returns its root (-1: none)
  static constexpr int kFirstRebalance = 256;
  // Up to this many nodes nearest() scans the columns instead of walking the k-d tree.
  static constexpr int kMaxScanned = 256;
  int scan_nearest(const double* q) const;
  // Depth-first over the k-d tree: visit(node, squared distance) for every node that may lie
  // within bound() (a callable: the bound shrinks as the caller finds closer nodes).
  template <class Bound, class Visit>
  void search(const double* q, const Bound& bound, const Visit& visit) const;

  int dof_;
  std::vector<double> data_;
  // The states again while the tree is small enough to scan (kMaxScanned), in blocks of four
  // nodes, joint by joint within a block (four nodes' values of one joint side by side).
  std::vector<double> columns_;
  std::vector<int> parents_;
  // k-d tree links per node (-1: none) and the coordinate the node splits at.
  int root_ = 0;
  std::vector<int> below_, above_;
  std::vector<int> split_;
};

}  // namespace kinetic
