// app/viewport/scene_bridge/scene_visuals: planning-scene objects and TCP trails as viewer
// instances, drawn headless on lavapipe and checked by pixels, picks and counts.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "app/viewport/scene_bridge/robot_visuals.hpp"
#include "app/viewport/scene_bridge/scene_visuals.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/trajectory/trajectory_limits.hpp"
#include "engine/trajectory/trapezoidal.hpp"
#include "viewer/headless.hpp"
#include "viewer/picking.hpp"

namespace kinetic::test {
namespace {

using namespace kinetic::viewer;
using namespace kinetic::app;

constexpr uint32_t kWidth = 320, kHeight = 240;

class SceneVisuals : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    headless_ = std::make_unique<HeadlessRenderer>(kWidth, kHeight);
    robot_ = load_builtin_robot("ur5e");
  }
  static void TearDownTestSuite() { headless_.reset(); }

  void SetUp() override {
    planning_.add_obstacle("crate", Shape::box(Vector3(0.3, 0.3, 0.3)),
                           Pose(Eigen::Translation3d(0.6, -0.4, 0.15)));
    planning_.add_obstacle("ball", Shape::sphere(0.15), Pose(Eigen::Translation3d(0.6, 0.4, 0.15)));
    poses_ = compute_link_poses(*robot_, robot_->named_pose("home"));
    planning_.attach_obstacle("ball", "tool0",
                              poses_[robot_->link_index("tool0")]);  // now moves with the tool
    planning_.add_obstacle("crate2", Shape::box(Vector3(0.2, 0.2, 0.2)),
                           Pose(Eigen::Translation3d(0.6, 0.0, 0.1)));
  }

  // Pixel (x, y) where a world point lands.
  Eigen::Vector2f project(const Camera& camera, const Vector3& world) const {
    const Vec4 clip = camera.projection_matrix(headless_->aspect()) * camera.view_matrix() *
                      Vec4(static_cast<float>(world.x()), static_cast<float>(world.y()),
                           static_cast<float>(world.z()), 1);
    return {(clip.x() / clip.w() * 0.5f + 0.5f) * kWidth,
            (clip.y() / clip.w() * 0.5f + 0.5f) * kHeight};
  }

  Camera camera() const {
    Camera c;
    c.target = Vec3(0.6f, 0, 0.15f);
    c.distance = 2.2f;
    c.yaw = 0.0f;  // from +x, looking back at the objects
    c.pitch = 0.3f;
    return c;
  }

  static std::unique_ptr<HeadlessRenderer> headless_;
  static RobotModelPtr robot_;
  PlanningScene planning_;
  std::vector<Pose> poses_;
};

std::unique_ptr<HeadlessRenderer> SceneVisuals::headless_;
RobotModelPtr SceneVisuals::robot_;

bool greenish(Rgba8 p) {
  return p.g > p.r + 15 && p.g > p.b + 15;
}

