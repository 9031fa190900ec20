// The two-tier checker on the real Panda and UR5 (meshes) against plain FCL; attach/detach;
// contacts; minimum distance; motion validation.
#include <gtest/gtest.h>

#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <random>
#include <vector>

#include "engine/collision/allowed_collision_matrix.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/state_diagnostics.hpp"
#include "support/benchmark_scenes.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

RobotModelPtr load(const std::string& urdf, const std::string& srdf) {
  const std::string root = kinetic::test::example_robot_data_dir() + "/robots/";
  LoadOptions options;
  options.package_paths = {kinetic::test::shared_robots_dir()};
  options.require_meshes = true;
  return load_robot_file(root + urdf, root + srdf, "", options);
}
RobotModelPtr panda_model() {
  return load("panda_description/urdf/panda.urdf", "panda_description/srdf/panda.srdf");
}
RobotModelPtr ur5_model() {
  return load("ur_description/urdf/ur5_robot.urdf", "ur_description/srdf/ur5.srdf");
}

PlanningScene cluttered_scene(std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  PlanningScene scene;
  for (int i = 0; i < count; ++i) {
    const double angle = 2 * M_PI * u(rng), radius = 0.3 + 0.6 * u(rng);
    const Pose pose =
        pose_from_xyz_rpy({radius * std::cos(angle), radius * std::sin(angle), 0.1 + 0.8 * u(rng)},
                          {u(rng) * 3, u(rng) * 3, u(rng) * 3});
    const std::string name = "obstacle_" + std::to_string(i);
    switch (i % 3) {
      case 0:
        scene.add_obstacle(
            name, Shape::box({0.04 + 0.1 * u(rng), 0.04 + 0.1 * u(rng), 0.04 + 0.1 * u(rng)}),
            pose);
        break;
      case 1:
        scene.add_obstacle(name, Shape::cylinder(0.02 + 0.04 * u(rng), 0.05 + 0.2 * u(rng)), pose);
        break;
      default:
        scene.add_obstacle(name, Shape::sphere(0.02 + 0.06 * u(rng)), pose);
        break;
    }
  }
  return scene;
}

// Plain FCL: world AABBs of every part, then the exact narrow phase on the overlapping ones.
struct FclReference {
  explicit FclReference(const CollisionChecker& c) : checker(c) {}
  bool in_collision() {
    const int n = checker.body_count();
    boxes.assign(n, {});
    for (int i = 0; i < n; ++i)
      for (const auto& part : checker.body(i).parts) {
        if (part.shape.type == Shape::Type::HalfSpace) continue;
        fcl::CollisionObjectd object(part.fcl_geometry(), checker.body_pose(i) * part.pose);
        object.computeAABB();
        boxes[i].push_back(object.getAABB());
      }
    auto test = [&](int a, int b) {
      for (std::size_t x = 0; x < boxes[a].size(); ++x)
        for (std::size_t y = 0; y < boxes[b].size(); ++y) {
          if (!boxes[a][x].overlap(boxes[b][y])) continue;
          const auto& pa = checker.body(a).parts[x];
          const auto& pb = checker.body(b).parts[y];
          fcl::CollisionRequestd request;
          fcl::CollisionResultd result;
          fcl::collide(pa.fcl_geometry().get(), checker.body_pose(a) * pa.pose,
                       pb.fcl_geometry().get(), checker.body_pose(b) * pb.pose, request, result);
          if (result.isCollision()) return true;
        }
      return false;
    };
    for (const auto& [a, b] : checker.self_pairs())
      if (test(a, b)) return true;
    for (int a = 0; a < checker.robot_body_count(); ++a)
      for (int o = checker.robot_body_count(); o < n; ++o)
        if (!checker.body(a).empty() && test(a, o)) return true;
    return false;
  }
  const CollisionChecker& checker;
  std::vector<std::vector<fcl::AABBd>> boxes;
};

