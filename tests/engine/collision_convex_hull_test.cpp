// The convex-hull proof (body_pair.cpp, hulls_apart): GJK on a mesh's hull vertices (Qhull)
// proves pairs apart before the leaves' triangles are tested. It may only ever say "apart" where
// the meshes are: the verdicts of pair_in_collision stay FCL's on MotionBenchMaker's Panda meshes
// (nearly convex) and on its link6 (not convex: its hull reaches 11 cm beyond the mesh).
#include <gtest/gtest.h>

#include <fcl/narrowphase/collision.h>
#include <fcl/narrowphase/distance.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/collision/body_in_obstacle.hpp"
#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_body.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/collision/state_check.hpp"
#include "engine/collision/witness_check.hpp"
#include "engine/core/infinity.hpp"
#include "engine/geometry/collision_mesh.hpp"
#include "engine/geometry/convex_distance.hpp"
#include "engine/geometry/convex_hull.hpp"
#include "engine/geometry/point_columns.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/scene/planning_scene.hpp"
#include "scene_pair_cases.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

int cases(int full) {
  return test::cases(full, full / 4);
}

Pose random_pose(std::mt19937_64& rng, double spread) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  return pose_from_xyz_rpy({spread * u(rng), spread * u(rng), spread * u(rng)},
                           {3 * u(rng), 3 * u(rng), 3 * u(rng)});
}

std::vector<Vector3> box_corners(const Vector3& size) {
  std::vector<Vector3> corners;
  for (int i = 0; i < 8; ++i)
    corners.emplace_back((i & 1 ? 0.5 : -0.5) * size.x(), (i & 2 ? 0.5 : -0.5) * size.y(),
                         (i & 4 ? 0.5 : -0.5) * size.z());
  return corners;
}

std::shared_ptr<const CollisionBody> mbm_mesh(const std::string& file) {
  const std::string path = test::mbm_panda_dir() + "/robot/meshes/collision/" + file;
  return make_collision_body(file, {{Shape::mesh(path), Pose::Identity()}},
                             SphereResolution::Default);
}

double fcl_distance(const CollisionBody& a, const Pose& pa, const CollisionBody& b,
                    const Pose& pb) {
  fcl::DistanceRequestd request;
  fcl::DistanceResultd result;
  fcl::distance(a.parts.front().fcl_geometry().get(), pa, b.parts.front().fcl_geometry().get(), pb,
                request, result);
  return result.min_distance;
}

bool fcl_collide(const CollisionBody& a, const Pose& pa, const CollisionBody& b, const Pose& pb) {
  fcl::CollisionRequestd request;
  fcl::CollisionResultd result;
  fcl::collide(a.parts.front().fcl_geometry().get(), pa, b.parts.front().fcl_geometry().get(), pb,
               request, result);
  return result.isCollision();
}

}  // namespace

