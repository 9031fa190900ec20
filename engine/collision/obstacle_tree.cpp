#include "engine/collision/obstacle_tree.hpp"

#include <algorithm>

namespace kinetic {

void ObstacleTree::build(std::vector<Entry> entries) {
  nodes_.clear();
  if (entries.empty()) return;
  nodes_.reserve(2 * entries.size());
  nodes_.emplace_back();
  make(entries, 0, static_cast<int>(entries.size()), 0);
}

// Median split along the widest spread of centres: depth stays log2(n), far below the query's
// fixed stack of 64. Children are allocated side by side.
void ObstacleTree::make(std::vector<Entry>& entries, int begin, int end, int slot) {
  Node node;
  if (end - begin == 1) {
    node.center = entries[begin].center;
    node.radius = entries[begin].radius;
    node.id = entries[begin].id;
    nodes_[slot] = node;
    return;
  }
  Eigen::AlignedBox3d box;  // of the centres: picks the split axis
  node.low = entries[begin].center - Vector3::Constant(entries[begin].radius);
  node.high = entries[begin].center + Vector3::Constant(entries[begin].radius);
  for (int i = begin; i < end; ++i) {
    box.extend(entries[i].center);
    node.low = node.low.cwiseMin(entries[i].center - Vector3::Constant(entries[i].radius));
    node.high = node.high.cwiseMax(entries[i].center + Vector3::Constant(entries[i].radius));
  }
  int axis = 0;
  box.sizes().maxCoeff(&axis);
  const int mid = begin + (end - begin) / 2;
  std::nth_element(
      entries.begin() + begin, entries.begin() + mid, entries.begin() + end,
      [axis](const Entry& a, const Entry& b) { return a.center[axis] < b.center[axis]; });
  node.first_child = static_cast<int>(nodes_.size());
  nodes_[slot] = node;
  nodes_.emplace_back();
  nodes_.emplace_back();
  make(entries, begin, mid, node.first_child);
  make(entries, mid, end, node.first_child + 1);
}

}  // namespace kinetic
