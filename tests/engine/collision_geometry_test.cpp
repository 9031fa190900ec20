// Sphere models cover their geometry; analytic distances; exact-tier agreement; mesh errors.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/collision/body_pair.hpp"
#include "engine/core/error.hpp"
#include "engine/geometry/shape.hpp"
#include "support/test_paths.hpp"
#include "support/time_budget.hpp"

using namespace kinetic;

namespace {

Pose at(double x, double y, double z) {
  Pose p = Pose::Identity();
  p.translation() = Vector3(x, y, z);
  return p;
}

bool covered(const SphereTree& tree, const Vector3& p) {
  for (const auto& s : tree.leaves())
    if ((p - s.center).norm() <= s.radius + 1e-12) return true;
  return false;
}

std::shared_ptr<const CollisionBody> body(const Shape& shape, const Pose& pose = Pose::Identity(),
                                          SphereResolution r = SphereResolution::Default) {
  return make_collision_body("b", {{shape, pose}}, r);
}

}  // namespace

TEST(SphereModel, PrimitiveVolumesAreCoveredAtEveryResolution) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Pose pose = pose_from_xyz_rpy({0.1, -0.2, 0.3}, {0.3, 0.5, -0.7});
  for (auto res : {SphereResolution::Coarse, SphereResolution::Default, SphereResolution::Fine}) {
    const auto box = body(Shape::box({0.3, 0.1, 0.17}), pose, res);
    const auto cyl = body(Shape::cylinder(0.07, 0.25), pose, res);
    for (int i = 0; i < 3000; ++i) {
      const Vector3 pb(0.15 * u(rng), 0.05 * u(rng), 0.085 * u(rng));
      EXPECT_TRUE(covered(box->tree, pose * pb)) << to_string(res);
      Vector3 pc(0.07 * u(rng), 0.07 * u(rng), 0.125 * u(rng));
      if (pc.head<2>().norm() <= 0.07) {
        EXPECT_TRUE(covered(cyl->tree, pose * pc)) << to_string(res);
      }
    }
    // Finer models hug the geometry more tightly.
    for (const auto& s : box->tree.leaves()) EXPECT_LE(s.radius, leaf_radius(res) + 1e-9);
  }
}

TEST(SphereModel, MeshTrianglesAreCovered) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string path = kinetic::test::example_robot_data_dir() +
                           "/robots/panda_description/meshes/collision/link4.stl";
  const auto mesh = load_collision_mesh(path);
  const auto b = body(Shape::mesh(path), Pose::Identity(), SphereResolution::Coarse);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (const auto& t : mesh->triangles) {
    double s = u(rng), r = u(rng);
    if (s + r > 1) s = 1 - s, r = 1 - r;
    const Vector3 p = mesh->vertices[t[0]] + s * (mesh->vertices[t[1]] - mesh->vertices[t[0]]) +
                      r * (mesh->vertices[t[2]] - mesh->vertices[t[0]]);
    ASSERT_TRUE(covered(b->tree, p));
    ASSERT_TRUE(covered(b->tree, mesh->vertices[t[1]]));
  }
  // Same file and scale: one shared mesh and BVH.
  EXPECT_EQ(load_collision_mesh(path).get(), mesh.get());
  EXPECT_EQ(load_collision_mesh(path)->bvh().get(), mesh->bvh().get());
  EXPECT_NE(load_collision_mesh(path, Vector3::Constant(2.0))->bvh().get(), mesh->bvh().get());
}

TEST(CollisionMeshBvh, FclsBvhIsBuiltOnlyOnceAQueryNeedsIt) {
  // Loading a mesh and checking it for collision and distance use the sphere tree and the
  // triangles of its leaves; FCL's BVH (seconds and hundreds of MB for a 1M-triangle scan) is
  // built by the first penetration-depth query and then shared.
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string path = kinetic::test::example_robot_data_dir() +
                           "/robots/panda_description/meshes/collision/link4.stl";
  const Vector3 scale = Vector3::Constant(1.37);  // a cache entry no other test makes
  const auto link = body(Shape::mesh(path, scale));
  const std::shared_ptr<const CollisionMesh> mesh = link->parts.front().mesh;
  ASSERT_NE(mesh, nullptr);
  EXPECT_EQ(link->parts.front().geometry, nullptr);
  EXPECT_FALSE(mesh->bvh_built());

  const auto probe = body(Shape::box({0.05, 0.05, 0.05}));
  // Centred on a vertex, the box cuts the mesh's surface.
  const Vector3& vertex = mesh->vertices[static_cast<std::size_t>(mesh->triangles.front()[0])];
  const Pose far = at(2.0, 0.0, 0.0), near = at(vertex.x(), vertex.y(), vertex.z());
  EXPECT_FALSE(pair_in_collision(*link, Pose::Identity(), *probe, far, 0.0, 0.0));
  EXPECT_TRUE(pair_in_collision(*link, Pose::Identity(), *probe, near, 0.0, 0.0));
  EXPECT_GT(exact_pair_distance(*link, Pose::Identity(), *probe, far, 10.0).distance, 1.0);
  EXPECT_FALSE(mesh->bvh_built());

  const std::optional<double> depth =
      exact_pair_penetration(*link, Pose::Identity(), *probe, near, 0.0);
  ASSERT_TRUE(depth.has_value());
  EXPECT_GE(*depth, 0.0);
  EXPECT_TRUE(mesh->bvh_built());
  EXPECT_EQ(link->parts.front().fcl_geometry().get(), mesh->bvh().get());
}