TEST(ConvexHullDistance, CornerPointsMeasureAsTheirBox) {
  const Vector3 size_a(0.2, 0.1, 0.05), size_b(0.03, 0.3, 0.1);
  const std::vector<Vector3> corners_a = box_corners(size_a), corners_b = box_corners(size_b);
  const Shape box_a = Shape::box(size_a), box_b = Shape::box(size_b);
  std::mt19937_64 rng(3);
  int apart = 0;
  for (int i = 0; i < 500; ++i) {
    const Pose pa = random_pose(rng, 0.2), pb = random_pose(rng, 0.2);
    const ConvexDistance boxes = primitive_distance(box_a, pa, box_b, pb);
    const ConvexDistance points =
        convex_set_distance({nullptr, &corners_a}, pa, {nullptr, &corners_b}, pb);
    const ConvexDistance mixed =
        convex_set_distance({nullptr, &corners_a}, pa, {&box_b, nullptr}, pb);
    // Started along a given axis (a nearby pose's separating axis; here any direction, even one
    // pointing the wrong way): the same distance.
    const Vector3 first_axis = random_pose(rng, 1.0).linear().col(0);
    const ConvexDistance started = convex_set_distance({nullptr, &corners_a}, pa, {&box_b, nullptr},
                                                       pb, kInf, 0.0, kInf, &first_axis);
    ASSERT_NEAR(points.distance, boxes.distance, 1e-9) << "case " << i;
    ASSERT_NEAR(mixed.distance, boxes.distance, 1e-9) << "case " << i;
    ASSERT_NEAR(started.distance, boxes.distance, 1e-9) << "case " << i;
    ASSERT_LE(started.lower_bound, started.distance);
    ASSERT_LE(points.lower_bound, points.distance);
    ASSERT_NEAR((points.point_a - points.point_b).norm(), points.distance, 1e-9);
    apart += boxes.distance > 0.0;
  }
  EXPECT_GT(apart, 100);
  EXPECT_LT(apart, 490);
  // A sphere is a point inflated by its radius.
  const Shape ball = Shape::sphere(0.05);
  const std::vector<Vector3> origin{Vector3::Zero()};
  const ConvexDistance d =
      convex_set_distance({nullptr, &origin}, Pose::Identity(), {&ball, nullptr},
                          Pose(Eigen::Translation3d(0.3, 0.0, 0.0)));
  EXPECT_NEAR(d.distance, 0.25, 1e-12);
}

// The column scan finds a point as far along the direction as the plain scan does, for odd and
// even counts (the padding copies the last point) and for ties.
TEST(ConvexHullDistance, ColumnScanFindsTheFarthestPoint) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const std::size_t count : {1u, 2u, 3u, 8u, 151u}) {
    std::vector<Vector3> points;
    for (std::size_t i = 0; i < count; ++i) points.emplace_back(u(rng), u(rng), u(rng));
    if (count > 2) points[count - 1] = points[0];  // a tie
    const PointColumns columns(points);
    ASSERT_EQ(columns.size(), count);
    for (int trial = 0; trial < 200; ++trial) {
      const Vector3 d(u(rng), u(rng), u(rng));
      double best = -1e300;
      for (const auto& p : points) best = std::max(best, d.dot(p));
      const std::size_t chosen = columns.support_index(d);
      ASSERT_LT(chosen, count);
      ASSERT_GE(d.dot(points[chosen]), best - 1e-12) << count << " points, trial " << trial;
    }
  }
}

TEST(ConvexHullProof, MotionBenchMakerPandaPairsKeepFclsVerdicts) {
  KINETIC_REQUIRE_MBM();
  const auto link5 = mbm_mesh("link5.obj"), link7 = mbm_mesh("link7.obj"),
             hand = mbm_mesh("hand.obj"), link6 = mbm_mesh("link6.obj"),
             link0 = mbm_mesh("link0.obj");
  const std::pair<const CollisionBody*, const CollisionBody*> pairs[] = {{link5.get(), link7.get()},
                                                                         {link5.get(), hand.get()},
                                                                         {link6.get(), link0.get()},
                                                                         {link6.get(), hand.get()}};
  std::mt19937_64 rng(11);
  int colliding = 0, within_padding = 0, apart = 0;
  for (const auto& [a, b] : pairs) {
    for (int i = 0; i < cases(300); ++i) {
      const Pose pa = random_pose(rng, 0.05), pb = random_pose(rng, 0.25);
      const bool touching = fcl_collide(*a, pa, *b, pb);
      // margin 0: exact answers (the hull proof, then the leaves' triangles)
      ASSERT_EQ(pair_in_collision(*a, pa, *b, pb, 0.0, 0.0), touching)
          << a->name << "-" << b->name << " " << i;
      if (touching) {
        ++colliding;
        continue;
      }
      const double distance = fcl_distance(*a, pa, *b, pb);
      if (std::abs(distance - 0.02) < 1e-6) continue;  // too close to the padding to compare
      ASSERT_EQ(pair_in_collision(*a, pa, *b, pb, 0.02, 0.0), distance < 0.02)
          << a->name << "-" << b->name << " " << i;
      (distance < 0.02 ? within_padding : apart)++;
    }
  }
  EXPECT_GT(colliding, cases(100));
  EXPECT_GT(within_padding, cases(10));
  EXPECT_GT(apart, cases(100));
}

