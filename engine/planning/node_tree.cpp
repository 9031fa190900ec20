#include "engine/planning/node_tree.hpp"

#include <algorithm>
#include <limits>

namespace kinetic {

int NodeTree::add(const JointVector& q, int parent) {
  const int node = size();
  data_.insert(data_.end(), q.data(), q.data() + dof_);
  parents_.push_back(parent);
  below_.push_back(-1);
  above_.push_back(-1);
  split_.push_back(0);
  if (node == 0 || dof_ == 0) return node;
  // Down from the root to the empty side where q belongs; q splits one coordinate further on.
  int at = 0;
  for (;;) {
    const int d = split_[static_cast<std::size_t>(at)];
    std::vector<int>& side = q[d] < data_[static_cast<std::size_t>(at) * dof_ + d] ? below_ : above_;
    const int next = side[static_cast<std::size_t>(at)];
    if (next < 0) {
      side[static_cast<std::size_t>(at)] = node;
      split_.back() = (d + 1) % dof_;
      return node;
    }
    at = next;
  }
}

template <class Bound, class Visit>
void NodeTree::search(const double* q, const Bound& bound, const Visit& visit) const {
  if (size() == 0) return;
  // (node, lower bound on the squared distance from q to the region below it). The near side of
  // a node inherits its region's bound; the far side's is at least the squared gap to the
  // splitting plane. A region is skipped when its bound exceeds the caller's (not when equal:
  // a node just as near as the best may have a lower index).
  // One stack per thread, kept between queries (allocation-free; several threads may query one
  // roadmap at once).
  thread_local std::vector<std::pair<int, double>> stack;
  stack.clear();
  stack.emplace_back(0, 0.0);
  while (!stack.empty()) {
    const auto [n, region] = stack.back();
    stack.pop_back();
    if (region > bound()) continue;
    const double* s = data_.data() + static_cast<std::size_t>(n) * dof_;
    visit(n, squared_distance(n, q, bound()));
    const int d = split_[static_cast<std::size_t>(n)];
    const double gap = q[d] - s[d];
    const int near = gap < 0.0 ? below_[static_cast<std::size_t>(n)] : above_[static_cast<std::size_t>(n)];
    const int far = gap < 0.0 ? above_[static_cast<std::size_t>(n)] : below_[static_cast<std::size_t>(n)];
    if (far >= 0) stack.emplace_back(far, std::max(region, gap * gap));
    if (near >= 0) stack.emplace_back(near, region);  // popped first
  }
}

double NodeTree::squared_distance(int node, const double* q, double bound) const {
  const double* s = data_.data() + static_cast<std::size_t>(node) * dof_;
  double sum = 0.0;
  for (int j = 0; j < dof_; ++j) {
    const double d = s[j] - q[j];
    sum += d * d;
    if (sum > bound) return sum;  // already worse than the bound: stop early (equal is exact)
  }
  return sum;
}

int NodeTree::nearest(const JointVector& q) const {
  int best = -1;
  double best_d = std::numeric_limits<double>::infinity();
  search(q.data(), [&] { return best_d; }, [&](int n, double d) {
    if (d < best_d || (d == best_d && n < best)) {
      best_d = d;
      best = n;
    }
  });
  return best;
}

std::vector<int> NodeTree::within(const JointVector& q, double radius) const {
  std::vector<int> out;
  const double r2 = radius * radius;
  search(q.data(), [r2] { return r2; }, [&](int n, double d) {
    if (d < r2) out.push_back(n);
  });
  std::sort(out.begin(), out.end());  // node order, as a scan would list them
  return out;
}

std::vector<int> NodeTree::k_nearest(const JointVector& q, int k) const {
  std::vector<std::pair<double, int>> best;  // sorted ascending by (distance, node), at most k
  if (k <= 0) return {};
  const auto bound = [&] {
    return static_cast<int>(best.size()) == k ? best.back().first : std::numeric_limits<double>::infinity();
  };
  search(q.data(), bound, [&](int n, double d) {
    const std::pair<double, int> entry{d, n};
    if (static_cast<int>(best.size()) == k && !(entry < best.back())) return;
    best.insert(std::upper_bound(best.begin(), best.end(), entry), entry);
    if (static_cast<int>(best.size()) > k) best.pop_back();
  });
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
