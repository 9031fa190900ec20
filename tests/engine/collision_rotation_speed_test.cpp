// rotation_speed: a bound on how far a solid moves, as a set, per radian of turn about a line.
// Turning a shape by an angle must never change its distance to any point by more than the bound
// times the angle, and a solid of revolution turning about its own axis must not move at all.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "engine/collision/collision_body.hpp"
#include "engine/collision/rotation_speed.hpp"
#include "engine/geometry/collision_mesh.hpp"
#include "engine/geometry/primitive_distance.hpp"
#include "support/test_paths.hpp"

using namespace kinetic;

namespace {

Vector3 random_unit(std::mt19937_64& rng) {
  std::normal_distribution<double> n(0.0, 1.0);
  return Vector3(n(rng), n(rng), n(rng)).normalized();
}

Pose random_spread_pose(std::mt19937_64& rng, double spread) {
  std::uniform_real_distribution<double> u(-spread, spread);
  Pose pose = Pose::Identity();
  pose.linear() =
      Eigen::AngleAxisd(std::uniform_real_distribution<double>(0, M_PI)(rng), random_unit(rng))
          .toRotationMatrix();
  pose.translation() = Vector3(u(rng), u(rng), u(rng));
  return pose;
}

// Turn by `angle` about the line through `origin` along `direction`.
Pose turn(const Vector3& origin, const Vector3& direction, double angle) {
  Pose r = Pose::Identity();
  r.linear() = Eigen::AngleAxisd(angle, direction).toRotationMatrix();
  r.translation() = origin - r.linear() * origin;
  return r;
}

double distance_to(const Shape& shape, const Pose& pose, const Vector3& p) {
  return solid_point_distance(shape, pose.inverse() * p);
}

}  // namespace

TEST(RotationSpeed, TurningNeverChangesADistanceByMoreThanTheBound) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> size(0.02, 0.4), angle(-0.3, 0.3);
  const Shape shapes[] = {Shape::box({0.3, 0.1, 0.05}), Shape::cylinder(0.06, 0.3),
                          Shape::sphere(0.08)};
  int checked = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const Shape& shape = shapes[trial % 3];
    const Pose pose = random_spread_pose(rng, 0.5);
    Vector3 origin = random_spread_pose(rng, 0.5).translation(), direction = random_unit(rng);
    if (trial % 4 ==
        1) {  // about the shape's own z axis (a cylinder's axis of symmetry), or near it
      direction = pose.linear().col(2);
      origin = pose.translation() +
               (trial % 8 == 1 ? Vector3::Zero() : Vector3(0.01 * random_unit(rng)));
    }
    const double bound = rotation_speed(shape, pose, origin, direction);
    ASSERT_TRUE(std::isfinite(bound) && bound >= 0.0);
    const double theta = angle(rng);
    const Pose turned = turn(origin, direction, theta) * pose;
    for (int k = 0; k < 20; ++k) {
      const Vector3 p = pose.translation() + size(rng) * 3.0 * random_unit(rng);
      const double change = std::abs(distance_to(shape, turned, p) - distance_to(shape, pose, p));
      EXPECT_LE(change, std::abs(theta) * bound + 1e-12)
          << "shape " << to_string(shape.type) << ", trial " << trial << ", bound " << bound;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 60000);
}

TEST(RotationSpeed, SolidsOfRevolutionAboutTheirOwnAxisDoNotMove) {
  Pose pose = Pose::Identity();
  pose.linear() = Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  pose.translation() = Vector3(0.2, -0.1, 0.4);
  const Vector3 axis = pose.linear().col(2);
  EXPECT_NEAR(
      rotation_speed(Shape::cylinder(0.06, 0.12), pose, pose.translation() + 0.3 * axis, axis), 0.0,
      1e-12);
  EXPECT_NEAR(rotation_speed(Shape::cylinder(0.06, 0.12), pose, pose.translation(), -axis), 0.0,
              1e-12);
  EXPECT_NEAR(rotation_speed(Shape::sphere(0.1), pose, pose.translation(), Vector3::UnitX()), 0.0,
              1e-12);
  // Off the axis by 5 cm, parallel to it: the centre's own motion.
  const Vector3 side = pose.linear().col(0);
  EXPECT_NEAR(
      rotation_speed(Shape::cylinder(0.06, 0.12), pose, pose.translation() + 0.05 * side, axis),
      0.05, 1e-12);
  // A half-space turning about a line along its normal (a floor under a vertical joint axis).
  EXPECT_EQ(rotation_speed(Shape::half_space(Vector3::UnitZ(), -0.001), Pose::Identity(),
                           Vector3(0.3, 0.2, 1), Vector3::UnitZ()),
            0.0);
  EXPECT_EQ(rotation_speed(Shape::half_space(Vector3::UnitZ(), -0.001), Pose::Identity(),
                           Vector3::Zero(), -Vector3::UnitZ()),
            0.0);
  EXPECT_TRUE(std::isinf(rotation_speed(Shape::half_space(Vector3::UnitZ(), 0.0), Pose::Identity(),
                                        Vector3::Zero(), Vector3(0.01, 0, 1).normalized())));
  // A box turning about its own axis still sweeps its corners.
  EXPECT_NEAR(rotation_speed(Shape::box({0.2, 0.2, 0.1}), Pose::Identity(), Vector3::Zero(),
                             Vector3::UnitZ()),
              std::sqrt(0.02), 1e-12);
}

TEST(RotationSpeed, BodiesTakeTheirFarthestPartAndMeshVertex) {
  const CollisionBody body =
      *make_collision_body("two",
                           {{Shape::sphere(0.05), Pose(Eigen::Translation3d(0.3, 0, 0))},
                            {Shape::cylinder(0.04, 0.2), Pose::Identity()}},
                           SphereResolution::Coarse);
  // About z through the origin: the cylinder turns about its own axis, the sphere's centre is 0.3
  // away.
  EXPECT_NEAR(rotation_speed(body, -1, Pose::Identity(), Vector3::Zero(), Vector3::UnitZ()), 0.3,
              1e-12);
  EXPECT_NEAR(rotation_speed(body, 1, Pose::Identity(), Vector3::Zero(), Vector3::UnitZ()), 0.0,
              1e-12);
  EXPECT_NEAR(rotation_speed(body, 0, Pose(Eigen::Translation3d(-0.3, 0, 0)), Vector3::Zero(),
                             Vector3::UnitZ()),
              0.0, 1e-12);

  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string mesh = kinetic::test::example_robot_data_dir() +
                           "/robots/panda_description/meshes/collision/link4.stl";
  const auto link = make_collision_body("link4", {{Shape::mesh(mesh), Pose::Identity()}},
                                        SphereResolution::Coarse);
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const Vector3 origin = random_spread_pose(rng, 0.2).translation(), direction = random_unit(rng);
    const double bound = rotation_speed(*link, -1, Pose::Identity(), origin, direction);
    const Pose turned = turn(origin, direction, 0.2);
    double farthest = 0.0;
    for (const Vector3& v : link->parts.front().mesh->vertices)
      farthest = std::max(farthest, (turned * v - v).norm());
    EXPECT_LE(farthest, 0.2 * bound + 1e-12);
    EXPECT_GE(farthest,
              0.2 * bound * 0.99);  // the farthest vertex does move that far (chord of 0.2 rad)
  }
}