// The scene check keeps, per body and obstacle, the axis the exact tier's hull proof last found
// (HullHint) and tries it alone at the next pose: it never proves apart a pair within the
// padding, and at a pose nearby it proves most of the pairs GJK proved.
TEST(ConvexHullProof, AKeptAxisProvesNearbyPosesAndNeverAClosePair) {
  KINETIC_REQUIRE_MBM();
  const auto link6 = mbm_mesh("link6.obj"), hand = mbm_mesh("hand.obj");
  const auto board = make_collision_body(
      "board", {{Shape::box({0.4, 0.02, 0.3}), Pose::Identity()}}, SphereResolution::Default);
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> nudge(-0.01, 0.01);
  int recorded = 0, proven = 0;
  for (const CollisionBody* link : {link6.get(), hand.get()}) {
    for (int i = 0; i < cases(400); ++i) {
      const Pose pose = random_pose(rng, 0.2), board_pose = random_pose(rng, 0.05);
      HullHint hint;
      EXPECT_FALSE(hull_axis_apart(*link, pose, *board, board_pose, 0.02, hint))
          << "no axis kept yet";
      if (pair_in_collision(*link, pose, *board, board_pose, 0.02, 0.0, false, &hint)) continue;
      if (hint.axis.squaredNorm() == 0.0) continue;  // apart by the leaves, not the hulls
      ++recorded;
      // A centimetre and a hundredth of a radian away, as the next state of an edge.
      const Pose turn = pose_from_xyz_rpy(Vector3::Zero(), {nudge(rng), nudge(rng), nudge(rng)});
      Pose near = pose;
      near.linear() = turn.linear() * pose.linear();
      near.translation() += Vector3(nudge(rng), nudge(rng), nudge(rng));
      if (!hull_axis_apart(*link, near, *board, board_pose, 0.02, hint)) continue;
      ++proven;
      ASSERT_GT(fcl_distance(*link, near, *board, board_pose), 0.02)
          << link->name << " " << i << ": the kept axis proved a pair within the padding";
    }
  }
  EXPECT_GT(recorded, cases(100));
  EXPECT_GT(proven, recorded / 2) << "the kept axis rarely proved a nearby pose";
}

// The hull Qhull builds holds every vertex of the mesh (nothing sticks out of it along any
// direction) and keeps far fewer of them on the Panda's finely tessellated wrist links.
TEST(ConvexHullVertices, HoldTheMeshWithFewerPoints) {
  KINETIC_REQUIRE_MBM();
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const char* file : {"link4.obj", "link6.obj", "link7.obj", "finger.obj", "hand.obj"}) {
    const auto mesh =
        load_collision_mesh(test::mbm_panda_dir() + "/robot/meshes/collision/" + file);
    ASSERT_TRUE(mesh->hull.has_edges()) << file;
    for (int trial = 0; trial < 2000; ++trial) {
      const Vector3 d = Vector3(u(rng), u(rng), u(rng)).normalized();
      double mesh_most = -1e300, hull_most = -1e300;
      for (const Vector3& v : mesh->vertices) mesh_most = std::max(mesh_most, d.dot(v));
      for (const Vector3& v : mesh->hull.vertices) hull_most = std::max(hull_most, d.dot(v));
      ASSERT_NEAR(hull_most, mesh_most, 1e-12) << file << " trial " << trial;
    }
    if (std::string(file) == "link4.obj") {
      EXPECT_LT(mesh->hull.vertices.size(), 200u) << "of 900";
    }
    if (std::string(file) == "link6.obj") {
      EXPECT_LT(mesh->hull.vertices.size(), 300u) << "of 966";
    }
  }
}