void never_misses_a_collision(const RobotModelPtr& model, const char* label) {
  const int samples = test::cases(100000, 5000);
  CollisionChecker checker(model);
  checker.set_scene(cluttered_scene(7, 24));
  FclReference reference(checker);
  std::mt19937_64 rng(42);
  int collisions = 0, false_positives = 0, misses = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < samples; ++i) {
    const JointVector q = test::random_state(*model, rng);
    const bool ours = checker.in_collision(q);
    const bool exact = reference.in_collision();
    collisions += exact;
    if (!ours && exact) {
      ++misses;
      ADD_FAILURE() << label << ": reported free but FCL finds a collision at sample " << i;
    }
    if (ours && !exact) {
      ++false_positives;
      // A false positive must be within the refinement margin.
      const auto d = checker.min_distance(q);
      EXPECT_LE(d.distance, checker.options().refinement_margin + 1e-6) << label << " sample " << i;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "[%s] %d configurations, %d in collision (FCL), %d missed, %d false positives "
      "(%.3f%% of configurations, margin %.1f mm), %.1f s\n",
      label, samples, collisions, misses, false_positives, 100.0 * false_positives / samples,
      1000 * checker.options().refinement_margin, seconds);
  ::testing::Test::RecordProperty(std::string(label) + "_false_positives", false_positives);
  EXPECT_EQ(misses, 0);
  EXPECT_GT(collisions, samples / 20);
  EXPECT_LT(collisions, samples);
}

}  // namespace

TEST(CollisionChecker, PandaNeverReportsFreeWhereFclCollides) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  never_misses_a_collision(panda_model(), "panda");
}

TEST(CollisionChecker, Ur5NeverReportsFreeWhereFclCollides) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  never_misses_a_collision(ur5_model(), "ur5");
}

TEST(CollisionChecker, DefaultPoseIsFreeAndContactsNameTheLinks) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda_model();
  CollisionChecker checker(model);
  const JointVector ready = model->named_pose("default");
  EXPECT_FALSE(checker.in_collision(ready));
  EXPECT_TRUE(checker.contacts(ready).empty());
  // Fold the elbow into the base: link contacts with names and positive depth.
  JointVector folded = ready;
  folded[1] = 1.7;
  folded[3] = -0.1;
  folded[5] = 3.7;
  if (checker.in_collision(folded)) {
    const auto contacts = checker.contacts(folded);
    ASSERT_FALSE(contacts.empty());
    EXPECT_FALSE(contacts.front().body_a.empty());
    EXPECT_GE(contacts.front().depth, 0.0);
  }
  // A box around the hand collides and is named.
  PlanningScene scene;
  checker.update(ready);
  const Pose hand = checker.link_poses()[model->link_index("panda_hand")];
  scene.add_obstacle("crate", Shape::box({0.05, 0.05, 0.05}), hand);
  checker.set_scene(scene);
  EXPECT_TRUE(checker.in_collision(ready));
  const auto contacts = checker.contacts(ready);
  ASSERT_FALSE(contacts.empty());
  bool named = false;
  for (const auto& c : contacts) named |= c.body_b == "crate" && c.body_a == "panda_hand";
  EXPECT_TRUE(named);
  EXPECT_FALSE(checker.in_collision(ready, {.padding = 0.0, .self = true, .scene = false}));
}

TEST(CollisionChecker, ContactsNameAPairThatOnlyTouches) {
  // A cylinder held flush on the UR5e's flange (its end face in the flange plane, where link5's
  // geometry ends too): in_collision calls touching a contact, FCL calls it apart, and the list
  // came back empty ("contact pairs unavailable").
  auto model = load_builtin_robot("ur5e");
  CollisionChecker checker(model);
  PlanningScene scene;
  AttachedObject part;
  part.name = "part";
  part.link = "tool0";
  part.shape = Shape::cylinder(0.04, 0.1);
  part.pose.translation() = Vector3(0.0, 0.0, 0.05);
  part.touch_links = {"link6"};
  scene.add_attached(part);
  checker.set_scene(scene);
  const JointVector ready = model->named_pose("ready");
  ASSERT_TRUE(checker.in_collision(ready));
  const auto contacts = checker.contacts(ready);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts.front().body_a, "link5");
  EXPECT_EQ(contacts.front().body_b, "part");
  EXPECT_LT(contacts.front().depth, 1e-6);
  EXPECT_EQ(describe_contacts(contacts), "'link5' with 'part' (touching)");
}

