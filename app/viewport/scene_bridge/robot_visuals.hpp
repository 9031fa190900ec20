#pragma once
// RobotVisuals: turns a robot model's visual geometry into viewer instances. Meshes are uploaded
// once per robot load (one GPU copy per mesh file); every frame only the link poses change.
// This is the one place where engine types meet viewer types (the viewer is engine-free).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"
#include "viewer/camera.hpp"
#include "viewer/mesh_library.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::app {

// How one copy of the robot is drawn (the robot itself, a ghost, a playback frame).
struct RobotStyle {
  std::optional<viewer::Color> tint;  // replaces material colours (ghosts)
  uint32_t flags = viewer::kNone;
  std::vector<int> highlighted_links;  // drawn as colliding
  uint32_t pick_id_base = 0;           // pick id = base + link index + 1; 0 = not pickable
};

// The mesh files RobotVisuals loads for this robot (visual and collision geometry), for reading
// them ahead (MeshLibrary::preload, MeshFileCache::warm).
std::vector<std::filesystem::path> robot_mesh_files(const RobotModel& robot);

class RobotVisuals {
 public:
  enum class Geometry { Visual, Collision };
  // Loads every visual (or collision) mesh; a mesh that cannot be read becomes a small placeholder
  // box and is listed in warnings().
  RobotVisuals(viewer::MeshLibrary& meshes, RobotModelPtr robot,
               Geometry geometry = Geometry::Visual);

  const RobotModelPtr& robot() const { return robot_; }
  const std::vector<std::string>& warnings() const { return warnings_; }
  bool empty() const { return parts_.empty(); }

  // Appends one instance per visual, placed by the link poses (index = link index).
  void append(viewer::RenderScene& scene, const std::vector<Pose>& link_poses,
              const RobotStyle& style = RobotStyle{}) const;
  // Axis-aligned bounds of the visuals' origins at the given link poses, padded (the studio's
  // camera fit, which leaves room around the robot).
  void bounds(const std::vector<Pose>& link_poses, viewer::Vec3& min, viewer::Vec3& max) const;
  // Appends a sphere around each visual at the given link poses (for framing a picture).
  void bounding_spheres(const std::vector<Pose>& link_poses,
                        std::vector<viewer::BoundingSphere>& out) const;

 private:
  struct Part {
    int link = -1;
    viewer::MeshId mesh = 0;
    Eigen::Affine3f local = Eigen::Affine3f::Identity();  // link frame -> mesh, incl. scale
    viewer::Color color = viewer::colors::kRobot;
    bool mesh_colors = false;
    bool color_where_mesh_has_none = false;  // the URDF colour on the parts of the mesh without one
    float radius = 0.05f;                    // with `centre`: a sphere around it, for framing
    viewer::Vec3 centre = viewer::Vec3::Zero();  // in the mesh's own frame (before `local`)
  };

  void add_part(viewer::MeshLibrary& meshes, const Link& link, const Pose& origin,
                const kinetic::Geometry& g, const std::optional<Material>& material);

  RobotModelPtr robot_;
  std::vector<Part> parts_;
  std::vector<std::string> warnings_;
};

}  // namespace kinetic::app
