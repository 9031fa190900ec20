// Golden images of the studio's 3D view (issue 6): built-in robot, Panda meshes, ghosts, trail,
// collision spheres, gizmo, wireframe, ImGui overlay, obstacles + selection. Rendered on lavapipe
// (KINETIC_VULKAN_DEVICE=cpu) at 480x360 with 4x MSAA.
// Regenerate: KINETIC_UPDATE_GOLDENS=1 ctest -L golden (then look at tests/goldens/*.png).
#include <gtest/gtest.h>

#include <memory>

#include "engine/model/robot_loader.hpp"
#include "golden.hpp"
#include "robot_scene.hpp"
#include "support/test_paths.hpp"
#include "viewer/gizmo.hpp"
#include "viewer/headless.hpp"

namespace kinetic::test {
namespace {

using namespace kinetic::viewer;

constexpr uint32_t kWidth = 480, kHeight = 360;
const std::vector<double> kPandaHome = {0, -0.785, 0, -2.356, 0, 1.571, 0.785};
const std::vector<double> kPandaGoal = {1.1, 0.35, 0.2, -1.6, -0.1, 1.9, 0.4};

class GoldenScenes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { headless_ = std::make_unique<HeadlessRenderer>(kWidth, kHeight); }
  static void TearDownTestSuite() { headless_.reset(); }

  void SetUp() override { scene_ = RenderScene{}; }

  RobotModelPtr panda() { return load_shared_panda(); }

  Camera framed(const Vec3& min, const Vec3& max, float yaw = 0.9f, float pitch = 0.35f) {
    Camera camera;
    camera.yaw = yaw;
    camera.pitch = pitch;
    camera.fit(min, max, headless_->aspect());
    return camera;
  }

  Camera framed_robot(float yaw = 0.9f, float pitch = 0.35f) {
    Vec3 min, max;
    robot_bounds(scene_, headless_->meshes(), min, max);
    return framed(min, max, yaw, pitch);
  }

  ::testing::AssertionResult check(const std::string& name, const Camera& camera) {
    return matches_golden(name, headless_->render(scene_, camera));
  }

  static std::unique_ptr<HeadlessRenderer> headless_;
  RenderScene scene_;
};

std::unique_ptr<HeadlessRenderer> GoldenScenes::headless_;

TEST_F(GoldenScenes, BuiltinRobotAtHome) {
  const auto model = load_builtin_robot("ur5e");
  add_robot(scene_, headless_->meshes(), *model, model->named_pose("home"));
  EXPECT_TRUE(check("builtin_ur5e_home", framed_robot(-2.2f)));
}

TEST_F(GoldenScenes, PandaWithDaeMeshesAndMaterials) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto model = panda();
  add_robot(scene_, headless_->meshes(), *model, panda_q(*model, kPandaHome));
  EXPECT_GT(headless_->meshes().size(), 8u);
  EXPECT_TRUE(check("panda_meshes", framed_robot()));
}

TEST_F(GoldenScenes, StartAndGoalGhosts) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto model = panda();
  add_robot(scene_, headless_->meshes(), *model, panda_q(*model, kPandaHome), kGhost,
            &colors::kStartGhost);
  add_robot(scene_, headless_->meshes(), *model, panda_q(*model, kPandaGoal), kGhost,
            &colors::kGoalGhost);
  EXPECT_TRUE(check("ghosts_start_goal", framed_robot(0.3f, 0.45f)));
}

TEST_F(GoldenScenes, AGhostWhereTheRobotIsLeavesTheRobotAsItIs) {
  // A link the motion does not move has its ghost exactly on the robot's surface: the two depths
  // tied, and rounding let the ghost through pixel by pixel (speckles, stripes, a tinted base).
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto model = panda();
  add_robot(scene_, headless_->meshes(), *model, panda_q(*model, kPandaHome));
  const Camera camera = framed_robot(0.3f, 0.45f);
  const RgbaImage robot_alone = headless_->render(scene_, camera);
  add_robot(scene_, headless_->meshes(), *model, panda_q(*model, kPandaHome), kGhost,
            &colors::kStartGhost);
  const RgbaImage with_ghost = headless_->render(scene_, camera);
  const ImageComparison comparison = compare_images(with_ghost, robot_alone, 6);
  EXPECT_TRUE(comparison.same_size);
  EXPECT_EQ(comparison.failing_pixels, 0u)
      << "largest difference " << comparison.largest_difference;
}

TEST_F(GoldenScenes, TrajectoryTrailWithPlaybackStroboscope) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto model = panda();
  const int tcp = model->link_index("panda_hand");
  LineBatch trail;
  trail.color = colors::kTrail;
  for (int i = 0; i <= 60; ++i) {
    const double s = i / 60.0;
    std::vector<double> arm(7);
    for (int j = 0; j < 7; ++j) arm[j] = kPandaHome[j] + (kPandaGoal[j] - kPandaHome[j]) * s;
    const auto q = panda_q(*model, arm);
    trail.points.push_back(link_poses(*model, q)[tcp].translation());
    if (i == 20 || i == 40)
      add_robot(scene_, headless_->meshes(), *model, q, kGhost, &colors::kPlaybackGhost);
  }
  add_robot(scene_, headless_->meshes(), *model, panda_q(*model, kPandaGoal));
  scene_.lines.push_back(trail);
  scene_.line_width_px = 3;
  EXPECT_TRUE(check("trajectory_trail", framed_robot(0.5f, 0.5f)));
}