TEST(CollisionChecker, AnObjectNamedLikeALinkIsRefusedAndTheOldSceneKept) {
  // Pairs are kept by name: an obstacle called 'link3' shared the link's row of the matrix, and a
  // wall through the arm behind it was no longer checked.
  auto model = load_builtin_robot("ur5e");
  CollisionChecker checker(model);
  PlanningScene wall;
  wall.add_obstacle("wall", Shape::box({2.0, 2.0, 0.02}),
                    pose_from_xyz_rpy({0.0, 0.0, 0.3}, {0.0, 0.0, 0.0}));
  checker.set_scene(wall);
  const JointVector ready = model->named_pose("ready");
  const bool wall_hits = checker.in_collision(ready);
  ASSERT_TRUE(wall_hits);  // the plate cuts through the arm
  PlanningScene named = wall;
  named.add_obstacle("link3", Shape::sphere(0.05),
                     pose_from_xyz_rpy({2.0, 2.0, 2.0}, {0.0, 0.0, 0.0}));
  try {
    checker.set_scene(named);
    FAIL() << "an obstacle named like a link was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::InvalidValue);
    EXPECT_NE(e.message().find("'link3' has the name of a link of robot 'ur5e'"), std::string::npos)
        << e.message();
  }
  EXPECT_EQ(checker.in_collision(ready), wall_hits);  // the wall scene still in force
  PlanningScene attached;
  AttachedObject part;
  part.name = "tool0";
  part.link = "tool0";
  part.shape = Shape::sphere(0.02);
  attached.add_attached(part);
  EXPECT_THROW(checker.set_scene(attached), Error);
}

TEST(AllowedCollisionMatrix, BuiltFromNamesAllAtOnce) {
  // One matrix for all names (adding 4,000 one by one took 18 s): duplicates kept once, nothing
  // allowed yet.
  std::vector<std::string> names;
  for (int i = 0; i < 3000; ++i) names.push_back("box" + std::to_string(i));
  names.push_back("box7");
  AllowedCollisionMatrix acm(names);
  EXPECT_EQ(acm.size(), 3000);
  EXPECT_EQ(acm.find("box2999"), 2999);
  EXPECT_FALSE(acm.allowed(0, 2999));
  acm.set_allowed(0, 2999, true);
  EXPECT_TRUE(acm.allowed("box2999", "box0"));
}

// set_scene keeps the sphere tree of an object whose shape is unchanged: the reused body must
// still follow the object's new pose, and a changed shape under the same name must be rebuilt.
TEST(CollisionChecker, SceneChangesKeepUnchangedBodiesButFollowNewPosesAndShapes) {
  auto model = load_builtin_robot("ur5e");
  CollisionChecker checker(model);
  const JointVector ready = model->named_pose("ready");
  checker.update(ready);
  const Pose flange = checker.link_poses()[model->link_index("tool0")];
  Pose away = flange;
  away.translation().z() += 0.5;
  PlanningScene scene;
  scene.add_obstacle("crate", Shape::box({0.05, 0.05, 0.05}), away);
  checker.set_scene(scene);
  EXPECT_FALSE(checker.in_collision(ready));
  scene.move_obstacle("crate", flange);  // same shape: the body is reused at the new pose
  checker.set_scene(scene);
  EXPECT_TRUE(checker.in_collision(ready));
  scene.move_obstacle("crate", away);
  checker.set_scene(scene);
  EXPECT_FALSE(checker.in_collision(ready));
  // The same name, now a slab reaching down to the flange: rebuilt, so it collides.
  scene.remove_obstacle("crate");
  scene.add_obstacle("crate", Shape::box({0.05, 0.05, 1.1}), away);
  checker.set_scene(scene);
  EXPECT_TRUE(checker.in_collision(ready));
  // Attached with the same shape, then released where it is: still checked as itself.
  PlanningScene held;
  held.add_obstacle("crate", Shape::box({0.05, 0.05, 0.05}), flange);
  held.attach_obstacle("crate", "tool0", flange, {"link6", "link5"});
  checker.set_scene(held);
  EXPECT_FALSE(checker.in_collision(ready));  // the flange link may touch what it holds
  held.detach("crate", flange);
  held.move_obstacle("crate", flange);
  checker.set_scene(held);
  EXPECT_TRUE(checker.in_collision(ready));  // released onto the flange: an obstacle again
}

// The checker's link poses (the whole-tree FK kernel, links without geometry included) agree
// with FK walked link by link from the root (the general per-joint steps).
TEST(CollisionChecker, LinkPosesMatchPerLinkForwardKinematics) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  for (const RobotModelPtr& model : {panda_model(), ur5_model()}) {
    CollisionChecker checker(model);
    const ForwardKinematics fk(*model);
    std::mt19937_64 rng(5);
    double worst = 0.0;
    for (int i = 0; i < 200; ++i) {
      const JointVector q = test::random_state(*model, rng);
      checker.in_collision(q);
      ASSERT_EQ(checker.link_poses().size(), model->links().size());
      for (const Link& link : model->links())
        worst = std::max(worst, (checker.link_poses()[link.index].matrix() -
                                 fk.link_pose(q, link.index).matrix())
                                    .cwiseAbs()
                                    .maxCoeff());
    }
    EXPECT_LE(worst, 1e-12) << model->name();
  }
}

