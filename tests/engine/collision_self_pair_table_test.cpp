// SelfPairTable (engine/collision/self_pair_table.hpp): a self pair whose distance depends on one
// or two joint variables is proven apart from a table over them. On MotionBenchMaker's Panda the
// wrist pairs get tables, pairs spanning more joints do not; the table never says "clear" where
// the two hulls are nearer than the padding asked, at a configuration or anywhere along a
// segment; and every world of the same robot shares one table, holding memory only where it was
// asked.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>
#include <string>

#include "engine/collision/collision_checker.hpp"
#include "engine/collision/self_pair_table.hpp"
#include "engine/geometry/convex_distance.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/planner.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

RobotModelPtr mbm_panda() {
  const std::string dir = test::mbm_panda_dir();
  return load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf");
}

// The self pair of links a and b in the world, or -1.
int pair_index(const CollisionWorld& world, const std::string& a, const std::string& b) {
  for (std::size_t k = 0; k < world.self_pairs.size(); ++k) {
    const std::string first = world.body_name(world.self_pairs[k].first),
                      second = world.body_name(world.self_pairs[k].second);
    if ((first == a && second == b) || (first == b && second == a)) return static_cast<int>(k);
  }
  return -1;
}

// An upper bound on the distance of the pair's convex hulls at q (GJK's distance: points of the
// two hulls that far apart exist), part by part.
double hull_distance_above(const CollisionWorld& world, std::size_t k, const JointVector& q) {
  std::vector<Pose> poses;
  world.fk->compute(q, poses);
  const auto [a, b] = world.self_pairs[k];
  double nearest = std::numeric_limits<double>::infinity();
  for (const FclPart& pa : world.body(a).parts)
    for (const FclPart& pb : world.body(b).parts) {
      const auto set = [](const FclPart& part) {
        ConvexSet s;
        if (part.mesh)
          s.points = &part.mesh->hull.vertices;
        else
          s.primitive = &part.shape;
        return s;
      };
      nearest = std::min(
          nearest,
          convex_set_distance(set(pa), poses[a] * pa.pose, set(pb), poses[b] * pb.pose).distance);
    }
  return nearest;
}

}  // namespace

TEST(SelfPairTable, TheBenchmarkPandasWristPairsGetTablesOverJointsSixAndSeven) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = mbm_panda();
  CollisionChecker checker(panda);
  const CollisionWorld& world = *checker.world();
  ASSERT_EQ(world.self_tables.size(), world.self_pairs.size());
  for (const auto& [a, b] :
       {std::pair{"panda_link5", "panda_link7"}, std::pair{"panda_link5", "panda_hand"}}) {
    const int k = pair_index(world, a, b);
    ASSERT_GE(k, 0) << a << " " << b;
    const SelfPairTable* table = world.self_tables[static_cast<std::size_t>(k)].get();
    ASSERT_NE(table, nullptr) << a << " " << b;
    EXPECT_EQ(table->variable_count(), 2) << a << " " << b;
    EXPECT_GT(table->cell_count(), 1000u) << a << " " << b;
  }
  // The base and the shoulder against the forearm move with joints 1 (or 2) to 5.
  for (const auto& [a, b] :
       {std::pair{"panda_link0", "panda_link5"}, std::pair{"panda_link1", "panda_link5"}}) {
    const int k = pair_index(world, a, b);
    ASSERT_GE(k, 0) << a << " " << b;
    EXPECT_EQ(world.self_tables[static_cast<std::size_t>(k)], nullptr) << a << " " << b;
  }
}

TEST(SelfPairTable, NeverClearWhereTheHullsAreNearerThanThePadding) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = mbm_panda();
  CollisionChecker checker(panda);
  const CollisionWorld& world = *checker.world();
  std::mt19937_64 rng(11);
  int proven = 0, tried = 0;
  for (std::size_t k = 0; k < world.self_pairs.size(); ++k) {
    const SelfPairTable* table = world.self_tables[k].get();
    if (!table) continue;
    for (int i = 0; i < test::cases(4000, 500); ++i) {
      const JointVector q = test::random_state(*panda, rng);
      const double d = hull_distance_above(world, k, q);
      // At the distance itself it may never say clear; 5 mm closer it mostly does.
      EXPECT_FALSE(table->clear_at(q, d))
          << world.body_name(world.self_pairs[k].first) << " d " << d;
      if (d > 0.006) {
        ++tried;
        proven += table->clear_at(q, d - 0.005) ? 1 : 0;
      }
    }
  }
  ASSERT_GT(tried, 100);
  EXPECT_GT(proven, tried * 9 / 10) << "the table proves too little to be worth its cells";
}

