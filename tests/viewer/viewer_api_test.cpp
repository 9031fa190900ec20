// Viewer behaviour beyond pixels: camera maths, mesh loading and sharing, picking, gizmo handles,
// and that many frames leak no device memory.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "support/test_paths.hpp"
#include "viewer/error.hpp"
#include "viewer/gizmo.hpp"
#include "viewer/headless.hpp"
#include "viewer/picking.hpp"

namespace kinetic::viewer {
namespace {

Vec3 project(const Camera& camera, const Vec3& p, float w, float h) {
  const Vec4 clip = camera.projection_matrix(w / h) * camera.view_matrix() * p.homogeneous();
  return {(clip.x() / clip.w() * 0.5f + 0.5f) * w, (clip.y() / clip.w() * 0.5f + 0.5f) * h,
          clip.z() / clip.w()};
}

TEST(Camera, RayThroughThePixelOfAPointPassesThroughThePoint) {
  for (bool ortho : {false, true}) {
    Camera camera;
    camera.orthographic = ortho;
    camera.orbit(0.3f, 0.2f);
    const Vec3 point(0.3f, -0.2f, 0.5f);
    const Vec3 pixel = project(camera, point, 640, 480);
    EXPECT_GT(pixel.z(), 0.0f);
    EXPECT_LT(pixel.z(), 1.0f);
    const Ray ray = camera.ray_through_pixel(pixel.x(), pixel.y(), 640, 480);
    const Vec3 to_point = point - ray.origin;
    EXPECT_LT((to_point - ray.direction * to_point.dot(ray.direction)).norm(), 1e-4f)
        << "ortho=" << ortho;
  }
}

TEST(Camera, FitKeepsTheWholeBoxInView) {
  Camera camera;
  const Vec3 min(-1, -0.5f, 0), max(1, 0.5f, 2);
  camera.fit(min, max, 16.0f / 9.0f);
  for (int c = 0; c < 8; ++c) {
    const Vec3 corner((c & 1) ? max.x() : min.x(), (c & 2) ? max.y() : min.y(),
                      (c & 4) ? max.z() : min.z());
    const Vec3 p = project(camera, corner, 1600, 900);
    EXPECT_GE(p.x(), 0);
    EXPECT_LE(p.x(), 1600);
    EXPECT_GE(p.y(), 0);
    EXPECT_LE(p.y(), 900);
  }
}

// Pictures frame what they show tightly: every sphere in view, their picture centred and filling
// the view to its 5% border on one axis, from any direction, in perspective and orthographic.
TEST(Camera, FitTightFillsTheViewWithEverySphere) {
  const std::vector<BoundingSphere> spheres = {{Vec3(0, 0, 0.1f), 0.1f},
                                               {Vec3(0.6f, 0.2f, 0.5f), 0.05f},
                                               {Vec3(-0.3f, 0.7f, 1.1f), 0.2f},
                                               {Vec3(0.2f, -0.4f, 0.8f), 0.0f}};
  const float w = 1280, h = 720;
  for (bool ortho : {false, true})
    for (StandardView view :
         {StandardView::Front, StandardView::Iso, StandardView::Top, StandardView::Left})
      for (float aspect_w : {w, 540.0f}) {
        Camera camera;
        camera.orthographic = ortho;
        camera.set_view(view);
        camera.fit_tight(spheres, aspect_w / h);
        float lo_x = 1e9f, hi_x = -1e9f, lo_y = 1e9f, hi_y = -1e9f;
        for (const BoundingSphere& sphere : spheres)
          for (int d = 0; d < 26 * 4; ++d) {  // points of the sphere's surface
            const float a = 6.2831853f * (d % 26) / 26, b = 3.1415927f * (d / 26 + 0.5f) / 4;
            const Vec3 p = project(
                camera,
                sphere.centre + sphere.radius * Vec3(std::sin(b) * std::cos(a),
                                                     std::sin(b) * std::sin(a), std::cos(b)),
                aspect_w, h);
            lo_x = std::min(lo_x, p.x()), hi_x = std::max(hi_x, p.x()),
            lo_y = std::min(lo_y, p.y()), hi_y = std::max(hi_y, p.y());
          }
        const std::string what = "ortho=" + std::to_string(ortho) +
                                 " view=" + std::to_string(int(view)) +
                                 " width=" + std::to_string(aspect_w);
        EXPECT_GE(lo_x, 0) << what;
        EXPECT_LE(hi_x, aspect_w) << what;
        EXPECT_GE(lo_y, 0) << what;
        EXPECT_LE(hi_y, h) << what;
        EXPECT_GT(std::max((hi_x - lo_x) / aspect_w, (hi_y - lo_y) / h), 0.9f) << what;
        EXPECT_NEAR((lo_x + hi_x) / 2, aspect_w / 2, 0.03f * aspect_w) << what;
        EXPECT_NEAR((lo_y + hi_y) / 2, h / 2, 0.03f * h) << what;
      }
}

TEST(Camera, StandardViewsLookWhereTheySay) {
  Camera camera;
  camera.set_view(StandardView::Front);
  EXPECT_NEAR(camera.forward().x(), -1.0f, 1e-5f);
  camera.set_view(StandardView::Top);
  EXPECT_LT(camera.forward().z(), -0.99f);
  camera.orbit(0, 10);  // clamped short of the pole
  EXPECT_TRUE(camera.up().allFinite());
}

TEST(Camera, PanMovesThePointUnderTheCursorWithIt) {
  Camera camera;
  const Vec3 before = project(camera, camera.target, 800, 600);
  const Vec3 anchor = camera.target;
  camera.pan(40, 0, 600);
  EXPECT_NEAR(project(camera, anchor, 800, 600).x() - before.x(), 40.0f, 0.5f);
  camera.zoom(0.5f);
  EXPECT_NEAR(camera.distance, 1.25f, 1e-5f);
}

class ViewerGpu : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { headless_ = std::make_unique<HeadlessRenderer>(160, 120); }
  static void TearDownTestSuite() { headless_.reset(); }
  static std::unique_ptr<HeadlessRenderer> headless_;
};
std::unique_ptr<HeadlessRenderer> ViewerGpu::headless_;

TEST_F(ViewerGpu, MeshesAreSharedByPathAndParameters) {
  auto& meshes = headless_->meshes();
  EXPECT_EQ(meshes.box({1, 2, 3}), meshes.box({1, 2, 3}));
  EXPECT_NE(meshes.box({1, 2, 3}), meshes.box({1, 2, 4}));
  EXPECT_EQ(meshes.capsule(0.1f, 0.5f), meshes.capsule(0.1f, 0.5f));
}

TEST_F(ViewerGpu, LoadsDaeMeshesWithMaterialsInTheirZUpFrame) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto dir = std::filesystem::path(test::example_robot_data_dir()) /
                   "robots/panda_description/meshes/visual";
  auto& meshes = headless_->meshes();
  const MeshId link0 = meshes.load(dir / "link0.dae");
  EXPECT_EQ(meshes.load(dir / "link0.dae"), link0);
  const GpuMesh& mesh = meshes.get(link0);
  EXPECT_TRUE(mesh.has_colors);
  EXPECT_NEAR(mesh.bounds_min.z(), 0.0f, 1e-3f);  // the base sits on z = 0 (not turned to y-up)
  EXPECT_NEAR(mesh.bounds_max.z(), 0.14f, 5e-3f);
  EXPECT_GT(mesh.index_count, 3000u);
}

