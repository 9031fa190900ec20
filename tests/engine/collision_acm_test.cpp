// Allowed collision matrix: adjacency, SRDF pairs, and the generator against the Panda's SRDF.
#include <gtest/gtest.h>

#include <set>

#include "engine/collision/acm_generator.hpp"
#include "engine/collision/allowed_collision_matrix.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

RobotModelPtr panda() {
  const std::string root = kinetic::test::example_robot_data_dir() + "/robots/panda_description/";
  LoadOptions options;
  options.package_paths = {kinetic::test::shared_robots_dir()};
  return load_robot_file(root + "urdf/panda.urdf", root + "srdf/panda.srdf", "", options);
}

std::pair<std::string, std::string> ordered(std::string a, std::string b) {
  return a < b ? std::pair{a, b} : std::pair{b, a};
}

}  // namespace

TEST(AllowedCollisionMatrix, SymmetricEntriesAndErrors) {
  AllowedCollisionMatrix acm({"a", "b", "c"});
  acm.set_allowed("a", "c", true);
  EXPECT_TRUE(acm.allowed("c", "a"));
  EXPECT_FALSE(acm.allowed("a", "b"));
  const int d = acm.add_entry("d");
  EXPECT_EQ(d, 3);
  EXPECT_TRUE(acm.allowed("a", "c"));  // growing keeps entries
  EXPECT_THROW(acm.set_allowed("a", "zz", true), Error);
  EXPECT_EQ(acm.allowed_pairs().size(), 1u);
}

TEST(AllowedCollisionMatrix, PandaAdjacencyAndSrdf) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda();
  const auto adjacent = adjacent_link_pairs(*model);
  std::set<std::pair<std::string, std::string>> names;
  for (const auto& [a, b] : adjacent)
    names.insert(ordered(model->links()[a].name, model->links()[b].name));
  EXPECT_TRUE(names.count(ordered("panda_link0", "panda_link1")));
  // link7 -> link8 (no geometry, fixed) -> hand: adjacent through the fixed joint.
  EXPECT_TRUE(names.count(ordered("panda_link7", "panda_hand")));
  EXPECT_TRUE(names.count(ordered("panda_hand", "panda_leftfinger")));
  EXPECT_FALSE(names.count(ordered("panda_link0", "panda_link2")));
  const auto acm = default_allowed_collisions(*model);
  for (const auto& pair : model->semantic().disabled_collisions)
    EXPECT_TRUE(acm.allowed(pair.link1, pair.link2)) << pair.link1 << " " << pair.link2;
}

TEST(AcmGenerator, PandaAgreesWithItsSrdf) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda();
  AcmGeneratorOptions options;
  options.samples = test::cases(10000, 1000);
  int calls = 0, last = 0;
  options.progress = [&](int done, int total) {
    ++calls;
    EXPECT_GE(done, last);
    EXPECT_LE(done, total);
    last = done;
    return true;
  };
  const auto result = generate_allowed_collisions(model, options);
  EXPECT_GE(calls, 1);
  EXPECT_EQ(last, options.samples);

  std::set<std::pair<std::string, std::string>> ours, srdf;
  for (const auto& p : result.disabled) ours.insert(ordered(p.link1, p.link2));
  for (const auto& p : model->semantic().disabled_collisions)
    if (model->find_link(p.link1) >= 0 && model->find_link(p.link2) >= 0 &&
        !model->links()[model->find_link(p.link1)].collisions.empty() &&
        !model->links()[model->find_link(p.link2)].collisions.empty())
      srdf.insert(ordered(p.link1, p.link2));
  int both = 0;
  for (const auto& p : srdf) both += ours.count(p);
  const double agreement = static_cast<double>(both) / srdf.size();
  std::printf(
      "[acm] SRDF disables %zu pairs with geometry, generator %zu; %d in both (%.0f%% of the "
      "SRDF's)\n",
      srdf.size(), ours.size(), both, 100 * agreement);
  for (const auto& p : srdf)
    if (!ours.count(p))
      std::printf("[acm]   SRDF only: %s - %s\n", p.first.c_str(), p.second.c_str());
  for (const auto& p : ours)
    if (!srdf.count(p))
      std::printf("[acm]   generator only: %s - %s\n", p.first.c_str(), p.second.c_str());
  EXPECT_GE(agreement, 0.8);
  // Pairs that really collide (link 0 with the hand, say) stay enabled.
  EXPECT_FALSE(ours.count(ordered("panda_link0", "panda_hand")));

  const std::string toml = skip_pairs_toml(result);
  EXPECT_NE(toml.find("[collision]"), std::string::npos);
  EXPECT_NE(toml.find("[\"panda_link0\", \"panda_link1\"],  # adjacent"), std::string::npos);

  // Same seed, different thread count: same answer.
  options.threads = 1;
  options.samples = 300;
  options.progress = nullptr;
  const auto one = generate_allowed_collisions(model, options);
  options.threads = 2;
  const auto two = generate_allowed_collisions(model, options);
  EXPECT_EQ(skip_pairs_toml(one), skip_pairs_toml(two));
  // Cancelling throws.
  options.samples = 100000;
  options.progress = [](int, int) { return false; };
  EXPECT_THROW(generate_allowed_collisions(model, options), Error);
}