TEST_F(SceneVisuals, ObstaclesAreDrawnWherePlacedWithPickIds) {
  RenderScene scene;
  scene.grid.visible = false;
  scene.world_axes = false;
  add_scene_objects(scene, headless_->meshes(), planning_, *robot_, poses_, "crate2", 100);
  ASSERT_EQ(scene.instances.size(), 3u);  // two obstacles + the attached ball
  EXPECT_EQ(scene.instances[0].pick_id, 101u);
  EXPECT_EQ(scene.instances[1].pick_id, 102u);
  EXPECT_EQ(scene.instances[2].pick_id, 103u);
  EXPECT_EQ(scene.instances[0].flags & kSelected, 0u);
  EXPECT_NE(scene.instances[1].flags & kSelected, 0u);
  EXPECT_EQ(scene_object_for_pick_id(planning_, 101, 100), "crate");
  EXPECT_EQ(scene_object_for_pick_id(planning_, 102, 100), "crate2");
  EXPECT_EQ(scene_object_for_pick_id(planning_, 103, 100), "ball");
  EXPECT_EQ(scene_object_for_pick_id(planning_, 104, 100), "");
  EXPECT_EQ(scene_object_for_pick_id(planning_, 100, 100), "");

  // The attached ball keeps the world pose it had when attached (link pose x object pose).
  EXPECT_TRUE(scene.instances[2].transform.translation().isApprox(Vec3(0.6f, 0.4f, 0.15f), 1e-5f));

  const Camera view = camera();
  const RgbaImage image = headless_->render(scene, view);
  for (const Vector3& centre :
       {Vector3(0.6, -0.4, 0.15), Vector3(0.6, 0.0, 0.1), Vector3(0.6, 0.4, 0.15)}) {
    const Eigen::Vector2f px = project(view, centre);
    ASSERT_TRUE(px.x() > 0 && px.x() < kWidth && px.y() > 0 && px.y() < kHeight);
    const Rgba8 p = image.at(static_cast<uint32_t>(px.x()), static_cast<uint32_t>(px.y()));
    EXPECT_TRUE(greenish(p)) << "obstacle colour expected at " << px.transpose() << ", got "
                             << int(p.r) << "," << int(p.g) << "," << int(p.b);
  }
  // An empty corner shows the background, not an obstacle.
  EXPECT_FALSE(greenish(image.at(2, 2)));

  // A click on the box maps back to its name.
  const Eigen::Vector2f px = project(view, Vector3(0.6, -0.4, 0.15));
  const auto hit =
      pick(scene, headless_->meshes(), view.ray_through_pixel(px.x(), px.y(), kWidth, kHeight));
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(scene_object_for_pick_id(planning_, hit->pick_id, 100), "crate");
}

TEST_F(SceneVisuals, MeshesAreSharedAndHalfSpaceIsAThinSlab) {
  planning_.add_obstacle("floor", Shape::half_space(Vector3::UnitZ(), -0.01), Pose::Identity());
  planning_.add_obstacle("crate3", Shape::box(Vector3(0.3, 0.3, 0.3)),
                         Pose(Eigen::Translation3d(-0.6, 0, 0.15)));
  RenderScene scene;
  add_scene_objects(scene, headless_->meshes(), planning_, *robot_, poses_);
  ASSERT_EQ(scene.instances.size(), 5u);
  EXPECT_EQ(scene.instances[0].mesh, scene.instances[3].mesh) << "same box size, same GPU mesh";
  const GpuMesh& slab = headless_->meshes().get(scene.instances[2].mesh);
  const Vec3 size = slab.bounds_max - slab.bounds_min;
  EXPECT_NEAR(size.z(), kHalfSpaceThickness, 1e-6);
  EXPECT_GE(size.x(), 1.0f);
  const Vec3 top = scene.instances[2].transform * Vec3(0, 0, slab.bounds_max.z());
  EXPECT_NEAR(top.z(), -0.01f, 1e-6f) << "the slab's top face is the boundary plane";
}

TEST_F(SceneVisuals, ShapeGhostWrapsTheShapeTranslucentAndUnpickable) {
  RenderScene scene;
  scene.grid.visible = false;
  scene.world_axes = false;
  const Pose world(Eigen::Translation3d(0.6, -0.4, 0.15));
  add_shape_ghost(scene, headless_->meshes(), Shape::box(Vector3(0.3, 0.3, 0.3)), world,
                  colors::kPlaceTarget);
  ASSERT_EQ(scene.instances.size(), 1u);
  const Instance& ghost = scene.instances[0];
  EXPECT_EQ(ghost.flags, uint32_t{kGhost});
  EXPECT_EQ(ghost.pick_id, 0u);
  EXPECT_EQ(ghost.color, colors::kPlaceTarget);
  // A corner of the box lands just outside the box's own corner: it wraps the object it marks.
  const Vec3 corner = ghost.transform * Vec3(0.15f, 0.15f, 0.15f);
  EXPECT_TRUE(corner.isApprox(
      Vec3(0.6f, -0.4f, 0.15f) + Vec3::Constant(0.15f * kShapeGhostInflation), 1e-5f));

  // Drawn violet over the background, and a click goes through it.
  const Camera view = camera();
  const RgbaImage image = headless_->render(scene, view);
  const Eigen::Vector2f px = project(view, world.translation());
  const Rgba8 p = image.at(static_cast<uint32_t>(px.x()), static_cast<uint32_t>(px.y()));
  EXPECT_TRUE(p.r > p.g + 20 && p.b > p.g + 20) << int(p.r) << "," << int(p.g) << "," << int(p.b);
  EXPECT_FALSE(
      pick(scene, headless_->meshes(), view.ray_through_pixel(px.x(), px.y(), kWidth, kHeight))
          .has_value());
}