TEST(CollisionChecker, AttachedObjectMovesWithTheLinkAndDetachesInPlace) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda_model();
  CollisionChecker checker(model);
  const JointVector ready = model->named_pose("default");
  checker.update(ready);
  const int hand_link = model->link_index("panda_hand");
  const Pose hand = checker.link_poses()[hand_link];
  PlanningScene scene;
  // A rod held between the fingers: touches the hand and fingers (allowed), nothing else.
  scene.add_obstacle("rod", Shape::cylinder(0.01, 0.2),
                     hand * pose_from_xyz_rpy({0, 0, 0.15}, {0, 0, 0}));
  scene.attach_obstacle("rod", "panda_hand", hand, {"panda_leftfinger", "panda_rightfinger"});
  EXPECT_TRUE(scene.has_attached("rod"));
  EXPECT_FALSE(scene.has_obstacle("rod"));
  checker.set_scene(scene);
  EXPECT_FALSE(checker.in_collision(ready));
  // A wall the hand can reach only with the rod: the attached object is checked against the scene.
  const Vector3 tip = (hand * pose_from_xyz_rpy({0, 0, 0.24}, {0, 0, 0})).translation();
  scene.add_obstacle("wall", Shape::box({0.02, 0.02, 0.02}), Pose(Eigen::Translation3d(tip)));
  checker.set_scene(scene);
  EXPECT_TRUE(checker.in_collision(ready));
  const auto contacts = checker.contacts(ready);
  ASSERT_FALSE(contacts.empty());
  EXPECT_EQ(contacts.front().body_a, "rod");
  EXPECT_EQ(contacts.front().body_b, "wall");
  // Moving the arm away takes the rod with it.
  JointVector moved = ready;
  moved[0] += 1.0;
  EXPECT_FALSE(checker.in_collision(moved));
  // Detach where the hand is now: the rod stays there as an obstacle.
  checker.update(moved);
  scene.detach("rod", checker.link_poses()[hand_link]);
  ASSERT_TRUE(scene.has_obstacle("rod"));
  const Pose rod_pose = scene.obstacle("rod").pose;
  EXPECT_TRUE(rod_pose.translation().isApprox(
      (checker.link_poses()[hand_link] * pose_from_xyz_rpy({0, 0, 0.15}, {0, 0, 0})).translation(),
      1e-9));
  checker.set_scene(scene);
  EXPECT_FALSE(checker.in_collision(ready));  // the rod no longer follows the hand
  EXPECT_TRUE(checker.in_collision(moved));   // and the hand is now inside it
  scene.allow("rod", "panda_hand");
  scene.allow("rod", "panda_leftfinger");
  scene.allow("rod", "panda_rightfinger");
  checker.set_scene(scene);
  EXPECT_FALSE(checker.in_collision(moved));
  EXPECT_THROW(scene.attach_obstacle("nothing", "panda_hand", Pose::Identity()), Error);
  scene.add_attached({"tool", "no_such_link", Shape::sphere(0.01), Pose::Identity(), {}});
  EXPECT_THROW(checker.set_scene(scene), Error);
}

TEST(CollisionChecker, MinimumDistanceToASphereMatchesFcl) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda_model();
  CollisionChecker checker(model);
  const JointVector ready = model->named_pose("default");
  PlanningScene scene;
  scene.add_obstacle("ball", Shape::sphere(0.05), Pose(Eigen::Translation3d(0.6, 0.0, 0.5)));
  checker.set_scene(scene);
  const auto d = checker.min_distance(ready, {.self = false, .scene = true});
  ASSERT_TRUE(d.found);
  EXPECT_EQ(d.body_b, "ball");
  EXPECT_GT(d.distance, 0.0);
  // The closest point on the ball lies on its surface, and the points are `distance` apart.
  EXPECT_NEAR((d.point_b - Vector3(0.6, 0, 0.5)).norm(), 0.05, 1e-4);
  EXPECT_NEAR((d.point_a - d.point_b).norm(), d.distance, 1e-4);
  // Brute force over all links with plain FCL agrees (libccd's GJK is accurate to ~1e-6).
  double brute = 1e9;
  checker.update(ready);
  const int ball = checker.body_count() - 1;
  const auto& ball_part = checker.body(ball).parts.front();
  for (int i = 0; i < checker.robot_body_count(); ++i)
    for (const auto& part : checker.body(i).parts) {
      fcl::DistanceRequestd request;
      fcl::DistanceResultd result;
      fcl::distance(part.fcl_geometry().get(), checker.body_pose(i) * part.pose,
                    ball_part.fcl_geometry().get(), checker.body_pose(ball) * ball_part.pose,
                    request, result);
      brute = std::min(brute, result.min_distance);
    }
  EXPECT_NEAR(d.distance, brute, 2e-6);
  const auto approx = checker.min_distance(ready, {.self = false, .scene = true, .exact = false});
  EXPECT_LE(approx.distance, d.distance + 1e-9);
}

