// Inner spheres (engine/geometry/inner_spheres.hpp): balls inside a closed mesh's volume, which
// prove a wide obstacle reaching into them in collision with the mesh (witness_check.hpp and the
// lanes test them after the witness vertices). They must lie inside the volume, exist only for
// meshes that close one, and never prove what the exact test does not find.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/collision/collision_world.hpp"
#include "engine/collision/state_check.hpp"
#include "engine/collision/witness_check.hpp"
#include "engine/geometry/collision_mesh.hpp"
#include "engine/geometry/convex_distance.hpp"
#include "engine/geometry/inner_spheres.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/scene/planning_scene.hpp"
#include "scene_pair_cases.hpp"
#include "support/random_state.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

// A unit cube centred at the origin, outward triangles.
struct TestCube {
  std::vector<Vector3> vertices;
  std::vector<std::array<int, 3>> triangles;
};

TestCube unit_cube() {
  TestCube cube;
  for (int i = 0; i < 8; ++i)
    cube.vertices.emplace_back((i & 1) ? 0.5 : -0.5, (i & 2) ? 0.5 : -0.5, (i & 4) ? 0.5 : -0.5);
  cube.triangles = {{0, 2, 1}, {1, 2, 3}, {4, 5, 6}, {5, 7, 6}, {0, 1, 4}, {1, 5, 4},
                    {2, 6, 3}, {3, 6, 7}, {0, 4, 2}, {2, 4, 6}, {1, 3, 5}, {3, 7, 5}};
  return cube;
}

// Crossings of the ray from p along `direction` with the triangles (Moller-Trumbore): odd inside
// a closed surface. Independent of the library's own x-axis parity and winding number.
int ray_crossings(const std::vector<Vector3>& vertices,
                  const std::vector<std::array<int, 3>>& triangles, const Vector3& p,
                  const Vector3& direction) {
  int crossings = 0;
  for (const auto& t : triangles) {
    const Vector3& a = vertices[static_cast<std::size_t>(t[0])];
    const Vector3 e1 = vertices[static_cast<std::size_t>(t[1])] - a;
    const Vector3 e2 = vertices[static_cast<std::size_t>(t[2])] - a;
    const Vector3 h = direction.cross(e2);
    const double det = e1.dot(h);
    if (std::abs(det) < 1e-15) continue;
    const Vector3 s = p - a;
    const double u = s.dot(h) / det;
    const Vector3 qv = s.cross(e1);
    const double v = direction.dot(qv) / det;
    const double along = e2.dot(qv) / det;
    crossings += u >= 0.0 && v >= 0.0 && u + v <= 1.0 && along > 0.0;
  }
  return crossings;
}

double nearest_triangle(const std::vector<Vector3>& vertices,
                        const std::vector<std::array<int, 3>>& triangles, const Vector3& p) {
  double nearest = 1e300;
  for (const auto& t : triangles)
    nearest =
        std::min(nearest, (closest_point_on_triangle(p, vertices[static_cast<std::size_t>(t[0])],
                                                     vertices[static_cast<std::size_t>(t[1])],
                                                     vertices[static_cast<std::size_t>(t[2])]) -
                           p)
                              .norm());
  return nearest;
}

// Thin bars across the Panda's workspace, as MotionBenchMaker's cage has them.
PlanningScene bar_cage() {
  PlanningScene scene;
  int n = 0;
  for (const double y : {-0.3, -0.1, 0.1, 0.3})
    scene.add_obstacle("post" + std::to_string(n++), Shape::box({0.015, 0.015, 1.2}),
                       pose_from_xyz_rpy({0.45, y, 0.6}, {0.0, 0.0, 0.0}));
  for (const double z : {0.25, 0.5, 0.75})
    scene.add_obstacle("rail" + std::to_string(n++), Shape::cylinder(0.008, 1.0),
                       pose_from_xyz_rpy({0.35, 0.0, z}, {1.5708, 0.0, 0.0}));
  return scene;
}

}  // namespace

