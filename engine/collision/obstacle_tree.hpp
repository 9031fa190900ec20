#pragma once
// Broad phase for the fixed obstacles of a scene: a binary tree of bounding spheres over the
// obstacles' root spheres, built when the scene is set. A moving body asks for the obstacles its
// root sphere may touch and visits a handful of nodes instead of every obstacle.
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
    int stack[64];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& node = nodes_[stack[--top]];
      const double reach = node.radius + radius + padding;
      if ((node.center - center).squaredNorm() > reach * reach) continue;
      if (node.first_child < 0) {
        if (visit(node.id)) return true;
        continue;
      }
      stack[top++] = node.first_child + 1;
      stack[top++] = node.first_child;
    }
    return false;
  }

 private:
  struct Node {
    Vector3 center;
    double radius = 0.0;
    int first_child = -1;  // children at first_child and first_child + 1; -1: a leaf
    int id = -1;           // leaves only
  };
  void make(std::vector<Entry>& entries, int begin, int end, int slot);

  std::vector<Node> nodes_;
};

}  // namespace kinetic
