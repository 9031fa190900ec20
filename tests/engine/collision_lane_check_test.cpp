// The lane check (engine/collision/lane_check.hpp): eight states at once in single precision.
// On MotionBenchMaker's Panda in its cage and narrow bookshelf it never clears a slot or self
// pair that the exact state check finds within the padding, it clears most of what is clear, its
// witnesses call a state colliding only where the exact check does (also when a pass stops at
// the first such witness, and among more obstacles than it tests one by one), the hull axes the
// state check kept prove apart only what is apart, and
// a motion check built on it gives every edge the verdict of checking each grid state in turn.
// The built-in arms' boxes and cylinders are covered by spheres as meshes are, and it serves them
// too. Worlds it cannot serve (most links without sphere covers, attached objects) go without it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>
#include <string>

#include "engine/collision/collision_checker.hpp"
#include "engine/collision/grid_check.hpp"
#include "engine/collision/lane_check.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/scene/scene_file.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;

namespace {

RobotModelPtr lane_panda() {
  const std::string dir = test::mbm_panda_dir();
  return load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf");
}

PlanningScene lane_scene(const std::string& scene, int index) {
  char name[32];
  std::snprintf(name, sizeof(name), "/scene%04d.yaml", index);
  return load_scene(test::mbm_panda_dir() + "/problems/" + scene + "_panda" + name);
}

// A state near the scene's obstacles more often than a uniform one: halfway between two uniform
// states, or a uniform state itself.
JointVector lane_test_state(const RobotModel& model, std::mt19937_64& rng) {
  const JointVector q = test::random_state(model, rng);
  if (rng() % 2) return q;
  return 0.5 * (q + test::random_state(model, rng));
}

// `count` lane test states, and the pointers the lanes take.
struct LaneBatch {
  JointVector q[kLanes];
  const JointVector* states[kLanes];
  LaneBatch(const RobotModel& model, std::mt19937_64& rng, int count = kLanes) {
    for (int l = 0; l < count; ++l) {
      q[l] = lane_test_state(model, rng);
      states[l] = &q[l];
    }
  }
};

// A scene of boxes around a robot that reaches about `reach` metres: many states come near them.
PlanningScene lane_boxes(double reach, std::mt19937_64& rng) {
  PlanningScene scene;
  std::uniform_real_distribution<double> place(-reach, reach), size(0.05, 0.4 * reach);
  for (int i = 0; i < 12; ++i)
    scene.add_obstacle(
        "box" + std::to_string(i), Shape::box(Vector3(size(rng), size(rng), size(rng))),
        Pose(Eigen::Translation3d(place(rng), place(rng), 0.5 * reach + place(rng))));
  return scene;
}

}  // namespace

TEST(LaneCheck, ServesTheBenchmarkPandaAndPrimitiveArmsButNotAttachedObjects) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = lane_panda();
  CollisionChecker checker(panda);
  checker.set_scene(lane_scene("cage", 1));
  ASSERT_NE(checker.world()->lanes, nullptr);
  EXPECT_EQ(
      checker.world()->lanes->obstacles.size(),
      static_cast<std::size_t>(checker.world()->body_count() - checker.world()->obstacle_begin));

  // The built-in arms are made of boxes and cylinders: their links are covered by spheres too.
  for (const std::string name : {"panda", "ur5e"}) {
    CollisionChecker builtin(load_builtin_robot(name));
    EXPECT_NE(builtin.world()->lanes, nullptr) << name;
  }

  // An object in the hand: its pose is the link's times an offset the lanes do not place.
  PlanningScene holding;
  holding.add_obstacle("part", Shape::box(Vector3(0.04, 0.04, 0.04)),
                       Pose(Eigen::Translation3d(0.3, 0.0, 0.5)));
  holding.attach_obstacle("part", "panda_hand", Pose::Identity());
  checker.set_scene(holding);
  EXPECT_EQ(checker.world()->lanes, nullptr);
}

