// Load-time mesh processing that makes big CAD meshes fast on lavapipe: welding triangle soups into
// shared vertices (with a crease angle), simplifying display meshes within an error bound, and
// finding the closed shells whose back faces may be culled.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "viewer/closed_shells.hpp"
#include "viewer/mesh_simplify.hpp"
#include "viewer/mesh_welding.hpp"

namespace kinetic::viewer {
namespace {

MeshVertex corner(const Vec3& p, const Vec3& n, uint8_t red = 255) {
  return {{p.x(), p.y(), p.z()}, {n.x(), n.y(), n.z()}, {red, 255, 255, 255}};
}

// A mesh as CAD exports give it: three corners per triangle, each with the face normal.
std::vector<MeshVertex> soup_of(const MeshData& mesh) {
  std::vector<MeshVertex> out;
  for (size_t i = 0; i < mesh.indices.size(); i += 3) {
    Vec3 p[3];
    for (int k = 0; k < 3; ++k) {
      const float* q = mesh.vertices[mesh.indices[i + static_cast<size_t>(k)]].position;
      p[k] = Vec3(q[0], q[1], q[2]);
    }
    const Vec3 n = (p[1] - p[0]).cross(p[2] - p[0]).normalized();
    for (int k = 0; k < 3; ++k) out.push_back(corner(p[k], n));
  }
  return out;
}

Vec3 normal_of(const MeshVertex& v) {
  return {v.normal[0], v.normal[1], v.normal[2]};
}

TEST(MeshWelding, CubeKeepsItsHardEdges) {
  const MeshData welded = weld_triangle_soup(soup_of(make_box(Vec3(1, 2, 3))));
  EXPECT_EQ(welded.triangle_count(), 12u);
  EXPECT_EQ(welded.vertices.size(), 24u);  // 8 corners x 3 faces meeting at 90 degrees
  for (const auto& v : welded.vertices)
    EXPECT_NEAR(normal_of(v).cwiseAbs().maxCoeff(), 1.0f, 1e-6f);
}

TEST(MeshWelding, FacetedCylinderBecomesSmoothAndShared) {
  const int segments = 36;  // 10 degrees between facets: under the crease angle
  const MeshData cylinder = make_cylinder(0.1f, 0.5f, segments);
  const auto soup = soup_of(cylinder);
  const MeshData welded = weld_triangle_soup(soup);
  EXPECT_EQ(welded.triangle_count(), soup.size() / 3);
  // Side: one vertex per rim position; caps: their centres and rims keep their own (90 degrees).
  // (+ a few: the tessellator's seam at angle 0 and 2 pi is not bitwise the same position, and
  // welding is exact.)
  EXPECT_LE(welded.vertices.size(), 4u * segments + 8);
  EXPECT_LT(welded.vertices.size(), soup.size() / 2);
  for (const auto& v : welded.vertices) {
    const Vec3 n = normal_of(v);
    EXPECT_NEAR(n.norm(), 1.0f, 1e-5f);
    if (std::abs(n.z()) < 0.5f && std::abs(v.position[1]) > 1e-3f) {  // side, off the seam: radial
      const Vec3 radial = Vec3(v.position[0], v.position[1], 0).normalized();
      EXPECT_GT(n.dot(radial), std::cos(1.0f * std::numbers::pi_v<float> / 180));
    }
  }
}

TEST(MeshWelding, DifferentColoursAndZeroAreaTrianglesStaySeparate) {
  const Vec3 n(0, 0, 1);
  const std::vector<MeshVertex> soup = {
      corner({0, 0, 0}, n, 10), corner({1, 0, 0}, n, 10),
      corner({0, 1, 0}, n, 10), corner({1, 0, 0}, n, 20),
      corner({1, 1, 0}, n, 20), corner({0, 1, 0}, n, 20),  // same edge, other colour
      corner({0, 0, 0}, n, 10), corner({0, 0, 0}, n, 10),
      corner({1, 1, 0}, n, 10),  // zero area
  };
  const MeshData welded = weld_triangle_soup(soup);
  EXPECT_EQ(welded.triangle_count(), 2u);
  EXPECT_EQ(welded.vertices.size(), 6u);
}

TEST(ClosedShells, ClosedOutwardShellsComeFirstAndOpenOrInvertedOnesDoNot) {
  MeshData box = make_box(Vec3(1, 1, 1));
  auto indices = box.indices;
  EXPECT_EQ(order_closed_shells_first(box.vertices, indices), box.indices.size());

  MeshData quad = make_quad(1, 1);  // open
  indices = quad.indices;
  EXPECT_EQ(order_closed_shells_first(quad.vertices, indices), 0u);

  auto inverted = box.indices;  // inside out: culling would show the inside
  for (size_t i = 0; i < inverted.size(); i += 3) std::swap(inverted[i + 1], inverted[i + 2]);
  EXPECT_EQ(order_closed_shells_first(box.vertices, inverted), 0u);

  // A quad first, then a box: the box's triangles move to the front, nothing is lost.
  MeshData both = quad;
  const auto base = static_cast<uint32_t>(both.vertices.size());
  both.vertices.insert(both.vertices.end(), box.vertices.begin(), box.vertices.end());
  for (uint32_t i : box.indices) both.indices.push_back(base + i);
  indices = both.indices;
  ASSERT_EQ(order_closed_shells_first(both.vertices, indices), box.indices.size());
  for (size_t i = 0; i < box.indices.size(); ++i) EXPECT_GE(indices[i], base);
  auto sorted_before = both.indices, sorted_after = indices;
  std::sort(sorted_before.begin(), sorted_before.end());
  std::sort(sorted_after.begin(), sorted_after.end());
  EXPECT_EQ(sorted_before, sorted_after);
}

TEST(MeshSimplify, DenseSphereLosesTrianglesButNotItsShape) {
  const float radius = 0.1f;
  const MeshData dense = make_sphere(radius, 256, 128);
  const MeshData simple = simplify_for_display(dense, 1e-3f);
  EXPECT_LT(simple.triangle_count(), dense.triangle_count() / 3);
  EXPECT_GT(simple.triangle_count(), 100u);
  EXPECT_LT(simple.vertices.size(), dense.vertices.size());  // unreferenced vertices dropped
  // Every kept vertex still lies on the sphere; triangle centres sit inside it by the sag of the
  // flat faces: within 0.5 mm on this 0.2 m sphere (the bound is 1e-3 of the size per collapse,
  // measured against the original faces, which sag too).
  for (const MeshVertex& v : simple.vertices)
    EXPECT_NEAR(Vec3(v.position[0], v.position[1], v.position[2]).norm(), radius, 1e-5f);
  float deepest = 0.0f;
  for (size_t i = 0; i < simple.indices.size(); i += 3) {
    Vec3 c = Vec3::Zero();
    for (int k = 0; k < 3; ++k) {
      const float* p = simple.vertices[simple.indices[i + static_cast<size_t>(k)]].position;
      c += Vec3(p[0], p[1], p[2]) / 3.0f;
    }
    deepest = std::max(deepest, radius - c.norm());
  }
  EXPECT_LT(deepest, 0.5e-3f);
  for (uint32_t index : simple.indices) EXPECT_LT(index, simple.vertices.size());
}

TEST(MeshSimplify, BoxAndColourSeamsStayAsTheyAre) {
  const MeshData box = make_box(Vec3(0.1f, 0.2f, 0.3f));
  const MeshData simple = simplify_for_display(box);
  EXPECT_EQ(simple.triangle_count(), box.triangle_count());
  EXPECT_EQ(simple.vertices.size(), box.vertices.size());
  // Hard edges keep their split normals: 24 corners with face normals, not 8 averaged ones.
  for (const MeshVertex& v : simple.vertices) {
    const Vec3 n(v.normal[0], v.normal[1], v.normal[2]);
    EXPECT_NEAR(n.cwiseAbs().maxCoeff(), 1.0f, 1e-6f);
  }
}

}  // namespace
}  // namespace kinetic::viewer