// Random Panda configurations in clutter: links centimetres apart, facing each other or crossing
// (the search's probes, separating slabs and contact shortcut all come into play), against the
// minimum over every part pair by plain FCL.
TEST(CollisionChecker, MinimumDistanceOverRandomConfigurationsMatchesFcl) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda_model();
  CollisionChecker checker(model);
  checker.set_scene(cluttered_scene(7, 12));
  std::mt19937_64 rng(3);
  const int samples = test::cases(40, 8);  // FCL takes milliseconds per configuration
  // Half colliding, half free, picked by the cheap yes/no check so that a short sanitizer run
  // exercises both kinds of configuration too.
  std::vector<JointVector> picked;
  for (int colliding = 0, free = 0, tries = 0; (colliding + free) < samples && tries < 100000;
       ++tries) {
    JointVector q = test::random_state(*model, rng);
    int& count = checker.in_collision(q) ? colliding : free;
    if (count >= samples / 2) continue;
    ++count;
    picked.push_back(std::move(q));
  }
  ASSERT_EQ(static_cast<int>(picked.size()), samples);
  int touching = 0, near = 0;
  for (int i = 0; i < samples; ++i) {
    const JointVector& q = picked[i];
    const DistanceResult d = checker.min_distance(q);
    ASSERT_TRUE(d.found);
    checker.update(q);
    double brute = std::numeric_limits<double>::infinity();
    const auto measure = [&](int a, int b) {
      for (const auto& pa : checker.body(a).parts)
        for (const auto& pb : checker.body(b).parts) {
          fcl::DistanceRequestd request;
          fcl::DistanceResultd result;
          fcl::distance(pa.fcl_geometry().get(), checker.body_pose(a) * pa.pose,
                        pb.fcl_geometry().get(), checker.body_pose(b) * pb.pose, request, result);
          brute = std::min(brute, std::max(result.min_distance, 0.0));
        }
    };
    for (const auto& [a, b] : checker.self_pairs()) measure(a, b);
    for (int a = 0; a < checker.robot_body_count(); ++a)
      for (int o = checker.robot_body_count(); o < checker.body_count(); ++o)
        if (!checker.body(a).empty()) measure(a, o);
    EXPECT_NEAR(d.distance, brute, 2e-6)
        << "sample " << i << " (" << d.body_a << " with " << d.body_b << ")";
    EXPECT_NEAR((d.point_a - d.point_b).norm(), std::max(d.distance, 0.0), 1e-6) << "sample " << i;
    EXPECT_EQ(d.distance <= 0.0, checker.in_collision(q)) << "sample " << i;
    touching += d.distance <= 0.0;
    near += d.distance > 0.0 && d.distance < 0.1;
  }
  EXPECT_GT(touching, 0);  // both kinds of configuration were exercised
  EXPECT_GT(near, 0);
}