TEST(InnerSpheres, ACubeHoldsOneAtItsCentreAndAnOpenOrTurnedFaceHoldsNone) {
  const TestCube cube = unit_cube();
  ASSERT_TRUE(mesh_is_closed(cube.vertices, cube.triangles));
  const std::vector<InnerSphere> spheres = inner_spheres(cube.vertices, cube.triangles, 8);
  ASSERT_FALSE(spheres.empty());
  // The grid's centre cell lies within a sixteenth of the side of the centre.
  EXPECT_GT(spheres.front().radius, 0.43);
  EXPECT_LE(spheres.front().radius, 0.5);

  TestCube open = cube;
  open.triangles.pop_back();
  EXPECT_FALSE(mesh_is_closed(open.vertices, open.triangles));
  EXPECT_TRUE(inner_spheres(open.vertices, open.triangles, 8).empty());

  TestCube turned = cube;
  std::swap(turned.triangles[3][1], turned.triangles[3][2]);
  EXPECT_FALSE(mesh_is_closed(turned.vertices, turned.triangles));
  EXPECT_TRUE(inner_spheres(turned.vertices, turned.triangles, 8).empty());

  // Vertices repeated per triangle (as STL stores them) are joined by position.
  TestCube unjoined;
  for (const auto& t : cube.triangles) {
    const int base = static_cast<int>(unjoined.vertices.size());
    for (const int v : t) unjoined.vertices.push_back(cube.vertices[static_cast<std::size_t>(v)]);
    unjoined.triangles.push_back({base, base + 1, base + 2});
  }
  EXPECT_TRUE(mesh_is_closed(unjoined.vertices, unjoined.triangles));
}

TEST(InnerSpheres, EachOfTheBenchmarkPandasLiesInsideItsClosedMesh) {
  KINETIC_REQUIRE_MBM();
  const std::string dir = test::mbm_panda_dir() + "/robot/meshes/collision/";
  int closed = 0;
  for (const char* name :
       {"link0", "link1", "link2", "link3", "link4", "link5", "link6", "link7", "hand", "finger"}) {
    const auto mesh = load_collision_mesh(dir + name + ".obj");
    const bool is_closed = mesh_is_closed(mesh->vertices, mesh->triangles);
    if (!is_closed) {
      // link6 is made of open shells: no volume to be inside of.
      EXPECT_TRUE(mesh->inner_spheres.empty()) << name;
      continue;
    }
    ++closed;
    ASSERT_GE(mesh->inner_spheres.size(), 4u) << name;
    for (const InnerSphere& sphere : mesh->inner_spheres) {
      EXPECT_GT(sphere.radius, 0.0) << name;
      EXPECT_LE(sphere.radius, nearest_triangle(mesh->vertices, mesh->triangles, sphere.center))
          << name << ": a sphere reaches past the surface";
      for (const Vector3& direction :
           {Vector3(0.31, 0.52, 0.79).normalized(), Vector3(-0.83, 0.12, -0.54).normalized()})
        EXPECT_EQ(ray_crossings(mesh->vertices, mesh->triangles, sphere.center, direction) % 2, 1)
            << name << ": a centre outside the volume";
    }
  }
  EXPECT_EQ(closed, 9);  // every mesh but link6
}

