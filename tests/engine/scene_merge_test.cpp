// merge_scene (engine/scene/scene_merge.hpp): a scene file's objects added to a scene, clashing
// names renamed and the pair overrides following them.
#include <gtest/gtest.h>

#include "engine/scene/scene_merge.hpp"

namespace kinetic {
namespace {

Pose at(double x, double y, double z) {
  return Pose(Eigen::Translation3d(x, y, z));
}

TEST(SceneMerge, AddsTheObjectsRenamingClashesAndTheirOverrides) {
  PlanningScene cell;
  cell.add_obstacle("table", Shape::box(Vector3(1.0, 1.0, 0.05)), at(0.5, 0.0, -0.03));
  cell.add_obstacle("bin", Shape::box(Vector3(0.3, 0.3, 0.2)), at(0.4, 0.4, 0.1));

  PlanningScene fixture;
  fixture.add_obstacle("bin", Shape::box(Vector3(0.2, 0.2, 0.1)), at(-0.4, 0.4, 0.05));
  fixture.add_obstacle("clamp", Shape::cylinder(0.02, 0.1), at(-0.4, 0.3, 0.05));
  fixture.add_obstacle("link3", Shape::sphere(0.02), at(0.0, -0.5, 0.2));
  fixture.allow("bin", "clamp");
  fixture.allow("bin", "tool0");

  const auto robot_link = [](const std::string& name) {
    return name == "link3" || name == "tool0";
  };
  const SceneRenames renames = merge_scene(cell, fixture, robot_link);
  ASSERT_EQ(renames.size(), 2u);
  EXPECT_EQ(renames[0], std::make_pair(std::string("bin"), std::string("bin_2")));
  EXPECT_EQ(renames[1], std::make_pair(std::string("link3"), std::string("link3_2")));
  EXPECT_EQ(cell.obstacles().size(), 5u);
  EXPECT_TRUE(cell.has_obstacle("table") && cell.has_obstacle("clamp") &&
              cell.has_obstacle("link3_2"));
  EXPECT_TRUE(cell.obstacle("bin").pose.translation().isApprox(
      Vector3(0.4, 0.4, 0.1)));  // the cell's own bin stays
  EXPECT_TRUE(cell.obstacle("bin_2").pose.translation().isApprox(Vector3(-0.4, 0.4, 0.05)));
  EXPECT_EQ(cell.override_for("bin_2", "clamp"), std::optional<bool>(true));
  EXPECT_EQ(cell.override_for("bin_2", "tool0"),
            std::optional<bool>(true));  // a link keeps its name
  EXPECT_EQ(cell.override_for("bin", "clamp"), std::nullopt);
}

}  // namespace
}  // namespace kinetic