TEST_F(SceneVisuals, ShapeGhostWithPickIdIsPickedInFrontOfItsObject) {
  RenderScene scene;
  constexpr uint32_t kObjectBase = 100, kGhostId = 42;
  add_scene_objects(scene, headless_->meshes(), planning_, *robot_, poses_, {}, kObjectBase);
  const Obstacle& crate = planning_.obstacle("crate");
  const Camera view = camera();
  const Eigen::Vector2f px = project(view, crate.pose.translation());
  const Ray ray = view.ray_through_pixel(px.x(), px.y(), kWidth, kHeight);
  const auto object_hit = pick(scene, headless_->meshes(), ray);
  ASSERT_TRUE(object_hit.has_value());
  ASSERT_EQ(scene_object_for_pick_id(planning_, object_hit->pick_id, kObjectBase), "crate");

  // A ghost of the crate where it stands wraps it: the same ray meets the ghost first.
  add_shape_ghost(scene, headless_->meshes(), crate.shape, crate.pose, colors::kPlaceTarget,
                  kGhostId);
  EXPECT_EQ(scene.instances.back().pick_id, kGhostId);
  const auto hit = pick(scene, headless_->meshes(), ray);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->pick_id, kGhostId);
  EXPECT_LT(hit->distance, object_hit->distance);
}

TEST_F(SceneVisuals, UnreadableMeshBecomesPlaceholderWithWarning) {
  planning_.add_obstacle("part", Shape::mesh("/nonexistent/part.stl"), Pose::Identity());
  RenderScene scene;
  std::vector<std::string> warnings;
  add_scene_objects(scene, headless_->meshes(), planning_, *robot_, poses_, {}, 0, &warnings);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("part"), std::string::npos);
  EXPECT_EQ(scene.instances.size(), 4u);
}

TEST_F(SceneVisuals, RobotMeshesThatAreMissingBecomePlaceholdersListedInTheWarnings) {
  const std::string urdf = R"(<robot name="two_links">
    <link name="base"><visual><geometry><mesh filename="package://no_such_package/base.dae"/></geometry></visual></link>
    <link name="arm"><visual><geometry><mesh filename="missing/arm.stl"/></geometry></visual>
                     <visual><geometry><box size="0.1 0.1 0.1"/></geometry></visual></link>
    <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" velocity="1" effort="1"/></joint>
  </robot>)";
  const RobotModelPtr robot = load_robot_string(urdf, "", "", "/tmp");
  const RobotVisuals visuals(headless_->meshes(), robot);
  ASSERT_EQ(visuals.warnings().size(), 2u);
  EXPECT_NE(visuals.warnings()[0].find("package://no_such_package/base.dae"), std::string::npos)
      << visuals.warnings()[0];
  EXPECT_NE(visuals.warnings()[1].find("missing/arm.stl"), std::string::npos)
      << visuals.warnings()[1];
  EXPECT_NE(visuals.warnings()[1].find("placeholder"), std::string::npos);
  // Every visual is drawn: two placeholders and the box.
  RenderScene scene;
  visuals.append(scene, compute_link_poses(*robot, robot->zero_configuration()));
  EXPECT_EQ(scene.instances.size(), 3u);
}