TEST(SelfPairTable, NeverClearAlongASegmentThatComesNearerThanThePadding) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = mbm_panda();
  CollisionChecker checker(panda);
  const CollisionWorld& world = *checker.world();
  std::mt19937_64 rng(12);
  int proven = 0;
  for (std::size_t k = 0; k < world.self_pairs.size(); ++k) {
    const SelfPairTable* table = world.self_tables[k].get();
    if (!table) continue;
    for (int i = 0; i < test::cases(300, 12); ++i) {
      const JointVector q0 = test::random_state(*panda, rng);
      const double reach = std::uniform_real_distribution<double>(0.01, 0.6)(rng);
      const JointVector dq = (test::random_state(*panda, rng) - q0) * reach;
      // The nearest the hulls come among 400 states of the segment's middle half.
      double nearest = std::numeric_limits<double>::infinity();
      for (int s = 0; s <= 400; ++s)
        nearest = std::min(nearest, hull_distance_above(world, k, q0 + dq * (0.25 + s / 800.0)));
      EXPECT_FALSE(table->clear_along(q0, dq, 0.25, 0.75, nearest))
          << "pair " << k << " case " << i;
      if (nearest > 0.01) proven += table->clear_along(q0, dq, 0.25, 0.75, nearest - 0.008) ? 1 : 0;
    }
  }
  EXPECT_GT(proven, 0) << "no segment was proven clear: the comparison above could not fail";
}

TEST(SelfPairTable, WorldsOfTheSameRobotShareTheTableAndItsMeasuredCells) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = mbm_panda();
  CollisionChecker first(panda);
  const int k = pair_index(*first.world(), "panda_link5", "panda_link7");
  ASSERT_GE(k, 0);
  const auto table = first.world()->self_tables[static_cast<std::size_t>(k)];
  ASSERT_NE(table, nullptr);
  // Cells are measured as asked...
  EXPECT_EQ(table->measured_cells(), 0u);
  table->clear_at(panda->zero_configuration(), 0.0);  // measures a cell or two
  EXPECT_GT(table->measured_cells(), 0u);
  // ... with memory only for the tiles touched: two of a table of hundreds of thousands of cells.
  EXPECT_LE(table->allocated_cells(), 2u * 32 * 32);
  // ... or the coarse level (a sixteenth of the cells) all at once, once, as a Planner asks.
  const std::size_t coarse = table->coarse_cell_count();
  EXPECT_EQ(coarse * 16 / table->cell_count(), 1u) << coarse << " of " << table->cell_count();
  first.measure_tables_ahead();
  const std::size_t after = table->measured_cells();
  EXPECT_GE(after, coarse);
  EXPECT_LE(after, coarse + 2);  // and the fine cell or two measured before
  first.measure_tables_ahead();
  EXPECT_EQ(table->measured_cells(), after);
  CollisionChecker second(panda);
  const int k2 = pair_index(*second.world(), "panda_link5", "panda_link7");
  ASSERT_GE(k2, 0);
  EXPECT_EQ(second.world()->self_tables[static_cast<std::size_t>(k2)], table);
  // Another load of the robot is another model: its own table.
  CollisionChecker other(mbm_panda());
  const int k3 = pair_index(*other.world(), "panda_link5", "panda_link7");
  ASSERT_GE(k3, 0);
  EXPECT_NE(other.world()->self_tables[static_cast<std::size_t>(k3)], table);
}

// A Planner measures its robot's small coarse levels before any search (the wrist tables' 16,000
// cells once per robot, outside every plan's time); a checker alone measures as asked.
TEST(SelfPairTable, APlannerMeasuresTheCoarseLevelsAhead) {
  KINETIC_REQUIRE_MBM();
  Planner planner(mbm_panda(), PlanningScene(), "panda_arm");
  int tables = 0;
  for (const auto& table : planner.checker().world()->self_tables) {
    if (!table) continue;
    ++tables;
    EXPECT_GE(table->measured_cells(), table->coarse_cell_count());
  }
  EXPECT_EQ(tables, 4) << "the wrist pairs: link5 against link7, the hand and both fingers";
}