TEST(SphereModel, HugeShapesAreCutIntoFewerLargerPiecesAndStayCovered) {
  // A 20 m floor slab in leaf-sized cells was 3e7 of them (out of memory); a mesh drawn in
  // millimetres and read as metres took minutes to cut. Both now stay near 100,000 pieces.
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto slab = body(Shape::box({20.0, 20.0, 2.0}), at(0.0, 0.0, -1.1));
  EXPECT_LE(slab->tree.leaves().size(), 100000u);
  for (int i = 0; i < test::cases(300, 60); ++i) {  // (each point is tested against every leaf)
    const Vector3 p(10.0 * u(rng), 10.0 * u(rng), -1.1 + 1.0 * u(rng));
    ASSERT_TRUE(covered(slab->tree, p)) << p.transpose();
  }
  // An ordinary box keeps leaf-sized pieces.
  for (const auto& s : body(Shape::box({0.3, 0.1, 0.17}))->tree.leaves())
    EXPECT_LE(s.radius, leaf_radius(SphereResolution::Default) + 1e-9);

  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string path = kinetic::test::example_robot_data_dir() +
                           "/robots/panda_description/meshes/collision/link4.stl";
  const Vector3 thousand =
      Vector3::Constant(1000.0);  // metres read as millimetres, the other way round
  const auto mesh = load_collision_mesh(path, thousand);
  const auto huge = body(Shape::mesh(path, thousand));
  EXPECT_LE(huge->tree.leaves().size(), 150000u);  // the count of pieces is estimated
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const std::size_t points = static_cast<std::size_t>(test::cases(300, 60));
  for (std::size_t k = 0; k < points; ++k) {
    const auto& t = mesh->triangles[k * mesh->triangles.size() / points];
    double a = unit(rng), b = unit(rng);
    if (a + b > 1) a = 1 - a, b = 1 - b;
    const Vector3 p = mesh->vertices[t[0]] + a * (mesh->vertices[t[1]] - mesh->vertices[t[0]]) +
                      b * (mesh->vertices[t[2]] - mesh->vertices[t[0]]);
    ASSERT_TRUE(covered(huge->tree, p));
  }
}

TEST(CollisionMesh, MissingOrUnreadableFileNamesTheFile) {
  try {
    load_collision_mesh("/nonexistent/part.stl");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MissingMesh);
    EXPECT_NE(e.message().find("/nonexistent/part.stl"), std::string::npos);
  }
  const std::string bad = ::testing::TempDir() + "/garbage.stl";
  FILE* f = std::fopen(bad.c_str(), "w");
  std::fputs("this is not a mesh", f);
  std::fclose(f);
  try {
    load_collision_mesh(bad);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MissingMesh);
    EXPECT_NE(e.message().find("garbage.stl"), std::string::npos);
  }
}

// The cache shares a mesh between loads, and keeps it after its last user is gone; a file changed
// on disk since (the user re-exported it and pressed Reload) is read again.
TEST(CollisionMesh, AFileChangedOnDiskIsReadAgain) {
  const std::string path = ::testing::TempDir() + "/edited_part.stl";
  const auto write_triangles = [&](int count) {
    std::string text = "solid part\n";
    for (int i = 0; i < count; ++i)
      text += "facet normal 0 0 1\nouter loop\nvertex " + std::to_string(i) + " 0 0\nvertex " +
              std::to_string(i + 1) + " 0 0\nvertex " + std::to_string(i) +
              " 1 0\nendloop\nendfacet\n";
    text += "endsolid part\n";
    FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    std::fputs(text.c_str(), f);
    std::fclose(f);
  };
  write_triangles(1);
  auto first = load_collision_mesh(path);
  EXPECT_EQ(first->triangles.size(), 1u);
  EXPECT_EQ(load_collision_mesh(path), first);
  const CollisionMesh* address = first.get();
  first.reset();
  EXPECT_EQ(load_collision_mesh(path).get(), address);  // still cached without a user
  write_triangles(3);
  EXPECT_EQ(load_collision_mesh(path)->triangles.size(), 3u);
}