// As RViz draws them: a mesh's own material wins over the URDF's <material>, which paints only a
// mesh without colours of its own (a KUKA KR210's DAE came out flat grey).
TEST_F(SceneVisuals, AMeshsOwnColoursWinOverTheUrdfMaterial) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "kinetic_mesh_colours_test";
  std::filesystem::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
  };
  const std::string triangle = "v 0 0 0\nv 0.1 0 0\nv 0 0.1 0\nf 1 2 3\n";
  write("red.mtl", "newmtl red\nKd 0.9 0.1 0.1\n");
  write("coloured.obj", "mtllib red.mtl\nusemtl red\n" + triangle);
  write("plain.obj", triangle);
  const std::string urdf = R"(<robot name="colours">
    <material name="blue"><color rgba="0.1 0.2 0.9 1"/></material>
    <link name="base"><visual><geometry><mesh filename="coloured.obj"/></geometry><material name="blue"/></visual></link>
    <link name="arm"><visual><geometry><mesh filename="plain.obj"/></geometry><material name="blue"/></visual></link>
    <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
      <limit lower="-1" upper="1" velocity="1" effort="1"/></joint>
  </robot>)";
  const RobotModelPtr robot = load_robot_string(urdf, "", "", dir.string());
  const RobotVisuals visuals(headless_->meshes(), robot);
  ASSERT_TRUE(visuals.warnings().empty()) << visuals.warnings().front();
  RenderScene scene;
  visuals.append(scene, compute_link_poses(*robot, robot->zero_configuration()));
  ASSERT_EQ(scene.instances.size(), 2u);
  const Instance& coloured = scene.instances[0];
  const Instance& plain = scene.instances[1];
  EXPECT_TRUE(coloured.flags & kMeshColors) << "the OBJ's red material is drawn";
  EXPECT_TRUE(coloured.flags & kColorWhereMeshHasNone)
      << "as it is, the URDF's blue only where it has none";
  EXPECT_FALSE(plain.flags & kColorWhereMeshHasNone);
  EXPECT_NEAR(plain.color.b, 0.9f, 1e-6f) << "a mesh without colours takes the URDF's";
  EXPECT_NEAR(plain.color.r, 0.1f, 1e-6f);
  std::filesystem::remove_all(dir);
}

// A mesh of several parts (a DAE's submeshes, an OBJ's groups) where only some have a material:
// RViz draws those in their own colour and paints the rest with the URDF's; the whole mesh went
// white here, or, before that, flat in the URDF's colour.
TEST_F(SceneVisuals, TheUrdfMaterialPaintsOnlyThePartsOfAMeshWithoutColour) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "kinetic_submesh_colours_test";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "red.mtl") << "newmtl red\nKd 0.9 0.05 0.05\nnewmtl grey\nKd 0.8 0.8 0.8\n";
  // Two squares side by side, facing +z: the left one red by its material, the right one with a
  // plain light grey one (a CAD export's "no colour"; Assimp's OBJ reader gives faces before any
  // usemtl the file's first material, so that cannot stand for "none" here).
  std::ofstream(dir / "two.obj")
      << "mtllib red.mtl\n"
         "v -0.3 -0.15 0\nv -0.01 -0.15 0\nv -0.01 0.15 0\nv -0.3 0.15 0\n"
         "v 0.01 -0.15 0\nv 0.3 -0.15 0\nv 0.3 0.15 0\nv 0.01 0.15 0\n"
         "g left\nusemtl red\nf 1 2 3\nf 1 3 4\n"
         "g right\nusemtl grey\nf 5 6 7\nf 5 7 8\n";
  const std::string urdf = R"(<robot name="parts">
    <material name="blue"><color rgba="0.05 0.1 0.9 1"/></material>
    <link name="base"><visual><geometry><mesh filename="two.obj"/></geometry><material name="blue"/></visual></link>
  </robot>)";
  const RobotModelPtr robot = load_robot_string(urdf, "", "", dir.string());
  const RobotVisuals visuals(headless_->meshes(), robot);
  ASSERT_TRUE(visuals.warnings().empty()) << visuals.warnings().front();
  RenderScene scene;
  scene.grid.visible = false;
  visuals.append(scene, compute_link_poses(*robot, robot->zero_configuration()));
  Camera view;
  view.set_view(StandardView::Top);
  view.fit(Vec3(-0.35f, -0.2f, -0.05f), Vec3(0.35f, 0.2f, 0.05f), headless_->aspect());
  const RgbaImage image = headless_->render(scene, view);
  // The squares fill about a third of the view: count the pixels of each colour.
  int red = 0, blue = 0;
  for (uint32_t y = 0; y < image.height(); ++y)
    for (uint32_t x = 0; x < image.width(); ++x) {
      const Rgba8 p = image.at(x, y);
      red += p.r > 2 * p.b && p.r > 2 * p.g && p.r > 80;
      blue += p.b > 2 * p.r && p.b > 2 * p.g && p.b > 80;
    }
  const int pixels = static_cast<int>(image.width() * image.height());
  EXPECT_GT(red, pixels / 20) << "the part with a material is drawn in its own red";
  EXPECT_GT(blue, pixels / 20) << "the part without one takes the URDF's blue";
  std::filesystem::remove_all(dir);
}

