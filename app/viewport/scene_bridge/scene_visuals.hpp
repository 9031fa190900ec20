#pragma once
// Scene visuals: the planning scene's obstacles and attached objects, and a trajectory's TCP trail,
// as viewer instances and lines. Qt-free (used by the studio's viewport and by headless runs).
#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"
#include "engine/trajectory/trajectory.hpp"
#include "viewer/mesh_library.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::app {

// Side of the square slab that stands in for an (infinite) half-space, and its thickness (m).
inline constexpr double kHalfSpaceExtent = 4.0;
inline constexpr double kHalfSpaceThickness = 0.01;

// Appends one instance per obstacle (world pose) and per attached object (its link's pose x the
// object's pose), coloured as obstacles; the object named `selected` gets viewer::kSelected.
// Pick ids: pick_id_base + index + 1, where index counts obstacles first, then attached objects
// (see scene_object_for_pick_id). pick_id_base 0 still makes them pickable from id 1: choose a
// base above the robot's ids when both share a scene. link_poses: one per robot link (FK).
// A mesh obstacle whose file cannot be read is drawn as a small red box and named in `warnings`.
void add_scene_objects(viewer::RenderScene& scene, viewer::MeshLibrary& meshes,
                       const PlanningScene& planning_scene, const RobotModel& robot,
                       const std::vector<Pose>& link_poses, const std::string& selected = {},
                       uint32_t pick_id_base = 0, std::vector<std::string>* warnings = nullptr);

// Appends `shape` at `world` as a translucent ghost of `color`, scaled by kShapeGhostInflation
// about its origin: where an object will be (the Task panel's place target). Picking returns
// pick_id (0: clicks go through it).
inline constexpr float kShapeGhostInflation = 1.02f;
void add_shape_ghost(viewer::RenderScene& scene, viewer::MeshLibrary& meshes, const Shape& shape,
                     const Pose& world, viewer::Color color, uint32_t pick_id = 0);

// The object name behind a pick id made by add_scene_objects with the same base; "" when the id
// is not one of the scene's objects.
std::string scene_object_for_pick_id(const PlanningScene& planning_scene, uint32_t pick_id,
                                     uint32_t pick_id_base = 0);

// Appends the points as one polyline (drawn on top of the geometry so it stays visible).
void add_tcp_trail(viewer::RenderScene& scene, const std::vector<Vector3>& points,
                   viewer::Color color);

// The TCP position at `samples` instants evenly spread over the trajectory (samples >= 2; both
// ends included). tcp_link_or_group: a link name, or a planning group / end effector name whose
// TCP (kinetic.toml end effector, else the group's tip link) is traced; "" = the first end
// effector. Trajectory joints are matched to the model by name; others stay at zero.
// Throws kinetic::Error(InvalidValue) for samples < 2 or an empty trajectory, and
// Error(MissingLink) listing close names for an unknown link or group.
std::vector<Vector3> tcp_trail(const RobotModel& robot, const Trajectory& trajectory,
                               const std::string& tcp_link_or_group, int samples);

// The link and the link -> TCP offset tcp_trail uses for tcp_link_or_group (same rules).
struct TcpFrame {
  int link = -1;
  Pose offset = Pose::Identity();
};
TcpFrame resolve_tcp_frame(const RobotModel& robot, const std::string& tcp_link_or_group);

}  // namespace kinetic::app