TEST(CollisionMesh, ANonFiniteVertexIsRefusedNamingTheFile) {
  // A binary STL with two triangles, one corner NaN: FCL aborted the process near it.
  const std::string path = ::testing::TempDir() + "/nan_corner.stl";
  std::string bytes(80, ' ');
  const auto put_u32 = [&](std::uint32_t v) { bytes.append(reinterpret_cast<const char*>(&v), 4); };
  const auto put_f32 = [&](float v) { bytes.append(reinterpret_cast<const char*>(&v), 4); };
  put_u32(2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float corners[2][9] = {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {1, 0, 0, 1, 1, 0, nan, 1, 0}};
  for (const auto& triangle : corners) {
    for (int k = 0; k < 3; ++k) put_f32(0.0f);  // normal
    for (float c : triangle) put_f32(c);
    bytes.append(2, '\0');
  }
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(bytes.data(), 1, bytes.size(), f);
  std::fclose(f);
  try {
    load_collision_mesh(path);
    FAIL() << "a NaN vertex was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MissingMesh);
    EXPECT_NE(e.message().find("not a finite number"), std::string::npos) << e.message();
    EXPECT_NE(e.message().find("nan_corner.stl"), std::string::npos) << e.message();
  }
}

namespace {

// A binary PLY of three vertices and one face of the given vertex indices.
std::string binary_ply_triangle(const std::string& name, const std::vector<std::int32_t>& face) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::string bytes =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
  const float corners[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  bytes.append(reinterpret_cast<const char*>(corners), sizeof corners);
  bytes.push_back(static_cast<char>(face.size()));
  bytes.append(reinterpret_cast<const char*>(face.data()), face.size() * sizeof(std::int32_t));
  FILE* f = std::fopen(path.c_str(), "wb");
  if (f != nullptr) {
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
  }
  return path;
}

}  // namespace

// Faces naming vertices past the vertex list, or no vertex at all (binary PLYs found by fuzzing,
// tests/fuzz): Assimp's importer passes them on, and its post-processing read far out of bounds
// or failed an assertion (an abort). Both are refused naming the file and the face.
TEST(CollisionMesh, AFaceOfAMissingVertexOrOfNoneIsRefusedNamingTheFile) {
  const std::pair<std::vector<std::int32_t>, std::string> cases[] = {
      {{0, 1, 1000000000}, "face 0 names vertex 1000000000 of 3"}, {{}, "face 0 has no vertices"}};
  for (const auto& [face, problem] : cases) {
    const std::string path =
        binary_ply_triangle("broken_face_" + std::to_string(face.size()) + ".ply", face);
    try {
      load_collision_mesh(path);
      ADD_FAILURE() << "accepted: " << problem;
    } catch (const Error& e) {
      EXPECT_EQ(e.code(), ErrorCode::MissingMesh);
      EXPECT_NE(e.message().find(problem), std::string::npos) << e.message();
      EXPECT_NE(e.message().find("broken_face_"), std::string::npos) << e.message();
    }
  }
  // The same file with a whole face loads.
  EXPECT_EQ(load_collision_mesh(binary_ply_triangle("whole_face.ply", {0, 1, 2}))->triangles.size(),
            1u);
}

TEST(CollisionMesh, UnresolvedPackageHintNamesTheUserSettings) {
  Geometry geometry;
  geometry.type = Geometry::Type::Mesh;
  geometry.mesh_uri = "package://gripper_description/meshes/finger.stl";
  try {
    (void)shape_from_geometry(geometry);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::MissingMesh);
    // User terms (command line, job file, studio), not the C++ LoadOptions API.
    EXPECT_NE(e.hint().find("package 'gripper_description'"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("--package-path DIR"), std::string::npos) << e.hint();
    EXPECT_NE(e.hint().find("robot.package_paths"), std::string::npos) << e.hint();
    EXPECT_EQ(e.hint().find("LoadOptions"), std::string::npos) << e.hint();
  }
}

TEST(Distance, SphereSphereMatchesAnalytic) {
  const auto a = body(Shape::sphere(0.1)), b = body(Shape::sphere(0.2));
  for (double x : {0.35, 0.5, 1.0}) {
    const auto d = exact_pair_distance(*a, Pose::Identity(), *b, at(x, 0, 0));
    EXPECT_NEAR(d.distance, x - 0.3, 1e-6);
    EXPECT_NEAR(d.point_a.x(), 0.1, 1e-5);
    EXPECT_NEAR(d.point_b.x(), x - 0.2, 1e-5);
    const auto bounds = pair_distance_bounds(*a, Pose::Identity(), *b, at(x, 0, 0), 1e9);
    EXPECT_LE(bounds.lower, x - 0.3 + 1e-9);
    EXPECT_GE(bounds.upper, x - 0.3 - 1e-9);
    EXPECT_FALSE(pair_in_collision(*a, Pose::Identity(), *b, at(x, 0, 0), 0.0, 0.0));
    EXPECT_EQ(pair_in_collision(*a, Pose::Identity(), *b, at(x, 0, 0), x - 0.3 + 0.01, 0.0), true);
  }
  EXPECT_TRUE(pair_in_collision(*a, Pose::Identity(), *b, at(0.25, 0, 0), 0.0, 0.0));
}

TEST(Distance, BoxSphereMatchesAnalytic) {
  const auto box = body(Shape::box({0.4, 0.2, 0.2}));  // half extents 0.2, 0.1, 0.1
  const auto ball = body(Shape::sphere(0.05));
  // Face: along x. Edge: diagonal in x-y. Corner: all three.
  struct Case {
    Vector3 c;
    double expected;
  };
  const Case cases[] = {{{0.5, 0, 0}, 0.25},
                        {{0.3, 0.2, 0}, std::hypot(0.1, 0.1) - 0.05},
                        {{0.3, 0.2, 0.3}, std::sqrt(0.01 + 0.01 + 0.04) - 0.05}};
  for (const auto& c : cases) {
    const auto d =
        exact_pair_distance(*box, Pose::Identity(), *ball, at(c.c.x(), c.c.y(), c.c.z()));
    EXPECT_NEAR(d.distance, c.expected, 1e-5);
    EXPECT_NEAR((d.point_a - d.point_b).norm(), c.expected, 1e-5);
  }
  // Rotating the box 90° about z swaps its x and y extents.
  Pose turned = Pose::Identity();
  turned.linear() = rotation_from_rpy(0, 0, M_PI / 2);
  EXPECT_NEAR(exact_pair_distance(*box, turned, *ball, at(0.5, 0, 0)).distance, 0.35, 1e-5);
}

TEST(Distance, HalfSpaceIsExact) {
  const auto floor = body(Shape::half_space(Vector3::UnitZ(), 0.0));
  const auto cyl = body(Shape::cylinder(0.05, 0.2));
  Pose tilted = pose_from_xyz_rpy({0, 0, 0.3}, {M_PI / 2, 0, 0});  // axis horizontal
  const auto d = exact_pair_distance(*cyl, tilted, *floor, Pose::Identity());
  EXPECT_NEAR(d.distance, 0.25, 1e-9);
  EXPECT_FALSE(pair_in_collision(*cyl, tilted, *floor, Pose::Identity(), 0.0, 0.0));
  EXPECT_TRUE(pair_in_collision(*cyl, at(0, 0, 0.09), *floor, Pose::Identity(), 0.0, 0.0));
  EXPECT_TRUE(pair_in_collision(*cyl, tilted, *floor, Pose::Identity(), 0.26, 0.0));
}

TEST(TwoTier, AgreesWithExactOnRandomPrimitivePairs) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.4, 0.4), ang(-M_PI, M_PI);
  const auto a = body(Shape::box({0.3, 0.05, 0.1}), Pose::Identity(), SphereResolution::Coarse);
  const auto b = body(Shape::cylinder(0.04, 0.3), Pose::Identity(), SphereResolution::Coarse);
  int collisions = 0;
  for (int i = 0; i < 4000; ++i) {
    const Pose pb = pose_from_xyz_rpy({u(rng), u(rng), u(rng)}, {ang(rng), ang(rng), ang(rng)});
    const bool exact = exact_pair_collision(*a, Pose::Identity(), *b, pb, 0.0);
    const bool fast = pair_in_collision(*a, Pose::Identity(), *b, pb, 0.0, 0.0);
    EXPECT_EQ(exact, fast) << i;
    collisions += exact;
  }
  EXPECT_GT(collisions, 100);
}