// Random states among thin bars: every proof by a witness or an inner sphere is a collision the
// exact test finds, and the inner spheres prove collisions the witness vertices miss (a bar
// through the middle of a link, between its vertices).
TEST(InnerSpheres, ProveBarsThroughLinksThatNoVertexWitnessesAndNothingElse) {
  KINETIC_REQUIRE_MBM();
  const std::string robot = test::mbm_panda_dir() + "/robot/";
  const RobotModelPtr panda = load_robot_file(robot + "panda.urdf", robot + "panda.srdf");
  CollisionChecker checker(panda);
  checker.set_scene(bar_cage());
  const CollisionWorld& world = *checker.world();
  ASSERT_EQ(world.inner_begin.size(), world.moving_bodies.size() + 1);
  ASSERT_GT(world.inner_begin.back(), 0u);
  CollisionWorld vertices_only = world;
  std::fill(vertices_only.inner_begin.begin(), vertices_only.inner_begin.end(), 0);
  CollisionState state;
  state.reset(world);
  int proven = 0, proven_by_inner_only = 0;
  const int colliding = test::visit_scene_pair_cases(
      world, state, *panda, test::cases(6000, 1500), 11,
      [&](int i, double padding, std::size_t m, int o, bool exact) {
        const auto& frame =
            world.obstacle_frames[static_cast<std::size_t>(o - world.obstacle_begin)];
        if (!witness_within(world, state, m, frame, padding)) return true;
        ++proven;
        proven_by_inner_only += !witness_within(vertices_only, state, m, frame, padding);
        EXPECT_TRUE(exact) << "case " << i << ", slot " << m << ", obstacle " << o << ", padding "
                           << padding << ": proven colliding where the exact test is not";
        return exact;
      });
  ASSERT_GT(colliding, test::cases(300, 75));
  std::cout << proven << " of " << colliding << " collisions proven, " << proven_by_inner_only
            << " by inner spheres alone\n";
  EXPECT_GT(proven_by_inner_only, colliding / 20)
      << proven_by_inner_only << " of " << colliding
      << " collisions proven by inner spheres alone (" << proven << " proven in all)";
}

// An obstacle that fits inside a link's volume may lie there without touching its surface: the
// inner spheres must not call it colliding.
TEST(InnerSpheres, LeaveObstaclesThatFitInsideALinkToTheExactTest) {
  KINETIC_REQUIRE_MBM();
  const std::string robot = test::mbm_panda_dir() + "/robot/";
  const RobotModelPtr panda = load_robot_file(robot + "panda.urdf", robot + "panda.srdf");
  CollisionChecker probe(panda);
  const CollisionWorld& empty = *probe.world();
  CollisionState at_rest;
  at_rest.reset(empty);
  const JointVector q = JointVector::Zero(panda->dof());
  update_poses(empty, at_rest, q);
  // link4's largest inner sphere, in the world at the zero pose.
  std::size_t slot = 0;
  for (std::size_t m = 0; m < empty.moving_bodies.size(); ++m)
    if (empty.bodies[static_cast<std::size_t>(empty.moving_bodies[m])].body->name == "panda_link4")
      slot = m;
  ASSERT_LT(empty.inner_begin[slot], empty.inner_begin[slot + 1]) << "link4 has no inner sphere";
  const std::size_t i = empty.inner_begin[slot];
  const Vector3 centre = at_rest.pose(empty.moving_bodies[slot]) *
                         Vector3(empty.inner_x[i], empty.inner_y[i], empty.inner_z[i]);
  const double radius = empty.inner_r[i];

  // A small cube at the sphere's centre: inside the volume, apart from the surface.
  PlanningScene inside;
  inside.add_obstacle("pebble", Shape::box(Vector3::Constant(radius)),
                      pose_from_xyz_rpy(centre, {0.0, 0.0, 0.0}));
  CollisionChecker checker(panda);
  checker.set_scene(inside);
  const CollisionWorld& world = *checker.world();
  CollisionState state;
  state.reset(world);
  update_poses(world, state, q);
  const int o = world.obstacle_begin;
  const auto& frame = world.obstacle_frames[0];
  const int b = world.moving_bodies[slot];
  EXPECT_FALSE(witness_within(world, state, slot, frame, 0.0));
  EXPECT_FALSE(exact_pair_collision(*world.bodies[static_cast<std::size_t>(b)].body, state.pose(b),
                                    *world.bodies[static_cast<std::size_t>(o)].body, state.pose(o),
                                    0.0))
      << "the exact test finds the surface, not the volume";

  // A long thin bar through the same centre: too long to fit, so it crosses the surface.
  PlanningScene through;
  through.add_obstacle("bar", Shape::box({0.004, 0.004, 1.0}),
                       pose_from_xyz_rpy(centre, {0.3, 0.2, 0.0}));
  checker.set_scene(through);
  const CollisionWorld& barred = *checker.world();
  state.reset(barred);
  update_poses(barred, state, q);
  const int bar = barred.obstacle_begin;
  EXPECT_TRUE(witness_within(barred, state, slot, barred.obstacle_frames[0], 0.0));
  EXPECT_TRUE(exact_pair_collision(*barred.bodies[static_cast<std::size_t>(b)].body, state.pose(b),
                                   *barred.bodies[static_cast<std::size_t>(bar)].body,
                                   state.pose(bar), 0.0));
}

}  // namespace kinetic

