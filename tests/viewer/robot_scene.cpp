#include "robot_scene.hpp"

#include <filesystem>
#include <limits>

#include "app/viewport/scene_bridge/robot_visuals.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/model/robot_loader.hpp"
#include "support/test_paths.hpp"

namespace kinetic::test {

using namespace kinetic::viewer;

std::vector<Transform> link_poses(const RobotModel& model, const JointVector& q) {
  ForwardKinematics fk(model);
  std::vector<Pose> poses;
  fk.compute(q, poses);
  std::vector<Transform> out;
  for (const auto& p : poses) out.emplace_back(p.cast<float>());
  return out;
}

void add_robot(RenderScene& scene, MeshLibrary& meshes, const RobotModel& model,
               const JointVector& q, uint32_t flags, const Color* tint, bool collision) {
  std::vector<Pose> poses;
  ForwardKinematics(model).compute(q, poses);
  if (!collision) {
    // The app's own mapping (app/viewport/scene_bridge); it decides kMeshColors per part.
    const app::RobotVisuals visuals(
        meshes, std::shared_ptr<const RobotModel>(&model, [](const RobotModel*) {}));
    app::RobotStyle style;
    if (tint) style.tint = *tint;
    style.flags = flags & ~kMeshColors;
    // RobotVisuals numbers picks from base + 1 with base 0 meaning "not pickable"; the tests use
    // link index + 1, so draw with base 1 and shift back.
    style.pick_id_base = 1;
    const size_t first = scene.instances.size();
    visuals.append(scene, poses, style);
    for (size_t i = first; i < scene.instances.size(); ++i) scene.instances[i].pick_id -= 1;
    return;
  }
  // Collision geometry: the app never draws it as the robot, so it is mapped here.
  for (const auto& link : model.links()) {
    for (const auto& shape : link.collisions) {
      const auto& g = shape.geometry;
      Instance in;
      in.transform = Eigen::Affine3f((poses[link.index] * shape.origin).cast<float>());
      switch (g.type) {
        case Geometry::Type::Box:
          in.mesh = meshes.box(g.box_size.cast<float>());
          break;
        case Geometry::Type::Cylinder:
          in.mesh = meshes.cylinder(float(g.radius), float(g.length));
          break;
        case Geometry::Type::Sphere:
          in.mesh = meshes.sphere(float(g.radius));
          break;
        case Geometry::Type::Mesh:
          if (g.mesh_path.empty()) continue;
          in.mesh = meshes.load(g.mesh_path);
          in.transform.scale(g.mesh_scale.cast<float>());
          break;
      }
      in.flags = flags;
      if (tint) {
        in.color = *tint;
        in.flags &= ~kMeshColors;
      }
      in.pick_id = static_cast<uint32_t>(link.index + 1);
      scene.instances.push_back(in);
    }
  }
}

void robot_bounds(const RenderScene& scene, const MeshLibrary& meshes, Vec3& min, Vec3& max) {
  min = Vec3::Constant(std::numeric_limits<float>::max());
  max = -min;
  for (const auto& in : scene.instances) {
    const auto& mesh = meshes.get(in.mesh);
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 local((corner & 1) ? mesh.bounds_max.x() : mesh.bounds_min.x(),
                       (corner & 2) ? mesh.bounds_max.y() : mesh.bounds_min.y(),
                       (corner & 4) ? mesh.bounds_max.z() : mesh.bounds_min.z());
      const Vec3 p = in.transform * local;
      min = min.cwiseMin(p);
      max = max.cwiseMax(p);
    }
  }
}

RobotModelPtr load_shared_panda() {
  const std::filesystem::path root = example_robot_data_dir();
  LoadOptions options;
  options.package_paths = {root.parent_path().string()};
  options.require_meshes = true;
  return load_robot_file((root / "robots/panda_description/urdf/panda.urdf").string(), "", "",
                         options);
}

JointVector panda_q(const RobotModel& model, const std::vector<double>& arm) {
  JointVector q = JointVector::Zero(model.dof());
  for (int i = 0; i < model.dof(); ++i) {
    const std::string name = model.variable_joint(i).name;
    for (int j = 1; j <= 7; ++j)
      if (name == "panda_joint" + std::to_string(j)) q[i] = arm[j - 1];
    if (name.find("finger") != std::string::npos) q[i] = 0.03;
  }
  return q;
}

}  // namespace kinetic::test