TEST(LaneCheck, NeverClearsWhatTheExactStateCheckFindsWithinThePadding) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = lane_panda();
  std::mt19937_64 rng(23);
  int cleared = 0, checked = 0, near = 0, collisions = 0;
  for (const auto& [scene, index] : {std::pair{"cage", 3}, std::pair{"bookshelf_thin", 89}}) {
    CollisionChecker checker(panda);
    checker.set_scene(lane_scene(scene, index));
    const CollisionWorld& world = *checker.world();
    ASSERT_NE(world.lanes, nullptr);
    CollisionState state;
    state.reset(world);
    LaneState lanes;
    for (const double padding : {0.0, 0.02}) {
      for (int batch = 0; batch < 150; ++batch) {
        const int count = 1 + batch % kLanes;
        const LaneBatch states(*panda, rng, count);
        LaneOpen open[kLanes];
        lanes_open(world, lanes, states.states, count, padding, 0.0, open);
        for (int l = 0; l < count; ++l) {
          update_poses(world, state, states.q[l]);
          bool any_near = false;
          for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
            const bool exact_near = slot_near_scene(world, state, m, padding, 0.0);
            any_near = any_near || exact_near;
            ++checked;
            near += exact_near;
            if (open[l].scene & slot_bit(m)) continue;
            ++cleared;
            ASSERT_FALSE(exact_near) << scene << " slot " << m << " padding " << padding;
          }
          // A witness's verdict of collision is the exact check's too.
          if (open[l].collides) {
            ++collisions;
            ASSERT_TRUE(any_near) << scene << " padding " << padding;
          }
          for (std::size_t k = 0; k < world.self_pairs.size(); ++k) {
            if (open[l].self & slot_bit(k)) continue;
            ASSERT_FALSE(self_pair_in_collision(world, state, k, 0.0, 0.0, nullptr, false,
                                                /*exact=*/true))
                << scene << " pair " << k;
          }
        }
      }
    }
  }
  // What makes them worth it: most slots clear of the scene are cleared without the state check.
  std::cout << "lanes cleared " << cleared << " of " << checked << " slot checks (" << near
            << " within the padding); witnesses proved " << collisions << " states colliding\n";
  EXPECT_GT(cleared, (checked - near) / 2);
  EXPECT_GT(collisions, 100);  // and witnesses prove many colliding states without it
}

// The broad phase tests each lane's root sphere against every obstacle in a small scene, and one
// sphere around all eight lanes in a large one (more than 64 obstacles); a motion check asks the
// lanes to stop at the first slot where a witness proves a lane colliding. Among the cage's 8
// obstacles and with 90 more boxes in it: no slot either broad phase lets through is one the
// exact check finds near, and the stopping pass proves a collision exactly when the full pass
// does, in lanes the full pass proves too.
TEST(LaneCheck, BothBroadPhasesAndStoppingAtAWitnessKeepTheVerdicts) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = lane_panda();
  std::mt19937_64 rng(31);
  PlanningScene crowded = lane_scene("cage", 3);
  std::uniform_real_distribution<double> place(-0.9, 0.9), size(0.02, 0.15);
  for (int i = 0; i < 90; ++i)
    crowded.add_obstacle("extra" + std::to_string(i),
                         Shape::box(Vector3(size(rng), size(rng), size(rng))),
                         Pose(Eigen::Translation3d(place(rng), place(rng), 0.5 + place(rng))));
  int stopped = 0, near = 0;
  for (const PlanningScene& scene : {lane_scene("cage", 3), crowded}) {
    CollisionChecker checker(panda);
    checker.set_scene(scene);
    const CollisionWorld& world = *checker.world();
    ASSERT_NE(world.lanes, nullptr);
    CollisionState state;
    state.reset(world);
    LaneState lanes;
    for (int batch = 0; batch < 120; ++batch) {
      const LaneBatch states(*panda, rng);
      LaneOpen full[kLanes], stop[kLanes];
      ASSERT_TRUE(lanes_open_scene(world, lanes, states.states, kLanes, 0.0, full));
      ASSERT_TRUE(lanes_open_scene(world, lanes, states.states, kLanes, 0.0, stop, true));
      bool full_collides = false, stop_collides = false;
      for (int l = 0; l < kLanes; ++l) {
        full_collides = full_collides || full[l].collides;
        stop_collides = stop_collides || stop[l].collides;
        if (stop[l].collides) {
          ASSERT_TRUE(full[l].collides) << "lane " << l;
        }
        update_poses(world, state, states.q[l]);
        for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
          const bool exact_near = slot_near_scene(world, state, m, 0.0, 0.0);
          near += exact_near;
          if (!(full[l].scene & slot_bit(m))) {
            ASSERT_FALSE(exact_near) << world.obstacle_frames.size() << " obstacles, slot " << m;
          }
        }
      }
      ASSERT_EQ(stop_collides, full_collides) << "batch " << batch;
      stopped += stop_collides;
    }
  }
  EXPECT_GT(stopped, 20);  // both verdicts are exercised
  EXPECT_GT(near, 200);
}