TEST_F(GoldenScenes, CollisionSpheresAndHighlightedLinks) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto model = panda();
  const auto q = panda_q(*model, kPandaHome);
  add_robot(scene_, headless_->meshes(), *model, q);
  for (auto& in : scene_.instances)  // links 4 and 5 collide
    if (in.pick_id == static_cast<uint32_t>(model->link_index("panda_link4") + 1) ||
        in.pick_id == static_cast<uint32_t>(model->link_index("panda_link5") + 1))
      in.flags |= kHighlighted;
  // Sphere model: a sphere around each link's visual bounds.
  const size_t robot_instances = scene_.instances.size();
  for (size_t i = 0; i < robot_instances; ++i) {
    const auto& mesh = headless_->meshes().get(scene_.instances[i].mesh);
    const float radius = 0.45f * (mesh.bounds_max - mesh.bounds_min).norm();
    if (radius < 0.03f) continue;
    Instance sphere;
    sphere.mesh = headless_->meshes().sphere(1.0f);
    sphere.transform = Eigen::Affine3f::Identity();
    sphere.transform.translate(scene_.instances[i].transform *
                               ((mesh.bounds_min + mesh.bounds_max) * 0.5f));
    sphere.transform.scale(radius);
    sphere.color = colors::kCollision.with_alpha(0.28f);
    sphere.flags = kGhost;
    scene_.instances.push_back(sphere);
  }
  EXPECT_TRUE(check("collision_spheres", framed_robot()));
}

TEST_F(GoldenScenes, GizmoAtTheToolWithSelection) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto model = panda();
  const auto q = panda_q(*model, kPandaHome);
  add_robot(scene_, headless_->meshes(), *model, q);
  const int hand = model->link_index("panda_hand");
  for (auto& in : scene_.instances)
    if (in.pick_id == static_cast<uint32_t>(hand + 1)) in.flags |= kSelected;
  const Camera camera = framed_robot();
  Gizmo gizmo;
  gizmo.pose = link_poses(*model, q)[hand];
  gizmo.hovered = GizmoHandle::TranslateZ;
  add_gizmo(scene_, headless_->meshes(), gizmo, camera, kHeight);
  scene_.frames = {gizmo.pose};
  EXPECT_TRUE(check("gizmo", camera));
}

TEST_F(GoldenScenes, Wireframe) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const auto model = panda();
  // Visual meshes in wireframe, with the (coarser) collision meshes as a wireframe overlay.
  const Color wire{0.80f, 0.88f, 1.0f, 0.45f};
  const Color collision_wire{1.0f, 0.55f, 0.25f, 0.9f};
  const auto q = panda_q(*model, kPandaHome);
  add_robot(scene_, headless_->meshes(), *model, q, kWireframe, &wire);
  add_robot(scene_, headless_->meshes(), *model, q, kWireframe, &collision_wire, true);
  EXPECT_TRUE(check("wireframe", framed_robot()));
}

TEST_F(GoldenScenes, ImGuiOverlay) {
  const auto model = load_builtin_robot("ur5e");
  const auto q = model->named_pose("home");
  add_robot(scene_, headless_->meshes(), *model, q);
  const auto poses = link_poses(*model, q);
  scene_.overlay.show_stats = true;
  scene_.overlay.frame_time_ms = 16.7f;
  scene_.overlay.stats_lines = {"planner: RRTConnect 12.4 ms"};
  scene_.overlay.show_help = true;
  scene_.overlay.warnings = {"Start state in collision: wrist_2_link / upper_arm_link"};
  scene_.overlay.labels = {{poses.back().translation(), "tool0", {1, 0.85f, 0.3f, 1}},
                           {poses[3].translation(), "forearm_link", {1, 1, 1, 1}}};
  scene_.overlay.legend = {{"goal", colors::kGoalGhost}, {"playback", colors::kPlaybackGhost}};
  Camera camera = framed_robot(-2.2f);
  camera.distance *= 1.35f;
  EXPECT_TRUE(check("imgui_overlay", camera));
}

TEST_F(GoldenScenes, ObstaclesPrimitivesOrthographicWithSelection) {
  auto& meshes = headless_->meshes();
  const auto place = [&](MeshId mesh, const Vec3& at, Color color, uint32_t flags = kNone) {
    Instance in;
    in.mesh = mesh;
    in.transform.translate(at);
    in.color = color;
    in.flags = flags;
    scene_.instances.push_back(in);
  };
  place(meshes.box({0.6f, 0.4f, 0.05f}), {0.5f, 0.0f, 0.3f}, colors::kObstacle);
  place(meshes.cylinder(0.05f, 0.3f), {0.5f, 0.1f, 0.475f}, {0.8f, 0.4f, 0.3f, 1}, kSelected);
  place(meshes.sphere(0.08f), {0.35f, -0.1f, 0.405f}, {0.3f, 0.5f, 0.9f, 1});
  place(meshes.capsule(0.04f, 0.2f), {0.0f, 0.4f, 0.14f}, {0.85f, 0.8f, 0.35f, 1});
  place(meshes.box({0.1f, 0.1f, 0.6f}), {0.5f, 0.0f, 0.0f}, colors::kObstacle);
  Camera camera;
  camera.orthographic = true;
  camera.set_view(StandardView::Iso);
  camera.fit({-0.1f, -0.3f, 0}, {0.9f, 0.5f, 0.6f}, headless_->aspect());
  EXPECT_TRUE(check("obstacles_ortho_selection", camera));
}

}  // namespace
}  // namespace kinetic::test
