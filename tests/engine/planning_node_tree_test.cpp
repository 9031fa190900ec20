// NodeTree's k-d tree answers exactly what a scan in node order answers: the nearest node (lower
// index among equals), every node within a radius (in node order), the k nearest (closest first).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <utility>
#include <vector>

#include "engine/planning/sampling/node_tree.hpp"

using namespace kinetic;

namespace {

// Summed coordinate by coordinate, as NodeTree sums (Eigen's vectorised order rounds differently
// and would reorder nodes whose distances differ in the last bit).
double squared(const JointVector& a, const JointVector& b) {
  double sum = 0.0;
  for (int j = 0; j < a.size(); ++j) sum += (a[j] - b[j]) * (a[j] - b[j]);
  return sum;
}

int scan_nearest(const std::vector<JointVector>& states, const JointVector& q) {
  int best = -1;
  double best_d = 0.0;
  for (int i = 0; i < static_cast<int>(states.size()); ++i)
    if (best < 0 || squared(states[i], q) < best_d) {
      best = i;
      best_d = squared(states[i], q);
    }
  return best;
}

// States as a search tree makes them: runs of small steps along lines (sorted, correlated
// insertions are the k-d tree's worst case), random jumps, and exact duplicates.
std::vector<JointVector> search_like_states(int dof, int count, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> uniform(-3.0, 3.0);
  std::vector<JointVector> states;
  JointVector at = JointVector::Zero(dof);
  while (static_cast<int>(states.size()) < count) {
    JointVector target(dof);
    for (int j = 0; j < dof; ++j) target[j] = uniform(rng);
    const int steps = static_cast<int>(rng() % 20) + 1;
    for (int s = 1; s <= steps && static_cast<int>(states.size()) < count; ++s)
      states.push_back(at + (target - at) * (static_cast<double>(s) / steps));
    if (rng() % 4 == 0 && !states.empty())
      states.push_back(states[rng() % states.size()]);  // duplicate
    at = states[rng() % states.size()];
  }
  return states;
}

}  // namespace

// 3,000 states: the tree is rebuilt balanced at 256, 512, 1,024 and 2,048 nodes and grows by
// insertion in between, so both kinds of subtree are searched.
TEST(NodeTreeSearch, NearestWithinAndKNearestMatchAScanInNodeOrder) {
  std::mt19937_64 rng(7);
  for (const int dof : {1, 2, 7}) {
    const std::vector<JointVector> states = search_like_states(dof, 3000, rng);
    NodeTree tree(dof);
    for (std::size_t i = 0; i < states.size(); ++i) tree.add(states[i], static_cast<int>(i) - 1);
    std::uniform_real_distribution<double> uniform(-3.5, 3.5);
    for (int query = 0; query < 300; ++query) {
      JointVector q(dof);
      for (int j = 0; j < dof; ++j) q[j] = uniform(rng);
      if (query % 5 == 0)
        q = states[rng() % states.size()];  // exactly on a (maybe duplicated) node
      ASSERT_EQ(tree.nearest(q), scan_nearest(states, q)) << "dof " << dof << " query " << query;

      const double radius = 0.5 + 0.01 * query;
      std::vector<int> within;
      for (int i = 0; i < static_cast<int>(states.size()); ++i)
        if (squared(states[i], q) < radius * radius) within.push_back(i);
      ASSERT_EQ(tree.within(q, radius), within) << "dof " << dof << " query " << query;

      const int k = 1 + query % 12;
      std::vector<std::pair<double, int>> all;
      for (int i = 0; i < static_cast<int>(states.size()); ++i)
        all.emplace_back(squared(states[i], q), i);
      std::sort(all.begin(), all.end());
      std::vector<int> k_best;
      for (int i = 0; i < k; ++i) k_best.push_back(all[static_cast<std::size_t>(i)].second);
      ASSERT_EQ(tree.k_nearest(q, k), k_best) << "dof " << dof << " query " << query;
    }
  }
}

// A small tree scans its nodes four at a time instead of walking the k-d tree: the same answers
// at every size (whole and partial blocks of four), through the size where the k-d tree takes
// over (256 nodes) and beyond it, for seven and six joints (loops of their own) and three.
TEST(NodeTreeSearch, NearestMatchesAScanAtEverySizeWhileTheTreeGrows) {
  std::mt19937_64 rng(19);
  for (const int dof : {7, 6, 3}) {
    const std::vector<JointVector> states = search_like_states(dof, 400, rng);
    std::uniform_real_distribution<double> uniform(-3.5, 3.5);
    NodeTree tree(dof);
    std::vector<JointVector> added;
    for (std::size_t i = 0; i < states.size(); ++i) {
      tree.add(states[i], static_cast<int>(i) - 1);
      added.push_back(states[i]);
      for (int query = 0; query < 4; ++query) {
        JointVector q(dof);
        for (int j = 0; j < dof; ++j) q[j] = uniform(rng);
        if (query == 0) q = added[rng() % added.size()];  // on a node, maybe a duplicated one
        ASSERT_EQ(tree.nearest(q), scan_nearest(added, q))
            << "dof " << dof << " size " << added.size();
      }
    }
  }
}

TEST(NodeTreeSearch, EmptyAndSingleNodeTrees) {
  NodeTree tree(3);
  EXPECT_EQ(tree.nearest(JointVector::Zero(3)), -1);
  EXPECT_TRUE(tree.within(JointVector::Zero(3), 1.0).empty());
  EXPECT_TRUE(tree.k_nearest(JointVector::Zero(3), 4).empty());
  tree.add(JointVector::Ones(3), -1);
  EXPECT_EQ(tree.nearest(JointVector::Zero(3)), 0);
  EXPECT_EQ(tree.k_nearest(JointVector::Zero(3), 4), std::vector<int>{0});
  EXPECT_TRUE(tree.within(JointVector::Zero(3), 1.0).empty());
  EXPECT_EQ(tree.within(JointVector::Zero(3), 2.0), std::vector<int>{0});
  EXPECT_EQ(tree.path_from_root(0).size(), 1u);
}