TEST_F(ViewerGpu, MissingOrBrokenMeshIsAClearError) {
  try {
    headless_->meshes().load("/nonexistent/arm.stl");
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/arm.stl"), std::string::npos);
  }
  const auto broken = std::filesystem::path(::testing::TempDir()) / "broken_mesh.obj";
  std::FILE* f = std::fopen(broken.c_str(), "w");
  std::fputs("this is not an obj file\n", f);
  std::fclose(f);
  EXPECT_THROW(headless_->meshes().load(broken), Error);
}

TEST_F(ViewerGpu, PickingReturnsTheNearestInstanceUnderThePixel) {
  RenderScene scene;
  auto& meshes = headless_->meshes();
  Instance near_box{meshes.box({0.2f, 0.2f, 0.2f})};
  near_box.transform.translate(Vec3(0.5f, 0, 0.3f));
  near_box.pick_id = 7;
  Instance far_sphere{meshes.sphere(0.1f)};
  far_sphere.transform.translate(Vec3(-0.5f, 0, 0.3f));
  far_sphere.pick_id = 9;
  scene.instances = {near_box, far_sphere};
  Camera camera;
  camera.set_view(StandardView::Front);  // camera on +x looking at -x: the box hides the sphere
  camera.target = Vec3(0, 0, 0.3f);
  const Vec3 px = project(camera, Vec3(0, 0, 0.3f), 160, 120);
  const auto hit = pick(scene, meshes, camera.ray_through_pixel(px.x(), px.y(), 160, 120));
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->pick_id, 7u);
  EXPECT_NEAR(hit->point.x(), 0.6f, 1e-3f);
  EXPECT_FALSE(pick(scene, meshes, camera.ray_through_pixel(2, 2, 160, 120)).has_value());
}