// Points with no solid hull come back unreduced and without edges (a support scan still works).
TEST(ConvexHullVertices, FlatAndTinySetsComeBackAsGiven) {
  const std::vector<Vector3> square{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0.5, 0.5, 0}};
  const ConvexHull flat = convex_hull(square);
  EXPECT_FALSE(flat.has_edges());
  EXPECT_EQ(flat.vertices.size(), square.size());
  const ConvexHull three = convex_hull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  EXPECT_EQ(three.vertices.size(), 3u);
  EXPECT_FALSE(three.has_edges());
  // A cube with its centre and face centres: the corners alone, each with its hull neighbours.
  std::vector<Vector3> cube = box_corners(Vector3(1, 1, 1));
  cube.push_back(Vector3::Zero());
  cube.push_back(Vector3(0.5, 0, 0));
  const ConvexHull solid = convex_hull(cube);
  ASSERT_TRUE(solid.has_edges());
  EXPECT_EQ(solid.vertices.size(), 8u);
  for (std::size_t v = 0; v < 8; ++v) {
    const auto count = solid.neighbour_start[v + 1] - solid.neighbour_start[v];
    EXPECT_GE(count, 3u) << "vertex " << v;  // the three cube edges, plus triangulation diagonals
    EXPECT_LE(count, 6u) << "vertex " << v;
  }
}

// Climbing the hull's edges from any vertex (the last answer, or the direction map's vertex for
// the direction's cell, whichever is farther along) ends at a point as far along the direction as
// the full scan finds, on every Panda mesh (the wrist's links are where it pays); directions on
// the map's cell and face borders too, and a zero direction gives some vertex.
TEST(ConvexHullVertices, ClimbingTheEdgesFindsTheFarthestPoint) {
  KINETIC_REQUIRE_MBM();
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const char* file :
       {"link0.obj", "link1.obj", "link4.obj", "link5.obj", "link6.obj", "link7.obj", "hand.obj"}) {
    const auto mesh =
        load_collision_mesh(test::mbm_panda_dir() + "/robot/meshes/collision/" + file);
    const PointColumns& columns = mesh->hull_columns;
    std::uint32_t start = 0;
    std::uint32_t from_zero = 0;
    EXPECT_LT(columns.support_index(Vector3::Zero(), from_zero), columns.size()) << file;
    for (int trial = 0; trial < 3000; ++trial) {
      Vector3 d(u(rng), u(rng), u(rng));
      if (trial % 5 == 1) d[trial % 3] = 0.0;                 // on a cell border (u or v = 0)
      if (trial % 5 == 2) d[(trial + 1) % 3] = d[trial % 3];  // on a face border
      if (trial % 5 == 3) d = Vector3::Unit(trial % 3) * (trial % 2 ? 1.0 : -1.0);
      if (trial % 3 == 0)
        start = static_cast<std::uint32_t>(rng() % columns.size());  // cold starts too
      const std::size_t scanned = columns.support_index(d);
      const std::size_t climbed = columns.support_index(d, start);
      ASSERT_EQ(start, climbed);
      ASSERT_NEAR(d.dot(mesh->hull.vertices[climbed]), d.dot(mesh->hull.vertices[scanned]), 1e-12)
          << file << " trial " << trial;
    }
  }
}

// Beyond kMaxHullPoints the points come back as given (a scan's hull costs much and proves little).
TEST(ConvexHullVertices, TooManyPointsComeBackAsGiven) {
  std::vector<Vector3> many;
  std::mt19937_64 rng(13);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i <= kMaxHullPoints; ++i) many.emplace_back(u(rng), u(rng), u(rng));
  const ConvexHull hull = convex_hull(many);
  EXPECT_FALSE(hull.has_edges());
  EXPECT_EQ(hull.vertices.size(), many.size());
}