TEST_F(SceneVisuals, TcpTrailFollowsTheTrajectoryThroughFk) {
  const JointVector a = robot_->named_pose("home"), b = robot_->named_pose("ready");
  const Trajectory trajectory = trapezoidal({a, b}, TrajectoryLimits::from_model(*robot_));
  const auto trail = tcp_trail(*robot_, trajectory, "", 25);
  ASSERT_EQ(trail.size(), 25u);
  EXPECT_TRUE(trail.front().isApprox(compute_link_pose(*robot_, a, "tool0").translation(), 1e-9));
  EXPECT_TRUE(trail.back().isApprox(compute_link_pose(*robot_, b, "tool0").translation(), 1e-9));
  // By group name and by link name the UR5e's TCP is tool0.
  EXPECT_EQ(tcp_trail(*robot_, trajectory, "arm", 5).back(), trail.back());
  EXPECT_EQ(tcp_trail(*robot_, trajectory, "tool0", 5).back(), trail.back());
  EXPECT_FALSE(tcp_trail(*robot_, trajectory, "link4", 5).back().isApprox(trail.back(), 1e-3));
  try {
    tcp_trail(*robot_, trajectory, "tool1", 5);
    FAIL() << "unknown link accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.code(), ErrorCode::MissingLink);
    EXPECT_NE(error.hint().find("tool0"), std::string::npos) << error.hint();
  }
  EXPECT_THROW(tcp_trail(*robot_, trajectory, "", 1), Error);

  RenderScene scene;
  scene.grid.visible = false;
  add_tcp_trail(scene, trail, colors::kTrail);
  ASSERT_EQ(scene.lines.size(), 1u);
  EXPECT_EQ(scene.lines[0].points.size(), 25u);
  EXPECT_TRUE(scene.lines[0].on_top);
  // The trail's midpoint is drawn in the trail colour.
  Camera view;
  view.fit(Vec3(-0.6f, -0.6f, 0.2f), Vec3(0.6f, 0.6f, 1.2f), headless_->aspect());
  scene.line_width_px = 4.0f;
  const RgbaImage image = headless_->render(scene, view);
  const Eigen::Vector2f px = project(view, trail[12]);
  bool found = false;
  for (int dy = -2; dy <= 2; ++dy)
    for (int dx = -2; dx <= 2; ++dx) {
      const Rgba8 p =
          image.at(static_cast<uint32_t>(px.x() + dx), static_cast<uint32_t>(px.y() + dy));
      found = found || (p.b > 150 && p.g > 150 && p.r < 120);
    }
  EXPECT_TRUE(found) << "no trail colour near pixel " << px.transpose();
}

}  // namespace
}  // namespace kinetic::test
