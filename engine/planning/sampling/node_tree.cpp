#include "engine/planning/sampling/node_tree.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace kinetic {

int NodeTree::add(const JointVector& q, int parent) {
  const int node = size();
  data_.insert(data_.end(), q.data(), q.data() + dof_);
  if (node < kMaxScanned) {
    // A new block of four holds +infinity where no node is yet: its sums never win.
    const std::size_t block = static_cast<std::size_t>(node / 4) * dof_ * 4;
    if (node % 4 == 0)
      columns_.resize(block + static_cast<std::size_t>(dof_) * 4,
                      std::numeric_limits<double>::infinity());
    for (int j = 0; j < dof_; ++j)
      columns_[block + static_cast<std::size_t>(j) * 4 + node % 4] = q[j];
  } else if (!columns_.empty()) {
    columns_ = {};  // the k-d tree answers from here on
  }
  parents_.push_back(parent);
  below_.push_back(-1);
  above_.push_back(-1);
  split_.push_back(0);
  if (node == 0 || dof_ == 0) return node;
  if (node + 1 >= kFirstRebalance && ((node + 1) & node) == 0) {  // the size reached a power of two
    rebalance();
    return node;
  }
  // Down from the root to the empty side where q belongs; q splits one coordinate further on.
  int at = root_;
  for (;;) {
    const int d = split_[static_cast<std::size_t>(at)];
    std::vector<int>& side =
        q[d] < data_[static_cast<std::size_t>(at) * dof_ + d] ? below_ : above_;
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
  // Depth first, with the lower bound on the squared distance from q to each region kept per
  // coordinate (Arya and Mount's incremental distance): offset[d] is q's distance to the region
  // along coordinate d, and the bound their sum of squares. The far side of a node's split
  // replaces one coordinate's offset by the gap to the splitting plane. (The gap alone, as a
  // bound, left a query in 7 dimensions visiting most of a large tree: the neighbour queries were
  // a third of the time on hard problems.) A region is skipped when its bound exceeds the
  // caller's (not when equal: a node just as near as the best may have a lower index).
  // An entry with coordinate >= 0 sets offset[coordinate] for its subtree; a restore entry
  // (node -1) puts the old value back once the subtree is done.
  // One stack per thread, kept between queries (allocation-free; several threads may query one
  // roadmap at once).
  struct Entry {
    int node;
    int coordinate;  // -1: the offsets stay as they are
    double region, offset;
  };
  thread_local std::vector<Entry> stack;
  thread_local std::vector<double> offset;
  stack.clear();
  offset.assign(static_cast<std::size_t>(dof_), 0.0);
  stack.push_back({root_, -1, 0.0, 0.0});
  while (!stack.empty()) {
    const Entry entry = stack.back();
    stack.pop_back();
    if (entry.node < 0) {  // leaving a far side: its coordinate's offset as it was
      offset[static_cast<std::size_t>(entry.coordinate)] = entry.offset;
      continue;
    }
    if (entry.region > bound()) continue;
    if (entry.coordinate >= 0) {
      double& slot = offset[static_cast<std::size_t>(entry.coordinate)];
      stack.push_back({-1, entry.coordinate, 0.0, slot});
      slot = entry.offset;
    }
    const int n = entry.node;
    const double* s = data_.data() + static_cast<std::size_t>(n) * dof_;
    visit(n, squared_distance(n, q, bound()));
    const int d = split_[static_cast<std::size_t>(n)];
    const double gap = q[d] - s[d];
    const int near =
        gap < 0.0 ? below_[static_cast<std::size_t>(n)] : above_[static_cast<std::size_t>(n)];
    const int far =
        gap < 0.0 ? above_[static_cast<std::size_t>(n)] : below_[static_cast<std::size_t>(n)];
    if (far >= 0) {
      const double old = offset[static_cast<std::size_t>(d)];
      const double region = entry.region - old * old + gap * gap;
      if (!(region > bound()))
        stack.push_back({far, d, std::max(region, entry.region), std::abs(gap)});
    }
    if (near >= 0) stack.push_back({near, -1, entry.region, 0.0});  // popped first
  }
}

void NodeTree::rebalance() {
  std::vector<int> nodes(parents_.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) nodes[i] = static_cast<int>(i);
  std::fill(below_.begin(), below_.end(), -1);
  std::fill(above_.begin(), above_.end(), -1);
  root_ = build(nodes.data(), nodes.data() + nodes.size());
}

int NodeTree::build(int* first, int* last) {
  if (first == last) return -1;
  // Split at the median along the coordinate the nodes spread widest in: below it the nodes at
  // or under the median's value, above it those at or over (the search's pruning needs no more).
  int widest = 0;
  double widest_spread = -1.0;
  for (int d = 0; d < dof_; ++d) {
    double low = std::numeric_limits<double>::infinity(), high = -low;
    for (const int* n = first; n != last; ++n) {
      const double v = data_[static_cast<std::size_t>(*n) * dof_ + d];
      low = std::min(low, v);
      high = std::max(high, v);
    }
    if (high - low > widest_spread) {
      widest_spread = high - low;
      widest = d;
    }
  }
  int* middle = first + (last - first) / 2;
  std::nth_element(first, middle, last, [&](int a, int b) {
    return data_[static_cast<std::size_t>(a) * dof_ + widest] <
           data_[static_cast<std::size_t>(b) * dof_ + widest];
  });
  const int node = *middle;
  split_[static_cast<std::size_t>(node)] = widest;
  below_[static_cast<std::size_t>(node)] = build(first, middle);
  above_[static_cast<std::size_t>(node)] = build(middle + 1, last);
  return node;
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

namespace {
// The nearest of n nodes kept in blocks of four (blocks[(4 dof) b + 4 j + k]: joint j of node
// 4b + k) to q: each node's squared distance summed joint by joint in the order squared_distance
// sums it (the same doubles, so the same answers as the k-d tree's), four nodes at once, each of
// the four lanes keeping its nearest node; among equally near nodes the lower index wins. Built
// twice where the CPU may have AVX2 (one instruction per four nodes instead of two).
using Four = double __attribute__((vector_size(32)));
using FourIndices = std::int64_t __attribute__((vector_size(32)));

// kDof > 0: the joint count known when compiled (the loop over joints unrolled); 0: dof.
template <int kDof>
[[gnu::always_inline]] inline int scan_blocks(const double* blocks, int n, int runtime_dof,
                                              const double* q) {
  const int dof = kDof > 0 ? kDof : runtime_dof;
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  Four best = {kInfinity, kInfinity, kInfinity, kInfinity};
  FourIndices best_index = {-1, -1, -1, -1};
  FourIndices index = {0, 1, 2, 3};
  const FourIndices step = {4, 4, 4, 4};
  for (int base = 0; base < n; base += 4, blocks += 4 * dof, index += step) {
    Four sum = {0.0, 0.0, 0.0, 0.0};
#pragma GCC unroll 8
    for (int j = 0; j < dof; ++j) {
      Four column;
      std::memcpy(&column, blocks + 4 * j, sizeof column);
      const Four d = column - q[j];
      sum += d * d;
    }
    const FourIndices nearer = sum < best;  // strictly: an earlier node of the lane stays
    best = nearer ? sum : best;
    best_index = nearer ? index : best_index;
  }
  int nearest = -1;
  double nearest_d = kInfinity;
  for (int lane = 0; lane < 4; ++lane) {
    const int node = static_cast<int>(best_index[lane]);
    if (best[lane] < nearest_d || (best[lane] == nearest_d && node >= 0 && node < nearest)) {
      nearest_d = best[lane];
      nearest = node;
    }
  }
  return nearest;
}

// Arms of six and seven joints get their own loops.
int scan_portable(const double* blocks, int n, int dof, const double* q) {
  if (dof == 7) return scan_blocks<7>(blocks, n, dof, q);
  if (dof == 6) return scan_blocks<6>(blocks, n, dof, q);
  return scan_blocks<0>(blocks, n, dof, q);
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("avx2")]] int scan_avx2(const double* blocks, int n, int dof, const double* q) {
  if (dof == 7) return scan_blocks<7>(blocks, n, dof, q);
  if (dof == 6) return scan_blocks<6>(blocks, n, dof, q);
  return scan_blocks<0>(blocks, n, dof, q);
}
#endif
}  // namespace

int NodeTree::scan_nearest(const double* q) const {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2");
  if (avx2) return scan_avx2(columns_.data(), size(), dof_, q);
#endif
  return scan_portable(columns_.data(), size(), dof_, q);
}

int NodeTree::nearest(const JointVector& q) const {
  if (size() <= kMaxScanned && dof_ > 0) return scan_nearest(q.data());
  int best = -1;
  double best_d = std::numeric_limits<double>::infinity();
  search(
      q.data(), [&] { return best_d; },
      [&](int n, double d) {
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
  search(
      q.data(), [r2] { return r2; },
      [&](int n, double d) {
        if (d < r2) out.push_back(n);
      });
  std::sort(out.begin(), out.end());  // node order, as a scan would list them
  return out;
}

std::vector<int> NodeTree::k_nearest(const JointVector& q, int k) const {
  std::vector<std::pair<double, int>> best;  // sorted ascending by (distance, node), at most k
  if (k <= 0) return {};
  const auto bound = [&] {
    return static_cast<int>(best.size()) == k ? best.back().first
                                              : std::numeric_limits<double>::infinity();
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