// Witness points (engine/collision/witness_check.hpp): the extreme hull vertices of
// MotionBenchMaker's Panda links against shelf boards, a can and a pipe. A witness within the
// padding must be a collision the exact test finds too (it only ever says "colliding"), and the
// witnesses must catch a good share of the collisions, or the test ahead of the exact tiers is time
// wasted.
namespace {

// Boards of a bookshelf around the Panda, at the heights its links pass.
PlanningScene witness_shelf() {
  PlanningScene scene;
  const double heights[] = {0.2, 0.45, 0.7};
  for (int i = 0; i < 3; ++i)
    scene.add_obstacle("board" + std::to_string(i), Shape::box({0.4, 1.0, 0.02}),
                       pose_from_xyz_rpy({0.55, 0.0, heights[i]}, {0.0, 0.0, 0.0}));
  scene.add_obstacle("side", Shape::box({0.4, 0.02, 0.8}),
                     pose_from_xyz_rpy({0.55, 0.5, 0.4}, {0.0, 0.0, 0.3}));
  // A can standing on a board and a pipe lying across the shelf.
  scene.add_obstacle("can", Shape::cylinder(0.04, 0.12),
                     pose_from_xyz_rpy({0.45, -0.1, 0.52}, {0.0, 0.0, 0.0}));
  scene.add_obstacle("pipe", Shape::cylinder(0.03, 0.9),
                     pose_from_xyz_rpy({0.4, 0.0, 0.33}, {1.5708, 0.0, 0.0}));
  return scene;
}

// MotionBenchMaker's Panda, with its meshes.
RobotModelPtr benchmark_panda() {
  const std::string robot = test::mbm_panda_dir() + "/robot/";
  return load_robot_file(robot + "panda.urdf", robot + "panda.srdf");
}

struct WitnessTally {
  int colliding = 0;               // pairs the exact test finds colliding
  int witnessed = 0;               // of those, the ones a witness proves
  int witnessed_by_cylinders = 0;  // ... with a cylinder
};

// Random states of `robot` against the world's obstacles, each (link, obstacle) pair at paddings
// 0 and 2 cm: a witness within the padding must be a collision the exact test finds.
WitnessTally witnesses_against_the_exact_test(const CollisionWorld& world, const RobotModel& robot,
                                              std::uint64_t seed) {
  CollisionState state;
  state.reset(world);
  WitnessTally tally;
  tally.colliding = test::visit_scene_pair_cases(
      world, state, robot, test::cases(4000, 1000), seed,
      [&](int i, double padding, std::size_t m, int o, bool exact) {
        const auto& frame =
            world.obstacle_frames[static_cast<std::size_t>(o - world.obstacle_begin)];
        if (!witness_within(world, state, m, frame, padding)) return true;
        ++tally.witnessed;
        tally.witnessed_by_cylinders += frame.shape->type == Shape::Type::Cylinder;
        EXPECT_TRUE(exact) << "case " << i << ", slot " << m << ", obstacle " << o << ", padding "
                           << padding << ": a witness said colliding where the exact test did not";
        return exact;
      });
  return tally;
}

}  // namespace

TEST(WitnessPoints, AWitnessWithinThePaddingIsACollisionTheExactTestFinds) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = benchmark_panda();
  CollisionChecker checker(panda);
  checker.set_scene(witness_shelf());
  const CollisionWorld& world = *checker.world();
  ASSERT_EQ(world.witness_begin.size(), world.moving_bodies.size() + 1);
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
    EXPECT_LE(world.witness_begin[m + 1] - world.witness_begin[m], kWitnessesPerBody);
  const WitnessTally tally = witnesses_against_the_exact_test(world, *panda, 3);
  ASSERT_GT(tally.colliding, test::cases(400, 100));
  // A third of the collisions at least (on the benchmark's searches: four in five).
  EXPECT_GT(tally.witnessed, tally.colliding / 3)
      << tally.witnessed << " of " << tally.colliding << " collisions";
  EXPECT_GT(tally.witnessed_by_cylinders, 0)
      << "no collision with the can or the pipe was witnessed";
}

