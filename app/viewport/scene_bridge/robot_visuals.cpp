#include "app/viewport/scene_bridge/robot_visuals.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>

namespace kinetic::app {

namespace {

viewer::Color to_color(const Eigen::Vector4d& rgba) {
  return {static_cast<float>(rgba[0]), static_cast<float>(rgba[1]), static_cast<float>(rgba[2]),
          static_cast<float>(rgba[3])};
}

constexpr float kPlaceholderSize = 0.05f;  // m, the box shown for a mesh that could not be read

}  // namespace

std::vector<std::filesystem::path> robot_mesh_files(const RobotModel& robot) {
  std::vector<std::filesystem::path> files;
  const auto add = [&files](const kinetic::Geometry& g) {
    if (g.type == kinetic::Geometry::Type::Mesh && !g.mesh_path.empty())
      files.emplace_back(g.mesh_path);
  };
  for (const Link& link : robot.links()) {
    for (const VisualShape& visual : link.visuals) add(visual.geometry);
    for (const CollisionShape& shape : link.collisions) add(shape.geometry);
  }
  return files;
}

RobotVisuals::RobotVisuals(viewer::MeshLibrary& meshes, RobotModelPtr robot, Geometry geometry)
    : robot_(std::move(robot)) {
  for (const Link& link : robot_->links()) {
    if (geometry == Geometry::Visual) {
      for (const VisualShape& visual : link.visuals)
        add_part(meshes, link, visual.origin, visual.geometry, visual.material);
    } else {
      for (const CollisionShape& shape : link.collisions)
        add_part(meshes, link, shape.origin, shape.geometry, std::nullopt);
    }
  }
}

void RobotVisuals::add_part(viewer::MeshLibrary& meshes, const Link& link, const Pose& origin,
                            const kinetic::Geometry& g, const std::optional<Material>& material) {
  Part part;
  part.link = link.index;
  part.local = origin.cast<float>();
  if (material) part.color = to_color(material->rgba);
  switch (g.type) {
    case kinetic::Geometry::Type::Box:
      part.mesh = meshes.box(g.box_size.cast<float>());
      part.radius = static_cast<float>(g.box_size.norm() / 2);
      break;
    case kinetic::Geometry::Type::Cylinder:
      part.mesh = meshes.cylinder(static_cast<float>(g.radius), static_cast<float>(g.length));
      part.radius = static_cast<float>(std::hypot(g.radius, g.length / 2));
      break;
    case kinetic::Geometry::Type::Sphere:
      part.mesh = meshes.sphere(static_cast<float>(g.radius));
      part.radius = static_cast<float>(g.radius);
      break;
    case kinetic::Geometry::Type::Mesh:
      try {
        if (g.mesh_path.empty()) throw std::runtime_error("not found on the package search path");
        part.mesh = meshes.load(g.mesh_path);
        part.local = part.local * Eigen::Scaling(g.mesh_scale.cast<float>());
        const auto& gpu = meshes.get(part.mesh);
        // As RViz: a mesh's own materials win; the URDF's colour paints only the parts of a mesh
        // that have none (a DAE's submesh without a material), or the whole of a mesh without.
        part.mesh_colors = !material || gpu.has_colors;
        part.color_where_mesh_has_none = material && gpu.has_colors;
        part.radius =
            (gpu.bounds_max - gpu.bounds_min).cwiseProduct(g.mesh_scale.cast<float>()).norm() / 2;
        part.centre = (gpu.bounds_min + gpu.bounds_max) /
                      2;  // mesh origins often sit at a joint, off the part
      } catch (const std::exception& error) {
        warnings_.push_back(link.name + ": mesh '" + g.mesh_uri + "' could not be loaded (" +
                            error.what() + "); shown as a placeholder box");
        part.mesh = meshes.box(viewer::Vec3::Constant(kPlaceholderSize));
        part.color = viewer::colors::kCollision.with_alpha(1.0f);
      }
      break;
  }
  parts_.push_back(part);
}

void RobotVisuals::append(viewer::RenderScene& scene, const std::vector<Pose>& link_poses,
                          const RobotStyle& style) const {
  for (const Part& part : parts_) {
    viewer::Instance instance;
    instance.mesh = part.mesh;
    instance.transform = Eigen::Affine3f(link_poses[part.link].cast<float>()) * part.local;
    instance.color = style.tint.value_or(part.color);
    instance.flags = style.flags;
    if (part.mesh_colors && !style.tint) instance.flags |= viewer::kMeshColors;
    if (part.color_where_mesh_has_none && !style.tint)
      instance.flags |= viewer::kColorWhereMeshHasNone;
    if (std::find(style.highlighted_links.begin(), style.highlighted_links.end(), part.link) !=
        style.highlighted_links.end())
      instance.flags |= viewer::kHighlighted;
    if (style.pick_id_base)
      instance.pick_id = style.pick_id_base + static_cast<uint32_t>(part.link) + 1;
    scene.instances.push_back(instance);
  }
}

void RobotVisuals::bounds(const std::vector<Pose>& link_poses, viewer::Vec3& min,
                          viewer::Vec3& max) const {
  min = viewer::Vec3::Constant(std::numeric_limits<float>::max());
  max = -min;
  for (const Part& part : parts_) {
    const viewer::Vec3 centre =
        (Eigen::Affine3f(link_poses[part.link].cast<float>()) * part.local).translation();
    min = min.cwiseMin(centre - viewer::Vec3::Constant(part.radius));
    max = max.cwiseMax(centre + viewer::Vec3::Constant(part.radius));
  }
  if (parts_.empty()) {
    min = viewer::Vec3::Constant(-0.5f);
    max = viewer::Vec3::Constant(0.5f);
  }
}

void RobotVisuals::bounding_spheres(const std::vector<Pose>& link_poses,
                                    std::vector<viewer::BoundingSphere>& out) const {
  for (const Part& part : parts_)
    out.push_back({Eigen::Affine3f(link_poses[part.link].cast<float>()) * part.local * part.centre,
                   part.radius});
}

}  // namespace kinetic::app
