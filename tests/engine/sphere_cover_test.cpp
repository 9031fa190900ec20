// Sphere covers (engine/geometry/sphere_cover) and the collision checks' first test with them
// (engine/collision/cover_check): every point of a body lies in its cover, the cover stays within
// about its tolerance of the body's hull, and — on 100,000 configurations of MotionBenchMaker's
// Panda (the benchmark's meshes) among its shelves, cage bars and tables — a pair the covers call
// apart is never in collision by the exact test.
#include <gtest/gtest.h>

#include <random>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/collision/cover_check.hpp"
#include "engine/geometry/collision_mesh.hpp"
#include "engine/geometry/sphere_cover.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/benchmark_problems.hpp"
#include "engine/scene/scene_file.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

bool inside_some_sphere(const SphereCover& cover, const Vector3& p) {
  for (std::size_t i = 0; i < cover.size(); ++i)
    if ((p - cover.centers[i]).norm() <= cover.radii[i] + 1e-12) return true;
  return false;
}

// Random points on the triangles of a mesh (and its corners) must each lie in some sphere.
void expect_covers_surface(const SphereCover& cover, const CollisionMesh& mesh, const Pose& pose) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  int outside = 0;
  for (const auto& t : mesh.triangles) {
    const Vector3 a = pose * mesh.vertices[static_cast<std::size_t>(t[0])];
    const Vector3 b = pose * mesh.vertices[static_cast<std::size_t>(t[1])];
    const Vector3 c = pose * mesh.vertices[static_cast<std::size_t>(t[2])];
    for (int k = 0; k < 4; ++k) {
      double u = unit(rng), v = unit(rng);
      if (u + v > 1.0) u = 1.0 - u, v = 1.0 - v;
      outside += inside_some_sphere(cover, a + u * (b - a) + v * (c - a)) ? 0 : 1;
    }
    outside += inside_some_sphere(cover, a) ? 0 : 1;
  }
  EXPECT_EQ(outside, 0);
}

}  // namespace

TEST(SphereCover, ABoxAndACylinderAreHeldWholeAndTightly) {
  const SphereCover box =
      cover_with_spheres({{Shape::box(Vector3(0.3, 0.1, 0.05)), Pose::Identity(), nullptr}});
  ASSERT_FALSE(box.empty());
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> unit(-0.5, 0.5);
  for (int i = 0; i < 2000; ++i) {  // points of the box's surface and inside it
    Vector3 p(unit(rng) * 0.3, unit(rng) * 0.1, unit(rng) * 0.05);
    p[i % 3] = (i % 2 ? 0.5 : -0.5) * Vector3(0.3, 0.1, 0.05)[i % 3];
    EXPECT_TRUE(inside_some_sphere(box, p)) << p.transpose();
  }
  // No sphere reaches more than about the tolerance (1 cm) beyond the box, or the minimum radius.
  for (std::size_t i = 0; i < box.size(); ++i) {
    const Vector3 c = box.centers[i];
    const Vector3 outside_by =
        (c.cwiseAbs() + Vector3::Constant(box.radii[i]) - Vector3(0.15, 0.05, 0.025));
    EXPECT_LE(outside_by.maxCoeff(), 0.025) << i;
  }
  SphereCoverOptions loose;
  loose.tolerance = 0.03;
  const SphereCover cylinder =
      cover_with_spheres({{Shape::cylinder(0.05, 0.4), Pose::Identity(), nullptr}}, loose);
  ASSERT_FALSE(cylinder.empty());
  EXPECT_LT(cylinder.size(), 40u);  // a tube is held by slices along its axis
  for (std::size_t i = 0; i < cylinder.size();
       ++i)  // each within the tolerance of the prism round it
    EXPECT_LE(std::hypot(cylinder.centers[i].x(), cylinder.centers[i].y()) + cylinder.radii[i],
              0.05 / std::cos(M_PI / 16) + 0.031);
  for (int i = 0; i < 720; ++i) {
    const double a = i * 0.5 * M_PI / 180.0;
    EXPECT_TRUE(inside_some_sphere(
        cylinder, Vector3(0.05 * std::cos(a), 0.05 * std::sin(a), -0.2 + 0.4 * i / 719.0)));
  }
}