// Every hull vertex (hull_vertex_within), scanned where a pair's hulls touch, before the leaves:
// a vertex within the padding is a collision the exact test finds, and the whole hull catches
// more of the collisions than its sixteen witnesses do.
TEST(WitnessPoints, EveryHullVertexWithinThePaddingIsACollisionAndCatchesMoreThanTheWitnesses) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr panda = benchmark_panda();
  CollisionChecker checker(panda);
  checker.set_scene(witness_shelf());
  const CollisionWorld& world = *checker.world();
  ASSERT_EQ(world.vertex_begin.size(), world.moving_bodies.size() + 1);
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
    EXPECT_GE(world.vertex_begin[m + 1] - world.vertex_begin[m],
              world.witness_begin[m + 1] - world.witness_begin[m]);
  CollisionState state;
  state.reset(world);
  int by_vertices = 0, by_witnesses = 0;
  const int colliding = test::visit_scene_pair_cases(
      world, state, *panda, test::cases(4000, 1000), 7,
      [&](int i, double padding, std::size_t m, int o, bool exact) {
        const auto& frame =
            world.obstacle_frames[static_cast<std::size_t>(o - world.obstacle_begin)];
        const bool vertex = hull_vertex_within(world, state, m, frame, padding);
        by_vertices += vertex;
        by_witnesses += witness_within(world, state, m, frame, padding) && exact;
        EXPECT_TRUE(!vertex || exact)
            << "case " << i << ", slot " << m << ", obstacle " << o << ", padding " << padding
            << ": a hull vertex said colliding where the exact test did not";
        return !vertex || exact;
      });
  ASSERT_GT(colliding, test::cases(400, 100));
  EXPECT_GT(by_vertices, by_witnesses)
      << by_vertices << " against " << by_witnesses << " of " << colliding << " collisions";
}

// The body placed in an obstacle's frame once per pair visit, for the cover test and the
// witnesses (body_in_obstacle): the double-precision composition rounded to single, and unusable
// where a pose is not finite or lies beyond single precision's range.
TEST(WitnessPoints, TheBodyPlacedInAnObstaclesFrameIsTheComposedPoseRoundedOnce) {
  const RobotModelPtr panda = load_builtin_robot("panda");
  CollisionChecker checker(panda);
  checker.set_scene(witness_shelf());
  const CollisionWorld& world = *checker.world();
  CollisionState state;
  state.reset(world);
  std::mt19937_64 rng(17);
  for (int i = 0; i < 50; ++i) {
    update_poses(world, state, test::random_state(*panda, rng));
    for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
      for (const auto& frame : world.obstacle_frames) {
        const BodyInObstacle placed = body_in_obstacle(world, state, m, frame);
        ASSERT_TRUE(placed.usable);
        const Pose& pose = state.pose(world.moving_bodies[m]);
        const Eigen::Matrix3d rotation = frame.to_local * pose.linear();
        const Vector3 offset = frame.to_local * (pose.translation() - frame.origin);
        for (int r = 0; r < 3; ++r) {
          for (int c = 0; c < 3; ++c) EXPECT_NEAR(placed.rotation[3 * r + c], rotation(r, c), 1e-6);
          EXPECT_NEAR(placed.offset[r], offset[r], 1e-6);
        }
      }
  }
  const auto& frame = world.obstacle_frames.front();
  const std::size_t last = world.moving_bodies.size() - 1;
  const auto last_link = static_cast<std::size_t>(
      world.bodies[static_cast<std::size_t>(world.moving_bodies[last])].link);
  update_poses(world, state, test::random_state(*panda, rng));
  state.link_poses[last_link].translation().x() = 80.0;  // beyond single precision's range
  EXPECT_FALSE(body_in_obstacle(world, state, last, frame).usable);
  update_poses(world, state, test::random_state(*panda, rng));
  state.link_poses[last_link](0, 0) = std::nan("");
  EXPECT_FALSE(body_in_obstacle(world, state, last, frame).usable);
}

