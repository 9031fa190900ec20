#include "engine/planning/node_tree.hpp"

#include <algorithm>
#include <limits>

namespace kinetic {

int NodeTree::add(const JointVector& q, int parent) {
  data_.insert(data_.end(), q.data(), q.data() + dof_);
  parents_.push_back(parent);
  return size() - 1;
}

double NodeTree::squared_distance(int node, const double* q, double bound) const {
  const double* s = data_.data() + static_cast<std::size_t>(node) * dof_;
  double sum = 0.0;
  for (int j = 0; j < dof_; ++j) {
    const double d = s[j] - q[j];
    sum += d * d;
    if (sum >= bound) return sum;  // already worse than the best: stop early
  }
  return sum;
}

int NodeTree::nearest(const JointVector& q) const {
  int best = -1;
  double best_d = std::numeric_limits<double>::infinity();
  for (int i = 0; i < size(); ++i) {
    const double d = squared_distance(i, q.data(), best_d);
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  return best;
}

std::vector<int> NodeTree::within(const JointVector& q, double radius) const {
  std::vector<int> out;
  const double r2 = radius * radius;
  for (int i = 0; i < size(); ++i)
    if (squared_distance(i, q.data(), r2) < r2) out.push_back(i);
  return out;
}

std::vector<int> NodeTree::k_nearest(const JointVector& q, int k) const {
  std::vector<std::pair<double, int>> best;  // sorted ascending, at most k
  double bound = std::numeric_limits<double>::infinity();
  for (int i = 0; i < size(); ++i) {
    const double d = squared_distance(i, q.data(), bound);
    if (d >= bound) continue;
    best.insert(std::upper_bound(best.begin(), best.end(), std::make_pair(d, i)), {d, i});
    if (static_cast<int>(best.size()) > k) best.pop_back();
    if (static_cast<int>(best.size()) == k) bound = best.back().first;
  }
  std::vector<int> out;
  out.reserve(best.size());
  for (const auto& entry : best) out.push_back(entry.second);
  return out;
}

std::vector<JointVector> NodeTree::path_from_root(int node) const {
  std::vector<JointVector> path;
  for (int i = node; i >= 0; i = parents_[i]) path.emplace_back(state(i));
  std::reverse(path.begin(), path.end());
  return path;
}

}  // namespace kinetic