// A pair whose cover touches an obstacle and which no witness proves colliding is left open by
// the lanes, unless the axis the state check's hull proof kept for the pair (HullHint, from a
// nearby state) proves it apart in the lanes too. Along short edges in the cage and the narrow
// bookshelf, with the hints of a state check of each state: what the axis clears is never
// within the padding by the exact check, it clears a good share of what the covers left open,
// and a lane waiting for it that a witness proves colliding at another obstacle collides by the
// exact check too. (Where the covers decide, motion checks pass no hints: grid_check.cpp.)
TEST(LaneCheck, KeptHullAxesProveApartWhatTheCoversLeaveOpenAndNothingNear) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = lane_panda();
  std::mt19937_64 rng(47);
  int by_axis = 0, left_open = 0;
  for (const auto& [scene, index] : {std::pair{"cage", 3}, std::pair{"bookshelf_thin", 89}}) {
    CollisionChecker checker(panda);
    checker.set_scene(lane_scene(scene, index));
    const CollisionWorld& world = *checker.world();
    ASSERT_NE(world.lanes, nullptr);
    ASSERT_FALSE(world.lanes->axis_test.empty());
    CollisionState state;
    state.reset(world);
    ASSERT_FALSE(state.scene_hull_hint.empty());
    LaneState lanes;
    for (const double padding : {0.0, 0.02}) {
      for (int batch = 0; batch < 400; ++batch) {
        // Eight states along a step of 0.2 rad: a motion check's pass.
        const JointVector q0 = lane_test_state(*panda, rng);
        JointVector q1 = test::random_state(*panda, rng);
        q1 = q0 + (q1 - q0) * (0.2 / std::max(0.2, (q1 - q0).norm()));
        JointVector q[kLanes];
        const JointVector* states[kLanes];
        for (int l = 0; l < kLanes; ++l) {
          q[l] = q0 + (q1 - q0) * (static_cast<double>(l) / (kLanes - 1));
          states[l] = &q[l];
          update_poses(world, state, q[l]);  // the state check keeps its axes
          scene_in_collision(world, state, padding, nullptr, /*exact=*/true);
        }
        LaneOpen plain[kLanes], hinted[kLanes];
        ASSERT_TRUE(lanes_open_scene(world, lanes, states, kLanes, padding, plain));
        ASSERT_TRUE(lanes_open_scene(world, lanes, states, kLanes, padding, hinted, false,
                                     state.scene_hull_hint.data()));
        for (int l = 0; l < kLanes; ++l) {
          // Lanes waiting for an axis go on to the slot's other obstacles, where a witness may
          // prove them colliding (the pass without hints left them open there): never fewer.
          ASSERT_TRUE(hinted[l].collides || !plain[l].collides) << scene << " lane " << l;
          update_poses(world, state, q[l]);
          if (hinted[l].collides && !plain[l].collides) {
            bool any = false;
            for (std::size_t m = 0; m < world.moving_bodies.size() && !any; ++m)
              any = slot_near_scene(world, state, m, padding, 0.0);
            ASSERT_TRUE(any) << scene << " lane " << l;
            continue;
          }
          ASSERT_EQ(hinted[l].scene & ~plain[l].scene, 0u) << scene << " lane " << l;
          for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
            const SlotMask bit = slot_bit(m);
            if (!(plain[l].scene & bit)) continue;
            if (hinted[l].scene & bit) {
              ++left_open;
              continue;
            }
            ++by_axis;
            ASSERT_FALSE(slot_near_scene(world, state, m, padding, 0.0))
                << scene << " slot " << m << " padding " << padding;
          }
        }
      }
    }
  }
  std::cout << "kept axes cleared " << by_axis << " of " << by_axis + left_open
            << " slots the covers left open\n";
  EXPECT_GT(by_axis, 100);
}

