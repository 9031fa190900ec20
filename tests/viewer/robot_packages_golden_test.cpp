// Every robot package of ../shared/robots as the studio draws it, in one golden contact sheet
// (tests/goldens/robot_packages_contact_sheet.png, 4 x 3 tiles of 240 x 180, left to right, top to
// bottom in the order of kPackages): each opened the way a user opens it (a MoveIt config by its
// folder, a description with its SRDF), in the pose it opens in, its visual meshes with their own
// materials. Rendered on lavapipe. Regenerate: KINETIC_UPDATE_GOLDENS=1 ctest -L golden, then look.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "engine/model/robot_loader.hpp"
#include "golden.hpp"
#include "robot_scene.hpp"
#include "support/test_paths.hpp"
#include "viewer/headless.hpp"

namespace kinetic::test {
namespace {

using namespace kinetic::viewer;

constexpr uint32_t kTileWidth = 240, kTileHeight = 180, kColumns = 4;

struct Package {
  const char* name;
  const char* robot;  // under ../shared/robots: a MoveIt config folder or a URDF
  const char* srdf;   // "" for a MoveIt config (it names its own)
};

const std::vector<Package> kPackages = {
    {"panda_moveit_config", "moveit_resources/panda_moveit_config", ""},
    {"dual_arm_panda_moveit_config", "moveit_resources/dual_arm_panda_moveit_config", ""},
    {"fanuc_moveit_config", "moveit_resources/fanuc_moveit_config", ""},
    {"kinova_gen3_7dof_robotiq_2f_85",
     "ros2_kortex/kortex_moveit_config/kinova_gen3_7dof_robotiq_2f_85_moveit_config", ""},
    {"kinova_gen3_6dof_robotiq_2f_85",
     "ros2_kortex/kortex_moveit_config/kinova_gen3_6dof_robotiq_2f_85_moveit_config", ""},
    {"kinova_gen3_lite", "ros2_kortex/kortex_moveit_config/kinova_gen3_lite_moveit_config", ""},
    {"abb_irb2400", "abb/abb_irb2400_moveit_config", ""},
    {"fanuc_m10ia", "fanuc/moveit_cfgs/fanuc_m10ia_moveit_config", ""},
    {"fanuc_lrmate200id", "fanuc/moveit_cfgs/fanuc_lrmate200id_moveit_config", ""},
    {"pr2", "moveit_resources/pr2_description/urdf/robot.xml",
     "moveit_resources/pr2_description/srdf/robot.xml"},
    {"erd_ur5", "example-robot-data/robots/ur_description/urdf/ur5_robot.urdf",
     "example-robot-data/robots/ur_description/srdf/ur5.srdf"},
    {"abb_irb6640", "abb/abb_irb6600_support/urdf/irb6640.urdf",
     "abb/abb_irb6640_moveit_config/config/abb_irb6640_185_280.srdf"},
};

TEST(RobotPackagesGolden, EveryPackageInOneContactSheet) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  HeadlessRenderer headless(kTileWidth, kTileHeight);
  const uint32_t rows = static_cast<uint32_t>((kPackages.size() + kColumns - 1) / kColumns);
  RgbaImage sheet(kTileWidth * kColumns, kTileHeight * rows);
  LoadOptions options;
  options.package_paths = {shared_robots_dir()};
  for (std::size_t i = 0; i < kPackages.size(); ++i) {
    const Package& package = kPackages[i];
    SCOPED_TRACE(package.name);
    const std::string srdf =
        *package.srdf ? shared_robots_dir() + "/" + package.srdf : std::string();
    RobotModelPtr model;
    ASSERT_NO_THROW(
        model = load_robot_file(shared_robots_dir() + "/" + package.robot, srdf, "", options));
    EXPECT_TRUE(model->unresolved_files().empty()) << package.name << ": a mesh was not found";
    RenderScene scene;
    add_robot(scene, headless.meshes(), *model, model->default_configuration());
    ASSERT_FALSE(scene.instances.empty()) << package.name << " has nothing to draw";
    Vec3 min, max;
    robot_bounds(scene, headless.meshes(), min, max);
    Camera camera;
    camera.yaw = 0.9f;
    camera.pitch = 0.35f;
    camera.fit(min, max, headless.aspect());
    const RgbaImage tile = headless.render(scene, camera);
    const uint32_t x0 = static_cast<uint32_t>(i % kColumns) * kTileWidth,
                   y0 = static_cast<uint32_t>(i / kColumns) * kTileHeight;
    for (uint32_t y = 0; y < kTileHeight; ++y)
      for (uint32_t x = 0; x < kTileWidth; ++x) sheet.set(x0 + x, y0 + y, tile.at(x, y));
  }
  EXPECT_TRUE(matches_golden("robot_packages_contact_sheet", sheet));
}

}  // namespace
}  // namespace kinetic::test