TEST(CollisionChecker, ContinuousCheckCatchesAThinObstacleThatDiscreteMisses) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda_model();
  CollisionChecker checker(model);
  JointVector q0 = model->named_pose("default"), q1 = q0, mid = q0;
  q0[0] = -1.6;
  q1[0] = 1.6;  // discrete at 1.0 rad samples -1.6, -0.8, 0, 0.8, 1.6
  mid[0] = -0.4;
  // A thin plate (4 mm along the sweep) where the finger passes between two discrete samples.
  checker.update(mid);
  const Vector3 finger = checker.link_poses()[model->link_index("panda_leftfinger")].translation();
  const Vector3 radial = Vector3(finger.x(), finger.y(), 0).normalized();
  Pose plate = Pose::Identity();
  plate.linear().col(0) = radial;
  plate.linear().col(1) = Vector3::UnitZ().cross(radial);
  plate.linear().col(2) = Vector3::UnitZ();
  plate.translation() = finger;
  PlanningScene scene;
  scene.add_obstacle("plate", Shape::box({0.02, 0.004, 0.02}), plate);
  checker.set_scene(scene);
  EXPECT_TRUE(checker.in_collision(mid));
  EXPECT_TRUE(checker.motion_valid_discrete(q0, q1, 1.0));
  EXPECT_FALSE(checker.motion_valid_continuous(q0, q1));
  // Without the plate both agree that the sweep is free.
  checker.set_scene(PlanningScene{});
  EXPECT_TRUE(checker.motion_valid_discrete(q0, q1, 0.05));
  EXPECT_TRUE(checker.motion_valid_continuous(q0, q1));
}

// Long sweeps among 20 boxes whose only collisions lie near one end (the scene bisection cuts a
// long sweep into several first intervals, and the first and last of them must be covered too):
// wherever a dense walk finds a colliding state, the continuous check fails the sweep.
TEST(CollisionChecker, ContinuousCheckFindsCollisionsNearEitherEndOfALongSweep) {
  const RobotModelPtr model = load_builtin_robot("panda");
  CollisionChecker checker(model);
  checker.set_scene(benchmark_scene("boxes20", model));
  std::mt19937_64 rng(5);
  const JointVector lo = model->lower_limits(), hi = model->upper_limits();
  const auto random_state = [&] {
    JointVector q(model->dof());
    for (int j = 0; j < model->dof(); ++j)
      q[j] = std::uniform_real_distribution<double>(lo[j], hi[j])(rng);
    return q;
  };
  int found = 0;
  for (int attempt = 0; attempt < 2000 && found < 20; ++attempt) {
    const JointVector a = random_state();
    if (checker.in_collision(a)) continue;
    // Walk from a towards a random state to the first collision, then make a sweep from a that
    // ends in free space well past it, its collisions within the first quarter or less.
    const JointVector toward = random_state();
    const int steps = 400;
    int first = -1;
    for (int i = 1; i <= steps && first < 0; ++i)
      if (checker.in_collision(a + (toward - a) * (static_cast<double>(i) / steps))) first = i;
    if (first < 0) continue;
    int last = first;
    while (last < steps &&
           checker.in_collision(a + (toward - a) * (static_cast<double>(last + 1) / steps)))
      ++last;
    const JointVector b = a + (toward - a) * (static_cast<double>(last + 1) / steps);  // free again
    double stretch = 10.0;  // as far as the joint limits allow, at least 4 times
    for (int j = 0; j < model->dof(); ++j) {
      const double d = b[j] - a[j];
      if (d > 0.0) stretch = std::min(stretch, 0.99 * (hi[j] - a[j]) / d);
      if (d < 0.0) stretch = std::min(stretch, 0.99 * (lo[j] - a[j]) / d);
    }
    if (stretch < 4.0) continue;
    const JointVector far = a + (b - a) * stretch;
    bool dense_free_after = true;  // the sweep's only collisions are the ones near its start
    for (int i = 1; i <= 2000 && dense_free_after; ++i)
      dense_free_after = !checker.in_collision(b + (far - b) * (static_cast<double>(i) / 2000));
    if (!dense_free_after) continue;
    EXPECT_FALSE(checker.motion_valid_continuous(a, far)) << "attempt " << attempt;
    EXPECT_FALSE(checker.motion_valid_continuous(far, a))
        << "attempt " << attempt << ", sweeping back";
    ++found;
  }
  EXPECT_GE(found, 20);
}

TEST(CollisionChecker, RobotPaddingAndPerCheckPadding) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  auto model = panda_model();
  CollisionChecker checker(model);
  const JointVector ready = model->named_pose("default");
  PlanningScene scene;
  scene.add_obstacle("ball", Shape::sphere(0.05), Pose(Eigen::Translation3d(0.6, 0.0, 0.5)));
  checker.set_scene(scene);
  const double gap = checker.min_distance(ready, {.self = false}).distance;
  EXPECT_FALSE(checker.in_collision(ready, {.padding = gap - 0.002, .self = false}));
  EXPECT_TRUE(checker.in_collision(ready, {.padding = gap + 0.002, .self = false}));
}
