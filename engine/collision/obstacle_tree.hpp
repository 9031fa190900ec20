#pragma once
// Broad phase for the fixed obstacles of a scene: a binary tree over the obstacles' root spheres,
// built when the scene is set. Inner nodes are axis-aligned boxes around the spheres below them
// (much tighter than spheres around spread-out clusters, so a query descends into fewer of them);
// leaves keep the obstacle's sphere. A moving body asks for the obstacles its root sphere may
// touch and visits a handful of nodes instead of every obstacle.
#include <algorithm>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

class ObstacleTree {
 public:
  struct Entry {
    int id;  // caller's index (a body index)
    Vector3 center;
    double radius;
  };

  void build(std::vector<Entry> entries);
  bool empty() const { return nodes_.empty(); }

  // Calls visit(id) for every entry whose sphere comes within `padding` of the query sphere;
  // stops and returns true as soon as visit returns true.
  template <class Visit>
  bool any_near(const Vector3& center, double radius, double padding, const Visit& visit) const {
    if (nodes_.empty()) return false;
    const double reach = radius + padding;
    int stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& node = nodes_[stack[--top]];
      if (node.first_child < 0) {
        const double limit = node.radius + reach;
        if ((node.center - center).squaredNorm() > limit * limit) continue;
        if (visit(node.id)) return true;
        continue;
      }
      // Squared distance from the query centre to the node's box.
      double outside = 0.0;
      for (int k = 0; k < 3; ++k) {
        const double gap =
            std::max(std::max(node.low[k] - center[k], center[k] - node.high[k]), 0.0);
        outside += gap * gap;
      }
      if (outside > reach * reach) continue;
      stack[top++] = node.first_child + 1;
      stack[top++] = node.first_child;
    }
    return false;
  }

 private:
  struct Node {
    Vector3 low = Vector3::Zero(), high = Vector3::Zero();  // inner nodes: box around the spheres
    Vector3 center = Vector3::Zero();                       // leaves: the entry's sphere
    double radius = 0.0;
    int first_child = -1;  // children at first_child and first_child + 1; -1: a leaf
    int id = -1;           // leaves only
  };
  void make(std::vector<Entry>& entries, int begin, int end, int slot);

  std::vector<Node> nodes_;
};

}  // namespace kinetic