// Geometry tens of metres from its link's origin would be rounded in single precision by more
// than the witnesses' slack: such a link goes without witnesses and inner spheres, and its pairs
// are left to the exact tier (which still finds them).
TEST(InnerSpheres, AreLeftOutWhereSinglePrecisionCannotPlaceThem) {
  KINETIC_REQUIRE_MBM();
  const std::string mesh = test::mbm_panda_dir() + "/robot/meshes/collision/link4.obj";
  const auto urdf = [&](double offset) {
    return "<robot name='far'><link name='base'/><link name='arm'><collision><origin xyz='" +
           std::to_string(offset) + " 0 0'/><geometry><mesh filename='" + mesh +
           "'/></geometry></collision></link><joint name='j' type='revolute'><parent "
           "link='base'/><child link='arm'/><axis xyz='0 0 1'/><limit lower='-1' upper='1' "
           "effort='1' velocity='1'/></joint></robot>";
  };
  for (const double offset : {0.3, 80.0}) {
    const RobotModelPtr robot = load_robot_string(urdf(offset));
    PlanningScene scene;
    // A thin bar through the link's middle, far enough to be wider than the link.
    scene.add_obstacle("bar", Shape::box({0.01, 0.01, 2.0}),
                       pose_from_xyz_rpy({offset, 0.0, 0.15}, {0.0, 0.0, 0.0}));
    CollisionChecker checker(robot);
    checker.set_scene(scene);
    const CollisionWorld& world = *checker.world();
    ASSERT_EQ(world.moving_bodies.size(), 1u);
    const bool near = offset < 1.0;
    EXPECT_EQ(world.witness_begin[1] > world.witness_begin[0], near) << offset;
    EXPECT_EQ(world.inner_begin[1] > world.inner_begin[0], near) << offset;
    CollisionState state;
    state.reset(world);
    update_poses(world, state, JointVector::Zero(1));
    const int b = world.moving_bodies[0], o = world.obstacle_begin;
    const bool exact =
        exact_pair_collision(*world.bodies[static_cast<std::size_t>(b)].body, state.pose(b),
                             *world.bodies[static_cast<std::size_t>(o)].body, state.pose(o), 0.0);
    const bool proven = witness_within(world, state, 0, world.obstacle_frames[0], 0.0);
    EXPECT_TRUE(exact) << offset;  // the bar crosses the link wherever it is
    EXPECT_EQ(proven, near) << offset;
  }
}