// The built-in arms' links are cylinders and boxes: their witnesses are points of those solids
// (rims, corners, centres), and one within the padding of an obstacle is a collision the exact
// test finds, as a mesh vertex's is.
TEST(WitnessPoints, SolidLinksWitnessWithPointsOfTheirCylindersAndBoxes) {
  const RobotModelPtr panda = load_builtin_robot("panda");
  CollisionChecker checker(panda);
  checker.set_scene(witness_shelf());
  const CollisionWorld& world = *checker.world();
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
    EXPECT_GT(world.witness_begin[m + 1], world.witness_begin[m])
        << world.body_name(world.moving_bodies[m]) << " has no witnesses";
  const WitnessTally tally = witnesses_against_the_exact_test(world, *panda, 5);
  ASSERT_GT(tally.colliding, test::cases(400, 100));
  EXPECT_GT(tally.witnessed, tally.colliding / 3)
      << tally.witnessed << " of " << tally.colliding << " collisions";
}

// The refinement-margin tier (CheckOptions::exact false) against the scene, for a robot of meshes:
// every pair its broad phase, covers, kept axes and witnesses leave open goes to the hulls' GJK
// and the leaves, not to a sphere walk that may call a pair within the margin colliding, so its
// verdicts are the exact check's, states near the boards included. The states come in fine steps
// along edges, so that what each pair kept from the last state (its axis, whether a witness proved
// it colliding) is tried first, and must never change a verdict.
TEST(ConvexHullProof, TheTiersSceneVerdictsOnMeshLinksAreTheExactOnes) {
  KINETIC_REQUIRE_MBM();
  const std::string robot = test::mbm_panda_dir() + "/robot/";
  const RobotModelPtr panda = load_robot_file(robot + "panda.urdf", robot + "panda.srdf");
  CollisionCheckerOptions options;
  options.refinement_margin = 0.02;  // a wide margin, so a walk would have had room to differ
  CollisionChecker tiered(panda, options), exact(panda, options);
  tiered.set_scene(witness_shelf());
  exact.set_scene(witness_shelf());
  const CollisionWorld& world = *exact.world();
  // Every (link, obstacle) pair on its own, exactly: nothing kept from other states.
  const auto pair_by_pair = [&](const JointVector& q) {
    exact.in_collision(q, CheckOptions{.self = false, .scene = false});  // places the bodies
    for (const int link : world.moving_bodies)
      for (int o = world.obstacle_begin; o < world.body_count(); ++o)
        if (exact.pair_in_collision(link, o, 0.0, 0.0)) return true;
    return false;
  };
  std::mt19937_64 rng(31);
  int colliding = 0, free = 0;
  for (int i = 0; i < test::cases(100, 20); ++i) {
    const JointVector from = test::random_state(*panda, rng), to = test::random_state(*panda, rng);
    for (int s = 0; s <= 400; ++s) {  // steps of about 5 mrad: into a board, out and past it
      const JointVector q = from + (to - from) * (s / 400.0);
      const bool by_tier = tiered.in_collision(q, CheckOptions{.self = false, .exact = false});
      const bool by_pairs = pair_by_pair(q);
      ASSERT_EQ(by_tier, by_pairs) << "walk " << i << ", state " << s;
      (by_pairs ? colliding : free)++;
    }
  }
  EXPECT_GT(colliding, test::cases(3000, 600));
  EXPECT_GT(free, test::cases(3000, 600));
}