// `edges` random edges of at most a search step through `world`, each checked by
// grid_motion_free (through the lanes) and state by state: the verdicts must agree. Counts them.
static void expect_edge_verdicts_of_every_state(const CollisionWorld& world,
                                                const RobotModel& robot, std::mt19937_64& rng,
                                                int edges, int& blocked, int& free) {
  CollisionState state, each;
  state.reset(world);
  each.reset(world);
  GridCheckState grid;
  for (int edge = 0; edge < edges; ++edge) {
    const JointVector q0 = lane_test_state(robot, rng);
    JointVector q1 = test::random_state(robot, rng);
    q1 = q0 + (q1 - q0) * (0.8 / std::max(0.8, (q1 - q0).norm()));  // a search step at most
    const int steps =
        std::max(2, static_cast<int>(std::ceil((q1 - q0).cwiseAbs().maxCoeff() / 0.05)));
    CheckOptions options;
    options.padding = edge % 3 == 0 ? 0.02 : 0.0;
    options.pad_self = false;
    options.exact = edge % 2 == 0;
    options.covers_decide = edge % 4 == 1;
    bool expected = true;
    for (int i = 1; i < steps && expected; ++i)
      expected =
          !in_collision(world, each, q0 + (q1 - q0) * (static_cast<double>(i) / steps), options);
    // Every third edge with its ends, in the lanes' first pass (PlanningSpace::segment_valid).
    const bool with_ends = edge % 3 == 2;
    if (with_ends)
      expected = expected && !in_collision(world, each, q0, options) &&
                 !in_collision(world, each, q1, options);
    const int probe = edge % 5 == 0 ? steps / 3 : 0;
    const bool verdict =
        grid_motion_free(world, state, grid, q0, q1, steps, options, probe, with_ends);
    ASSERT_EQ(verdict, expected) << "edge " << edge;
    if (!verdict) {
      ++blocked;
      ASSERT_GE(grid.blocked_step, with_ends ? 0 : 1);
      ASSERT_LE(grid.blocked_step, with_ends ? steps : steps - 1);
      EXPECT_TRUE(in_collision(
          world, each, q0 + (q1 - q0) * (static_cast<double>(grid.blocked_step) / steps), options));
    } else {
      ++free;
    }
  }
}

TEST(LaneCheck, EdgeVerdictsAreThoseOfCheckingEveryGridState) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = lane_panda();
  std::mt19937_64 rng(5);
  int blocked = 0, free = 0;
  for (const auto& [scene, index] : {std::pair{"cage", 3}, std::pair{"bookshelf_small", 90}}) {
    SCOPED_TRACE(scene);
    CollisionChecker checker(panda);
    checker.set_scene(lane_scene(scene, index));
    ASSERT_NE(checker.world()->lanes, nullptr);
    expect_edge_verdicts_of_every_state(*checker.world(), *panda, rng, 160, blocked, free);
  }
  EXPECT_GT(blocked, 20);  // both verdicts are exercised
  EXPECT_GT(free, 20);
}

// The ABB IRB 2400's first link is too large for a cover within its sphere budget: the lanes test
// it by its root sphere and leave it open near a box, and the verdicts stay every state's.
TEST(LaneCheck, EdgeVerdictsOfAnArmWithALinkWithoutACover) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  LoadOptions load;
  load.package_paths = {test::shared_robots_dir()};
  const RobotModelPtr abb =
      load_robot_file(test::shared_robots_dir() + "/abb/abb_irb2400_moveit_config", "", "", load);
  std::mt19937_64 rng(41);
  CollisionChecker checker(abb);
  checker.set_scene(lane_boxes(1.5, rng));
  ASSERT_NE(checker.world()->lanes, nullptr);
  int blocked = 0, free = 0;
  expect_edge_verdicts_of_every_state(*checker.world(), *abb, rng, 160, blocked, free);
  EXPECT_GT(blocked, 10);
  EXPECT_GT(free, 10);
}

// Real robots as users have them, with other joint axes, origins and grippers than the Panda's:
// the lanes' forward kinematics places their covers where the double-precision kinematics puts
// the links, so they never clear a link the exact check finds near a box.
// Random boxes where `robot` reaches and 100 batches of lane states among them: the lanes never
// clear a link the exact check finds within the padding, and a witness's collision is one the
// exact check sees. near: the links the exact check found near a box.
static void expect_lanes_never_clear_a_near_link(const RobotModelPtr& robot, std::mt19937_64& rng,
                                                 int& near) {
  CollisionChecker checker(robot);
  CollisionState state;
  double reach = 0.0;
  for (int attempt = 0; attempt < 20; ++attempt) {
    std::vector<Pose> poses;
    checker.world()->fk->compute(test::random_state(*robot, rng), poses);
    for (const Pose& pose : poses) reach = std::max(reach, pose.translation().norm());
  }
  checker.set_scene(lane_boxes(reach, rng));
  const CollisionWorld& world = *checker.world();
  ASSERT_NE(world.lanes, nullptr);  // (the ABB's large first link has no cover: roots only)
  state.reset(world);
  LaneState lanes;
  for (int batch = 0; batch < 100; ++batch) {
    const LaneBatch states(*robot, rng);
    LaneOpen open[kLanes];
    lanes_open(world, lanes, states.states, kLanes, 0.0, 0.0, open);
    for (int l = 0; l < kLanes; ++l) {
      update_poses(world, state, states.q[l]);
      for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
        const bool exact_near = slot_near_scene(world, state, m, 0.0, 0.0);
        near += exact_near;
        if (!(open[l].scene & slot_bit(m))) {
          ASSERT_FALSE(exact_near) << "slot " << m;
        }
      }
      if (open[l].collides) {
        bool any = false;
        for (std::size_t m = 0; m < world.moving_bodies.size() && !any; ++m)
          any = slot_near_scene(world, state, m, 0.0, 0.0);
        ASSERT_TRUE(any);
      }
    }
  }
}