namespace kinetic {
namespace {

// A closed mesh whose triangles reach each other through shared corners bounds one volume with
// a connected surface: what self_contact_witnessed needs of the body whose witnesses it uses.
TEST(InnerSpheres, OnePieceTellsOneClosedMeshFromTwoApart) {
  const TestCube cube = unit_cube();
  EXPECT_TRUE(mesh_is_one_piece(cube.vertices, cube.triangles));
  // The same cube with a vertex of its own for every corner of every triangle: joined by position.
  std::vector<Vector3> unshared;
  std::vector<std::array<int, 3>> separate;
  for (const auto& t : cube.triangles) {
    const int first = static_cast<int>(unshared.size());
    for (const int v : t) unshared.push_back(cube.vertices[static_cast<std::size_t>(v)]);
    separate.push_back({first, first + 1, first + 2});
  }
  EXPECT_TRUE(mesh_is_one_piece(unshared, separate));
  // Two cubes apart in one mesh: closed, but two pieces.
  TestCube two = cube;
  for (const Vector3& v : cube.vertices) two.vertices.push_back(v + Vector3(2.0, 0.0, 0.0));
  for (const auto& t : cube.triangles) two.triangles.push_back({t[0] + 8, t[1] + 8, t[2] + 8});
  EXPECT_TRUE(mesh_is_closed(two.vertices, two.triangles));
  EXPECT_FALSE(mesh_is_one_piece(two.vertices, two.triangles));
  EXPECT_FALSE(mesh_is_one_piece(cube.vertices, {}));
}

// The Fanuc's links fold into each other (its forearm through the turret and the upper arm):
// random states of the MoveIt config from ../shared/robots. Wherever a self pair's contact is
// witnessed, the exact test finds the two meshes touching; FCL's test (which confirms the pairs
// the witnesses leave) agrees with the leaf triangles on every pair whose hulls meet; and the
// witnesses prove a good share of the collisions (a third of them: 1,478 of 4,528 in 4,000
// states, each one a confirmation the exact tiers no longer make).
TEST(InnerSpheres, WitnessTheFanucsFoldedLinksTouchingOnlyWhereTheyTouch) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  LoadOptions load;
  load.package_paths = {test::shared_robots_dir()};
  const RobotModelPtr fanuc = load_robot_file(
      test::shared_robots_dir() + "/moveit_resources/fanuc_moveit_config", "", "", load);
  CollisionChecker checker(fanuc);
  const CollisionWorld& world = *checker.world();
  int usable_slots = 0;
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
    usable_slots += world.witnesses_on_one_surface[m];
  EXPECT_EQ(usable_slots, 7) << "every Fanuc link is one closed mesh";
  CollisionState state;
  state.reset(world);
  std::mt19937_64 rng(17);
  int touching = 0, witnessed = 0, hulls_meet = 0;
  for (int i = 0; i < test::cases(2000, 400); ++i) {
    update_poses(world, state, test::random_state(*fanuc, rng));
    for (std::size_t k = 0; k < world.self_pairs.size(); ++k) {
      const auto [a, b] = world.self_pairs[k];
      const CollisionBody& body_a = *world.bodies[static_cast<std::size_t>(a)].body;
      const CollisionBody& body_b = *world.bodies[static_cast<std::size_t>(b)].body;
      if (hulls_apart(body_a, state.pose(a), body_b, state.pose(b), 0.0)) continue;
      ++hulls_meet;
      const bool exact = exact_pair_collision(body_a, state.pose(a), body_b, state.pose(b), 0.0);
      ASSERT_EQ(meshes_intersect(body_a, state.pose(a), body_b, state.pose(b)), exact)
          << "state " << i << ", " << body_a.name << " against " << body_b.name;
      const bool proven =
          self_contact_witnessed(world, state, static_cast<std::size_t>(world.slot_of_body[a]),
                                 static_cast<std::size_t>(world.slot_of_body[b]));
      touching += exact;
      witnessed += proven;
      EXPECT_TRUE(!proven || exact) << "state " << i << ": " << body_a.name << " and "
                                    << body_b.name << " witnessed touching where they do not";
    }
  }
  std::cout << witnessed << " of " << touching << " touching self pairs witnessed (" << hulls_meet
            << " with their hulls meeting)\n";
  ASSERT_GT(touching, test::cases(400, 60));
  EXPECT_GT(witnessed, touching / 4);
}

}  // namespace
}  // namespace kinetic
