// DynamicDomain (engine/planning/sampling/dynamic_domain.hpp): a node's domain is unbounded until
// a step from it is blocked, then the first radius, narrowing with each further block down to its
// floor and widening with each node grown from it; the two trees keep their own.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/planning/sampling/dynamic_domain.hpp"

using namespace kinetic;

TEST(DynamicDomain, ANodeAdmitsEveryTargetUntilAStepFromItIsBlocked) {
  DynamicDomain domain(4.0, 1.0);
  domain.added(0, 0, -1);
  EXPECT_TRUE(std::isinf(domain.radius(0, 0)));
  EXPECT_TRUE(domain.admits(0, 0, 1e6));
  domain.blocked(0, 0);
  EXPECT_DOUBLE_EQ(domain.radius(0, 0), 4.0);
  EXPECT_TRUE(domain.admits(0, 0, 3.99));
  EXPECT_FALSE(domain.admits(0, 0, 4.01));
}

TEST(DynamicDomain, BlocksNarrowItToTheFloorAndGrowthWidensIt) {
  DynamicDomain domain(4.0, 1.0);
  domain.added(1, 0, -1);
  domain.blocked(1, 0);
  domain.blocked(1, 0);
  const double narrowed = domain.radius(1, 0);
  EXPECT_LT(narrowed, 4.0);
  EXPECT_GT(narrowed, 3.99);
  for (int i = 0; i < 100000; ++i) domain.blocked(1, 0);
  EXPECT_DOUBLE_EQ(domain.radius(1, 0), 1.0);
  // A node grown from it widens it; the new node starts unbounded.
  domain.added(1, 1, 0);
  EXPECT_GT(domain.radius(1, 0), 1.0);
  EXPECT_TRUE(std::isinf(domain.radius(1, 1)));
}

TEST(DynamicDomain, EachTreeKeepsItsOwnDomains) {
  DynamicDomain domain(4.0, 1.0);
  domain.added(0, 0, -1);
  domain.added(1, 0, -1);
  domain.blocked(0, 0);
  EXPECT_DOUBLE_EQ(domain.radius(0, 0), 4.0);
  EXPECT_TRUE(std::isinf(domain.radius(1, 0)));
  EXPECT_TRUE(domain.admits(1, 0, 100.0));
  // A node it has not been told of yet is unbounded too.
  EXPECT_TRUE(domain.admits(0, 7, 100.0));
}