TEST(LaneCheck, NeverClearsANearLinkOfTheSharedRobots) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  LoadOptions load;
  load.package_paths = {test::shared_robots_dir()};
  std::mt19937_64 rng(31);
  for (const std::string folder :
       {"moveit_resources/fanuc_moveit_config", "abb/abb_irb2400_moveit_config",
        "ros2_kortex/kortex_moveit_config/kinova_gen3_7dof_robotiq_2f_85_moveit_config"}) {
    SCOPED_TRACE(folder);
    const RobotModelPtr robot =
        load_robot_file(test::shared_robots_dir() + "/" + folder, "", "", load);
    int near = 0;
    expect_lanes_never_clear_a_near_link(robot, rng, near);
    std::cout << folder << ": " << near << " links near a box in 800 states\n";
    EXPECT_GT(near, 50);  // the boxes are where the links go
  }
}

// The built-in arms' links are boxes and cylinders, covered by spheres as meshes are: the lanes
// never clear a link near a box, edges among boxes get the verdict of checking every grid state
// (the whole-edge scene proof mostly fails there, and waits before it is tried again), and in
// open space, where the root spheres prove an edge's scene clear from its middle, the edge goes
// to the run proofs for its self pairs with that verdict too, and the proof is never put off.
TEST(LaneCheck, ServesTheBuiltinArmsAndProvesOpenSpaceEdgesWhole) {
  std::mt19937_64 rng(43);
  for (const std::string name : {"panda", "ur5e"}) {
    SCOPED_TRACE(name);
    const RobotModelPtr robot = load_builtin_robot(name);
    int near = 0;
    expect_lanes_never_clear_a_near_link(robot, rng, near);
    EXPECT_GT(near, 50);

    CollisionChecker cluttered(robot);
    cluttered.set_scene(lane_boxes(0.8, rng));
    int blocked = 0, free = 0;
    expect_edge_verdicts_of_every_state(*cluttered.world(), *robot, rng, 160, blocked, free);
    EXPECT_GT(blocked, 10);
    EXPECT_GT(free, 10);

    CollisionChecker open(robot);
    PlanningScene far;
    far.add_obstacle("far", Shape::box(Vector3(0.2, 0.2, 0.2)),
                     Pose(Eigen::Translation3d(20.0, 20.0, 20.0)));
    open.set_scene(far);
    const CollisionWorld& world = *open.world();
    ASSERT_NE(world.lanes, nullptr);
    CollisionState state, each;
    state.reset(world);
    each.reset(world);
    GridCheckState grid;
    const CheckOptions options{.padding = 0.02, .pad_self = false};
    int edges = 0, blocked_by_self = 0;
    for (int edge = 0; edge < 80; ++edge) {
      const JointVector q0 = test::random_state(*robot, rng), q1 = test::random_state(*robot, rng);
      if (in_collision(world, each, q0, options)) continue;
      const int steps = static_cast<int>(std::ceil((q1 - q0).cwiseAbs().maxCoeff() / 0.05));
      bool expected = true;
      for (int i = 1; i < steps && expected; ++i)
        expected =
            !in_collision(world, each, q0 + (q1 - q0) * (static_cast<double>(i) / steps), options);
      ASSERT_EQ(grid_motion_free(world, state, grid, q0, q1, steps, options), expected)
          << "edge " << edge;
      EXPECT_EQ(grid.scene_proof_backoff, 0) << "edge " << edge;
      ++edges;
      blocked_by_self += !expected;
    }
    EXPECT_GT(edges, 40);
    std::cout << name << ": " << blocked_by_self << " of " << edges
              << " open-space edges blocked by the arm itself\n";
  }
}
