// The continuous self-collision check (conservative advancement per link pair) against a very
// fine discrete walk (0.001 rad) on random segments of the Panda and the UR5e, with and without a
// padding: it must never call a segment free where the walk finds a state whose self collision
// goes deeper than the check's tolerance, and it should rarely call a segment colliding where the
// walk finds none. Also the edge cases: rigidly coupled pairs, a zero-length segment, bad input.
#include <gtest/gtest.h>

#include <limits>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <random>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"
#include "ur5e_forearm_swing.hpp"

using namespace kinetic;

namespace {

constexpr double kTolerance = 1e-3;      // the check's default
constexpr double kSelfWalkStep = 0.001;  // rad

struct SelfTally {
  int segments = 0;
  int walk_colliding = 0;        // the fine walk finds a self-colliding state
  int continuous_colliding = 0;  // the continuous check reports the segment colliding
  int false_alarms = 0;          // continuous colliding, fine walk free
  int grazes = 0;                // continuous free, fine walk colliding (within the tolerance)
  double deepest_graze = 0.0;    // m past the padding, over the grazes
  double continuous_ms = 0.0, walk_ms = 0.0;
};

JointVector random_clipped_state(std::mt19937_64& rng, const JointVector& lo,
                                 const JointVector& hi) {
  JointVector q(lo.size());
  for (Eigen::Index j = 0; j < q.size(); ++j)
    q[j] =
        std::uniform_real_distribution<double>(std::max(lo[j], -M_PI), std::min(hi[j], M_PI))(rng);
  return q;
}

// How far past the self padding the checker's pairs are at the current state (> 0: inside it).
double intrusion(CollisionChecker& checker, const JointVector& q, double padding) {
  if (padding > 0.0) {
    const DistanceResult d = checker.min_distance(q, {true, false, true});
    return d.found ? padding - d.distance : 0.0;
  }
  double depth = 0.0;  // no padding: the penetration depth of the contacts
  for (const Contact& c : checker.contacts(q, {0.0, true, false})) depth = std::max(depth, c.depth);
  return depth;
}

SelfTally compare(const RobotModelPtr& model, const std::string& robot, double padding,
                  int segments, std::uint64_t seed) {
  CollisionChecker checker(model);
  const CheckOptions self_only{padding, true, false, true};
  const double self_padding = 2.0 * (model->config().collision.padding + padding);
  const JointVector lo = model->lower_limits(), hi = model->upper_limits();
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  SelfTally tally;
  using Clock = std::chrono::steady_clock;
  // Half the segments pass through a self-colliding state (random ones rarely self-collide).
  const auto draw = [&](bool through_contact, JointVector& q0, JointVector& q1) {
    for (int attempt = 0; attempt < 100000; ++attempt) {
      const JointVector middle = random_clipped_state(rng, lo, hi);
      if (through_contact != checker.in_collision(middle, self_only)) continue;
      JointVector half(middle.size());
      for (Eigen::Index j = 0; j < half.size(); ++j) half[j] = 0.6 * unit(rng);
      q0 = (middle - half).cwiseMax(lo).cwiseMin(hi);
      q1 = (middle + half).cwiseMax(lo).cwiseMin(hi);
      if (!checker.in_collision(q0, self_only) && !checker.in_collision(q1, self_only)) return true;
    }
    return false;
  };
  while (tally.segments < segments) {
    JointVector q0, q1;
    if (!draw(tally.segments % 2 == 1, q0, q1)) {
      ADD_FAILURE() << robot << ": no free segment ends found";
      break;
    }
    ++tally.segments;

    auto t0 = Clock::now();
    const bool continuous_free =
        checker.self_motion_valid_continuous(q0, q1, self_only, kTolerance);
    tally.continuous_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

    const JointVector dq = q1 - q0;
    const int steps =
        std::max(1, static_cast<int>(std::ceil(dq.cwiseAbs().maxCoeff() / kSelfWalkStep)));
    bool walk_free = true;
    double deepest = 0.0;
    t0 = Clock::now();
    for (int s = 1; s < steps; ++s) {
      const JointVector q = q0 + dq * (static_cast<double>(s) / steps);
      if (!checker.in_collision(q, self_only)) continue;
      walk_free = false;
      if (!continuous_free) break;  // the verdicts agree: no need to measure
      deepest = std::max(deepest, intrusion(checker, q, self_padding));
    }
    tally.walk_ms += std::chrono::duration<double, std::milli>(Clock::now() - t0).count();

    tally.walk_colliding += !walk_free;
    tally.continuous_colliding += !continuous_free;
    tally.false_alarms += !continuous_free && walk_free;
    if (continuous_free && !walk_free) {
      ++tally.grazes;
      tally.deepest_graze = std::max(tally.deepest_graze, deepest);
      EXPECT_LE(deepest, kTolerance + 1e-9)
          << robot << " padding " << padding << ": called free, but the fine walk goes " << deepest
          << " m into the padding\n  q0 = " << q0.transpose() << "\n  q1 = " << q1.transpose();
    }
  }
  std::cout << robot << " padding " << padding << ": " << tally.segments
            << " segments, fine walk colliding " << tally.walk_colliding
            << ", continuous colliding " << tally.continuous_colliding << ", false alarms "
            << tally.false_alarms << " (" << 100.0 * tally.false_alarms / tally.segments
            << "%), grazes within tolerance " << tally.grazes << " (deepest " << tally.deepest_graze
            << " m); time continuous " << tally.continuous_ms << " ms, fine walk " << tally.walk_ms
            << " ms\n";
  return tally;
}

void expect_sound_and_useful(const SelfTally& t) {
  // The sample must exercise both verdicts, and alarms without a colliding state in the fine walk
  // must stay rare (the check only reports states that fail in_collision's own test).
  EXPECT_GE(t.walk_colliding, t.segments / 10);
  EXPECT_GE(t.segments - t.walk_colliding, t.segments / 10);
  EXPECT_LE(t.false_alarms, t.segments / 50);
}

SelfTally compare(const std::string& builtin_robot, double padding, int segments,
                  std::uint64_t seed) {
  return compare(load_builtin_robot(builtin_robot), builtin_robot, padding, segments, seed);
}

TEST(ContinuousSelfCheck, PandaAgreesWithAFineWalk) {
  expect_sound_and_useful(compare("panda", 0.0, test::cases(250, 80), 11));
  expect_sound_and_useful(compare("panda", 0.001, test::cases(150, 50), 12));
}

TEST(ContinuousSelfCheck, Ur5eAgreesWithAFineWalk) {
  expect_sound_and_useful(compare("ur5e", 0.0, test::cases(250, 80), 21));
  expect_sound_and_useful(compare("ur5e", 0.001, test::cases(150, 50), 22));
}

// The benchmark's Panda, collision meshes: its self pairs are watched pair by pair, near pairs by
// their convex hulls' distance first (link6's mesh is not convex) and the leaves' triangles where
// the hulls touch.
TEST(ContinuousSelfCheck, MotionBenchMakerMeshPandaAgreesWithAFineWalk) {
  KINETIC_REQUIRE_MBM();
  const std::string dir = test::mbm_panda_dir();
  const RobotModelPtr model = load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf");
  expect_sound_and_useful(compare(model, "mesh panda", 0.0, test::cases(120, 30), 31));
  expect_sound_and_useful(compare(model, "mesh panda", 0.001, test::cases(80, 20), 32));
}

// The wrist's pairs (link5 against link7 and the hand) depend on joints 6 and 7 alone: the path
// check proves a segment of theirs from the pair's distance table where it can, and must still
// catch every contact when the wrist swings the hand into the forearm, on paths of several
// segments (a segment proven by the table leaves no measured clearance for the next one).
TEST(ContinuousSelfCheck, WristTableProofsKeepEveryContactOnPathsOfSeveralSegments) {
  KINETIC_REQUIRE_MBM();
  const std::string dir = test::mbm_panda_dir();
  const RobotModelPtr model = load_robot_file(dir + "/robot/panda.urdf", dir + "/robot/panda.srdf");
  CollisionChecker checker(model);
  const CheckOptions self_only{0.0, true, false};
  constexpr int kSegments = 6;
  const JointVector lo = model->lower_limits(), hi = model->upper_limits();
  std::mt19937_64 rng(41);
  const auto wrist_move = [&](const JointVector& from) {
    JointVector to = from;
    for (const int j : {5, 6})
      to[j] = std::uniform_real_distribution<double>(lo[j], std::min(hi[j], lo[j] + 2 * M_PI))(rng);
    return to;
  };
  int paths = 0, walk_colliding = 0, refused = 0;
  for (int attempt = 0; attempt < 4000 && paths < test::cases(120, 40); ++attempt) {
    JointVector path[kSegments + 1];
    path[0] = random_clipped_state(rng, lo, hi);
    bool ends_free = !checker.in_collision(path[0], self_only);
    for (int i = 1; i <= kSegments && ends_free; ++i) {
      path[i] = wrist_move(path[i - 1]);
      // Every other path's last segment passes through a wrist contact (random ones rarely do).
      if (i == kSegments && attempt % 2 == 0)
        for (int tries = 0; tries < 100; ++tries)
          if (const JointVector contact = wrist_move(path[i - 1]);
              checker.in_collision(contact, self_only)) {
            path[i] = (2.0 * contact - path[i - 1]).cwiseMax(lo).cwiseMin(hi);
            break;
          }
      ends_free = !checker.in_collision(path[i], self_only);
    }
    if (!ends_free) continue;
    ++paths;
    bool checked_free = checker.path_begin(path[0], self_only);
    for (int i = 1; i <= kSegments && checked_free; ++i)
      checked_free = checker.path_advance(path[i]);
    double deepest = 0.0;
    bool walk_free = true;
    for (int i = 1; i <= kSegments; ++i) {
      const JointVector dq = path[i] - path[i - 1];
      const int steps = static_cast<int>(std::ceil(dq.cwiseAbs().maxCoeff() / kSelfWalkStep));
      for (int s = 1; s < steps; ++s) {
        const JointVector q = path[i - 1] + dq * (static_cast<double>(s) / steps);
        if (!checker.in_collision(q, self_only)) continue;
        walk_free = false;
        if (!checked_free) break;
        deepest = std::max(deepest, intrusion(checker, q, 0.0));
      }
      if (!walk_free && !checked_free) break;
    }
    walk_colliding += !walk_free;
    refused += !checked_free;
    if (checked_free) {
      EXPECT_LE(deepest, kTolerance + 1e-9) << "a wrist path called free goes " << deepest
                                            << " m into contact, from " << path[0].transpose();
    }
  }
  std::cout << "wrist paths " << paths << ", fine walk colliding " << walk_colliding << ", refused "
            << refused << "\n";
  EXPECT_EQ(paths, test::cases(120, 40));
  // Both verdicts occur, and the check refuses little the walk finds free.
  EXPECT_GE(walk_colliding, paths / 20);
  EXPECT_GE(paths - walk_colliding, paths / 2);
  EXPECT_LE(refused - walk_colliding, paths / 20);
}

TEST(ContinuousSelfCheck, CatchesTheFoldedForearmSwingingThroughTheBase) {
  CollisionChecker checker(load_builtin_robot("ur5e"));
  auto [up, over] = test::ur5e_forearm_swing();  // the folded forearm swings through the base
  ASSERT_FALSE(checker.in_collision(up));
  ASSERT_FALSE(checker.in_collision(over));
  EXPECT_FALSE(checker.self_motion_valid_continuous(up, over));
  EXPECT_FALSE(checker.self_motion_valid_continuous(over, up));
  // Turning the base alone moves every link rigidly with link1: nothing can close in.
  JointVector turned = up;
  turned[0] = 3.0;
  EXPECT_TRUE(checker.self_motion_valid_continuous(up, turned));
  EXPECT_TRUE(checker.self_motion_valid_continuous(up, up));
}

TEST(ContinuousSelfCheck, RejectsBadInput) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  const JointVector q = model->zero_configuration();
  EXPECT_THROW(checker.self_motion_valid_continuous(q, q, {}, 0.0), Error);
  EXPECT_THROW(checker.self_motion_valid_continuous(q, JointVector::Zero(3)), Error);
  // A NaN joint at either end, for the path check and the one-segment checks alike, whether or
  // not the other end is free (the zero configuration is not: the error must still come).
  EXPECT_THROW(checker.self_motion_valid_continuous(q, JointVector::Constant(q.size(), NAN)),
               Error);
  const JointVector home = model->named_pose("home");
  JointVector bad = home;
  bad[2] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(checker.path_begin(bad), Error);
  EXPECT_TRUE(checker.path_begin(home));
  EXPECT_THROW(checker.path_advance(bad), Error);
  EXPECT_THROW(checker.motion_valid_continuous(home, bad), Error);
  EXPECT_THROW(checker.motion_valid_continuous(bad, home), Error);
  EXPECT_THROW(checker.motion_valid_continuous(q, bad), Error);
  EXPECT_TRUE(checker.motion_valid_continuous(home, home));  // and the checker still works
}

}  // namespace