// A cover is the same for the same mesh at the same pose (the bodies that hold covers are cached by
// their geometry); at another pose it moves with the mesh, and a looser tolerance takes fewer
// spheres, each still holding the surface.
TEST(SphereCover, TheSameGeometryGetsTheSameCoverAndAMovedOneAMovedCover) {
  KINETIC_REQUIRE_MBM();
  const auto mesh =
      load_collision_mesh(test::mbm_panda_dir() + "/robot/meshes/collision/link4.obj");
  const Pose at = Pose(Eigen::Translation3d(0.1, 0.2, 0.3));
  const SphereCover first = cover_with_spheres({{Shape::mesh("link4.obj"), at, mesh}});
  const SphereCover again = cover_with_spheres({{Shape::mesh("link4.obj"), at, mesh}});
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.centers, again.centers);
  EXPECT_EQ(first.radii, again.radii);
  const Pose moved = Pose(Eigen::Translation3d(1.1, 0.2, 0.3));
  const SphereCover elsewhere = cover_with_spheres({{Shape::mesh("link4.obj"), moved, mesh}});
  ASSERT_EQ(elsewhere.size(), first.size());
  EXPECT_NEAR((elsewhere.centers[0] - first.centers[0]).x(), 1.0, 1e-9);
  expect_covers_surface(elsewhere, *mesh, moved);
  SphereCoverOptions loose;
  loose.tolerance = 0.03;
  const SphereCover coarser = cover_with_spheres({{Shape::mesh("link4.obj"), at, mesh}}, loose);
  EXPECT_LT(coarser.size(), first.size());
  expect_covers_surface(coarser, *mesh, at);
}

TEST(SphereCover, AHalfSpaceHasNone) {
  EXPECT_TRUE(
      cover_with_spheres({{Shape::half_space(Vector3::UnitZ(), 0.0), Pose::Identity(), nullptr}})
          .empty());
}

TEST(SphereCover, EveryMbmPandaLinkIsCoveredWithAFewDozenSpheres) {
  KINETIC_REQUIRE_MBM();
  const RobotModelPtr robot = load_robot_file(test::mbm_panda_dir() + "/robot/panda.urdf");
  CollisionChecker checker(robot);
  int covered = 0;
  for (int b = 0; b < checker.robot_body_count(); ++b) {
    const CollisionBody& body = checker.body(b);
    if (body.empty()) continue;
    SCOPED_TRACE(body.name);
    ASSERT_FALSE(body.cover.empty());
    ++covered;
    EXPECT_LE(body.cover.size(), 40u);
    for (const FclPart& part : body.parts)
      if (part.mesh) expect_covers_surface(body.cover, *part.mesh, part.pose);
  }
  EXPECT_GE(covered, 8);
}