TEST_F(ViewerGpu, GizmoHandlesArePickedAtConstantScreenSize) {
  Camera camera;
  camera.set_view(StandardView::Iso);
  Gizmo gizmo;
  gizmo.pose.translation() = camera.target;
  for (float distance : {1.0f, 4.0f}) {
    camera.distance = distance;
    const float s = gizmo_scale(gizmo, camera, 120);
    EXPECT_NEAR(s / camera.world_per_pixel(gizmo.pose.translation(), 120), gizmo.size_px, 1e-3f);
    // Mid-shaft of the z arrow and a point on the z ring (which lies in the xy plane).
    const Vec3 z_arrow = gizmo.pose.translation() + Vec3::UnitZ() * 0.5f * s;
    Vec3 px = project(camera, z_arrow, 160, 120);
    EXPECT_EQ(pick_gizmo(gizmo, camera, camera.ray_through_pixel(px.x(), px.y(), 160, 120), 120),
              GizmoHandle::TranslateZ);
    // From above the z ring is a circle and the x/y rings are lines through the centre.
    camera.set_view(StandardView::Top);
    const Vec3 on_ring = gizmo.pose.translation() + Vec3(1, -1, 0).normalized() * 0.72f * s;
    px = project(camera, on_ring, 160, 120);
    EXPECT_EQ(pick_gizmo(gizmo, camera, camera.ray_through_pixel(px.x(), px.y(), 160, 120), 120),
              GizmoHandle::RotateZ);
    camera.set_view(StandardView::Iso);
  }
  EXPECT_EQ(pick_gizmo(gizmo, camera, camera.ray_through_pixel(1, 1, 160, 120), 120),
            GizmoHandle::None);
}

TEST_F(ViewerGpu, HiddenRingsAreNeitherDrawnNorPicked) {
  Camera camera;
  camera.set_view(StandardView::Front);  // looking along x: the x ring is a circle
  Gizmo gizmo;
  gizmo.pose.translation() = camera.target;
  const float s = gizmo_scale(gizmo, camera, 120);
  // A point on the x ring (in the yz plane), away from the arrows and the plane handles.
  const Vec3 on_x_ring = gizmo.pose.translation() + Vec3(0, 1, -1).normalized() * 0.72f * s;
  const Vec3 px = project(camera, on_x_ring, 160, 120);
  const Ray ray = camera.ray_through_pixel(px.x(), px.y(), 160, 120);
  ASSERT_EQ(pick_gizmo(gizmo, camera, ray, 120), GizmoHandle::RotateX);
  RenderScene all;
  add_gizmo(all, headless_->meshes(), gizmo, camera, 120);

  gizmo.rings = {false, false, true};  // turns about z only
  EXPECT_EQ(pick_gizmo(gizmo, camera, ray, 120), GizmoHandle::None);
  RenderScene z_only;
  add_gizmo(z_only, headless_->meshes(), gizmo, camera, 120);
  EXPECT_EQ(z_only.instances.size() + 2, all.instances.size());
  for (const Instance& in : z_only.instances)
    EXPECT_TRUE(in.pick_id != kGizmoPickBase + static_cast<uint32_t>(GizmoHandle::RotateX) &&
                in.pick_id != kGizmoPickBase + static_cast<uint32_t>(GizmoHandle::RotateY));
}

TEST_F(ViewerGpu, RenderingIsDeterministicAndLeaksNothing) {
  RenderScene scene;
  Instance box{headless_->meshes().box({0.3f, 0.3f, 0.3f})};
  scene.instances.push_back(box);
  scene.overlay.show_stats = true;
  Camera camera;
  const RgbaImage first = headless_->render(scene, camera);
  const int64_t allocations = headless_->context().live_allocations();
  for (int i = 0; i < 50; ++i) headless_->draw(scene, camera);
  EXPECT_EQ(headless_->context().live_allocations(), allocations);
  EXPECT_EQ(headless_->render(scene, camera), first);
  EXPECT_EQ(headless_->last_stats().instances, 1u);
  EXPECT_EQ(headless_->last_stats().triangles, 12u);
}

}  // namespace
}  // namespace kinetic::viewer
