#pragma once
// Test helper: turns an engine RobotModel + joint values into viewer instances through the app's
// own mapping (app/viewport/scene_bridge/robot_visuals), so the goldens show what the studio draws.
// Tests may link the engine and the scene bridge; the viewer library itself stays engine-free.
#include <vector>

#include "engine/model/robot_model.hpp"
#include "viewer/mesh_library.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::test {

// Link poses (viewer floats) for q.
std::vector<viewer::Transform> link_poses(const RobotModel& model, const JointVector& q);

// One instance per visual shape (collision shapes with collision = true). flags are added to every
// instance (kGhost, kWireframe, ...); `tint` replaces material colours when ghosting. pick ids are
// link index + 1.
void add_robot(viewer::RenderScene& scene, viewer::MeshLibrary& meshes, const RobotModel& model,
               const JointVector& q, uint32_t flags = viewer::kMeshColors,
               const viewer::Color* tint = nullptr, bool collision = false);

// World-space bounds of the robot's visuals at q (for framing the camera).
void robot_bounds(const viewer::RenderScene& scene, const viewer::MeshLibrary& meshes,
                  viewer::Vec3& min, viewer::Vec3& max);

// The Panda from ../shared/robots (example-robot-data) and its joint vector from 7 arm values.
RobotModelPtr load_shared_panda();
JointVector panda_q(const RobotModel& model, const std::vector<double>& arm);

}  // namespace kinetic::test