// The acceptance test of the covers: never "apart" where the meshes collide (padding 0 and 1 cm),
// for the scene's obstacles and the self pairs, on 100,000 random configurations (10,000 under the
// sanitizers, which run it about ten times slower).
TEST(SphereCover, NeverApartWhereTheMeshesCollideOnAHundredThousandConfigurations) {
  KINETIC_REQUIRE_MBM();
  constexpr int kConfigurations = test::cases(100000, 10000);
  const RobotModelPtr robot = load_robot_file(test::mbm_panda_dir() + "/robot/panda.urdf");
  const auto problems = find_benchmark_problems(test::mbm_panda_dir() + "/problems", "panda", 1);
  ASSERT_GE(problems.size(), 5u);
  CollisionChecker checker(robot);
  const JointVector lower = robot->lower_limits(), upper = robot->upper_limits();
  std::mt19937 rng(11);
  long checked = 0, proven = 0;
  const int per_scene = kConfigurations / static_cast<int>(problems.size()) + 1;
  for (const BenchmarkProblem& problem : problems) {
    SCOPED_TRACE(problem.scene);
    checker.set_scene(load_scene(problem.scene_file));
    const CollisionWorld& world = *checker.world();
    CollisionState state;
    state.reset(world);
    for (int n = 0; n < per_scene; ++n) {
      JointVector q(robot->dof());
      for (int v = 0; v < robot->dof(); ++v)
        q[v] = std::uniform_real_distribution<double>(lower[v], upper[v])(rng);
      update_poses(world, state, q);
      const double padding = n % 2 ? 0.01 : 0.0;
      // Only pairs whose root spheres come within the padding can collide at all: the others
      // need no exact test to be known apart.
      const auto roots_near = [&](int a, int b) {
        return (state.bound_centers[a] - state.bound_centers[b]).norm() <=
               world.root_radii[a] + world.root_radii[b] + padding;
      };
      for (std::size_t m = 0; m < world.moving_bodies.size(); ++m) {
        const int a = world.moving_bodies[m];
        for (int o = world.obstacle_begin; o < world.body_count(); ++o) {
          const auto& frame = world.obstacle_frames[o - world.obstacle_begin];
          if (!frame.shape || !roots_near(a, o)) continue;
          ++checked;
          if (!cover_clear_of_obstacle(world, state, m, frame, padding)) continue;
          ++proven;
          ASSERT_FALSE(exact_pair_collision(world.body(a), state.pose(a), world.body(o),
                                            state.pose(o), padding))
              << world.body_name(a) << " and " << world.body_name(o) << " at " << q.transpose();
        }
      }
      for (const auto& [a, b] : world.self_pairs) {
        if (!roots_near(a, b)) continue;
        ++checked;
        const auto ma = static_cast<std::size_t>(world.slot_of_body[a]),
                   mb = static_cast<std::size_t>(world.slot_of_body[b]);
        if (!covers_apart(world, state, ma, mb, padding)) continue;
        ++proven;
        ASSERT_FALSE(exact_pair_collision(world.body(a), state.pose(a), world.body(b),
                                          state.pose(b), padding))
            << world.body_name(a) << " and " << world.body_name(b) << " at " << q.transpose();
      }
    }
  }
  EXPECT_GT(checked, kConfigurations);  // the pairs near enough to matter were many
  EXPECT_GT(proven, checked / 4);       // and the covers decided a good share of them
  std::printf("covers proved %ld of %ld near pairs apart\n", proven, checked);
}

// CheckOptions::covers_decide, the search's first check: a body whose cover comes near an obstacle
// is called in collision without the exact tiers. It must never call free what the exact check
// calls in collision, and near obstacles it must be stricter (else it saves nothing).
TEST(SphereCover, CoversDecidingIsNeverLaxerThanTheExactCheckAndStricterNearObstacles) {
  KINETIC_REQUIRE_MBM();
  constexpr int kConfigurations = test::cases(20000, 3000);
  const RobotModelPtr robot = load_robot_file(test::mbm_panda_dir() + "/robot/panda.urdf");
  const auto problems = find_benchmark_problems(test::mbm_panda_dir() + "/problems", "panda", 1);
  ASSERT_GE(problems.size(), 5u);
  CollisionChecker checker(robot);
  const JointVector lower = robot->lower_limits(), upper = robot->upper_limits();
  std::mt19937 rng(17);
  long both = 0, only_covers = 0, free_by_both = 0;
  const int per_scene = kConfigurations / static_cast<int>(problems.size()) + 1;
  for (const BenchmarkProblem& problem : problems) {
    SCOPED_TRACE(problem.scene);
    checker.set_scene(load_scene(problem.scene_file));
    for (int n = 0; n < per_scene; ++n) {
      JointVector q(robot->dof());
      for (int v = 0; v < robot->dof(); ++v)
        q[v] = std::uniform_real_distribution<double>(lower[v], upper[v])(rng);
      CheckOptions exact{.padding = n % 2 ? 0.02 : 0.0};
      CheckOptions covers = exact;
      covers.covers_decide = true;
      const bool exact_hit = checker.in_collision(q, exact);
      const bool covers_hit = checker.in_collision(q, covers);
      ASSERT_TRUE(covers_hit || !exact_hit)
          << "covers called free a colliding state " << q.transpose();
      both += exact_hit && covers_hit;
      only_covers += covers_hit && !exact_hit;
      free_by_both += !covers_hit;
    }
  }
  EXPECT_GT(both, 0);
  EXPECT_GT(only_covers, 0);   // stricter near obstacles
  EXPECT_GT(free_by_both, 0);  // but not everywhere
  std::printf("in collision by both %ld, by the covers only %ld, free by both %ld\n", both,
              only_covers, free_by_both);
}
