#include "app/viewport/scene_bridge/scene_visuals.hpp"

#include <algorithm>
#include <exception>

#include "engine/core/error.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/kinematics/kinematic_chain.hpp"

namespace kinetic::app {

namespace {

constexpr float kMissingMeshSize = 0.05f;  // m, the box shown for a mesh that could not be read

// Mesh and local transform (shape frame -> drawn mesh, incl. scale) of one shape.
struct ShapeMesh {
  viewer::MeshId mesh = 0;
  Eigen::Affine3f local = Eigen::Affine3f::Identity();
  bool missing = false;
};

ShapeMesh mesh_for(viewer::MeshLibrary& meshes, const Shape& shape, const std::string& name,
                   std::vector<std::string>* warnings) {
  ShapeMesh out;
  switch (shape.type) {
    case Shape::Type::Box:
      out.mesh = meshes.box(shape.box_size.cast<float>());
      break;
    case Shape::Type::Cylinder:
      out.mesh =
          meshes.cylinder(static_cast<float>(shape.radius), static_cast<float>(shape.length));
      break;
    case Shape::Type::Sphere:
      out.mesh = meshes.sphere(static_cast<float>(shape.radius));
      break;
    case Shape::Type::Mesh:
      try {
        out.mesh = meshes.load(shape.mesh_path);
        out.local = Eigen::Scaling(shape.mesh_scale.cast<float>());
      } catch (const std::exception& error) {
        if (warnings)
          warnings->push_back(name + ": mesh '" + shape.mesh_path + "' could not be loaded (" +
                              error.what() + "); shown as a placeholder box");
        out.mesh = meshes.box(viewer::Vec3::Constant(kMissingMeshSize));
        out.missing = true;
      }
      break;
    case Shape::Type::HalfSpace: {
      // A square slab whose top face lies on the boundary plane, solid side below it.
      const Vector3 normal = shape.normal.normalized();
      const Quaternion turn = Quaternion::FromTwoVectors(Vector3::UnitZ(), normal);
      const Vector3 centre = normal * (shape.offset - kHalfSpaceThickness / 2);
      out.mesh = meshes.box(viewer::Vec3(kHalfSpaceExtent, kHalfSpaceExtent, kHalfSpaceThickness));
      out.local = Eigen::Translation3f(centre.cast<float>()) * turn.cast<float>();
      break;
    }
  }
  return out;
}

// The shape drawn at `world` (a mesh that could not be read: a red box).
viewer::Instance shape_instance(viewer::MeshLibrary& meshes, const std::string& name,
                                const Shape& shape, const Pose& world,
                                std::vector<std::string>* warnings) {
  const ShapeMesh drawn = mesh_for(meshes, shape, name, warnings);
  viewer::Instance instance;
  instance.mesh = drawn.mesh;
  instance.transform = Eigen::Affine3f(world.cast<float>()) * drawn.local;
  instance.color =
      drawn.missing ? viewer::colors::kCollision.with_alpha(1.0f) : viewer::colors::kObstacle;
  return instance;
}

void append(viewer::RenderScene& scene, viewer::MeshLibrary& meshes, const std::string& name,
            const Shape& shape, const Pose& world, bool selected, uint32_t pick_id,
            std::vector<std::string>* warnings) {
  viewer::Instance instance = shape_instance(meshes, name, shape, world, warnings);
  if (selected) instance.flags |= viewer::kSelected;
  instance.pick_id = pick_id;
  scene.instances.push_back(instance);
}

}  // namespace

void add_scene_objects(viewer::RenderScene& scene, viewer::MeshLibrary& meshes,
                       const PlanningScene& planning_scene, const RobotModel& robot,
                       const std::vector<Pose>& link_poses, const std::string& selected,
                       uint32_t pick_id_base, std::vector<std::string>* warnings) {
  uint32_t index = 0;
  for (const Obstacle& obstacle : planning_scene.obstacles())
    append(scene, meshes, obstacle.name, obstacle.shape, obstacle.pose, obstacle.name == selected,
           pick_id_base + ++index, warnings);
  for (const AttachedObject& object : planning_scene.attached_objects()) {
    ++index;
    const int link = robot.find_link(object.link);
    if (link < 0 || static_cast<size_t>(link) >= link_poses.size()) {
      if (warnings)
        warnings->push_back(object.name + ": attached to '" + object.link +
                            "', which this robot does not have; not drawn");
      continue;
    }
    append(scene, meshes, object.name, object.shape, link_poses[link] * object.pose,
           object.name == selected, pick_id_base + index, warnings);
  }
}

void add_shape_ghost(viewer::RenderScene& scene, viewer::MeshLibrary& meshes, const Shape& shape,
                     const Pose& world, viewer::Color color, uint32_t pick_id) {
  viewer::Instance instance = shape_instance(meshes, "marker", shape, world, nullptr);
  // Slightly larger than the shape, so where the object itself stands (a place not yet edited)
  // the ghost wraps it instead of fighting its surface for depth.
  instance.transform = instance.transform * Eigen::Scaling(kShapeGhostInflation);
  instance.color = color;
  instance.flags = viewer::kGhost;
  instance.pick_id = pick_id;
  scene.instances.push_back(instance);
}

std::string scene_object_for_pick_id(const PlanningScene& planning_scene, uint32_t pick_id,
                                     uint32_t pick_id_base) {
  if (pick_id <= pick_id_base) return {};
  const size_t index = pick_id - pick_id_base - 1;
  const auto& obstacles = planning_scene.obstacles();
  const auto& attached = planning_scene.attached_objects();
  if (index < obstacles.size()) return obstacles[index].name;
  if (index - obstacles.size() < attached.size()) return attached[index - obstacles.size()].name;
  return {};
}

void add_tcp_trail(viewer::RenderScene& scene, const std::vector<Vector3>& points,
                   viewer::Color color) {
  if (points.size() < 2) return;
  viewer::LineBatch line;
  line.color = color;
  line.strip = true;
  line.on_top = true;
  line.points.reserve(points.size());
  for (const Vector3& p : points) line.points.push_back(p.cast<float>());
  scene.lines.push_back(std::move(line));
}

TcpFrame resolve_tcp_frame(const RobotModel& robot, const std::string& tcp_link_or_group) {
  const auto& config = robot.config();
  if (!tcp_link_or_group.empty())
    if (const int link = robot.find_link(tcp_link_or_group); link >= 0)
      return {link, Pose::Identity()};
  for (const EndEffectorConfig& effector : config.end_effectors)
    if (!tcp_link_or_group.empty() && effector.name == tcp_link_or_group)
      return {robot.link_index(effector.parent_link), effector.tcp};
  // "" or a group: the tip and TCP that IK and the planners use for that group.
  try {
    const GroupChain chain = group_chain(robot, tcp_link_or_group);
    return {robot.link_index(chain.tip_link), chain.tcp};
  } catch (const Error&) {
    if (tcp_link_or_group.empty())
      return {static_cast<int>(robot.links().size()) - 1, Pose::Identity()};
  }
  std::vector<std::string> names;
  for (const Link& link : robot.links()) names.push_back(link.name);
  for (const auto& group : robot.group_names()) names.push_back(group);
  for (const auto& effector : config.end_effectors) names.push_back(effector.name);
  throw Error(ErrorCode::MissingLink,
              "'" + tcp_link_or_group +
                  "' is neither a link, a planning group nor an end effector of " + robot.name(),
              suggestion_hint(tcp_link_or_group, names));
}

std::vector<Vector3> tcp_trail(const RobotModel& robot, const Trajectory& trajectory,
                               const std::string& tcp_link_or_group, int samples) {
  if (samples < 2) throw Error(ErrorCode::InvalidValue, "a TCP trail needs at least 2 samples");
  if (trajectory.empty()) throw Error(ErrorCode::InvalidValue, "the trajectory has no samples");
  const TcpFrame tcp = resolve_tcp_frame(robot, tcp_link_or_group);
  std::vector<int> variable_of_joint;  // trajectory joint -> model variable (-1: not in the model)
  for (const std::string& name : trajectory.joint_names())
    variable_of_joint.push_back(robot.variable_index(name));

  const ForwardKinematics fk(robot);
  JointVector q = robot.zero_configuration();
  std::vector<Vector3> points;
  points.reserve(static_cast<size_t>(samples));
  for (int i = 0; i < samples; ++i) {
    const double t = trajectory.start_time() + trajectory.duration() * i / (samples - 1);
    const JointVector position = trajectory.sample(t).position;
    for (size_t j = 0; j < variable_of_joint.size(); ++j)
      if (variable_of_joint[j] >= 0)
        q[variable_of_joint[j]] = position[static_cast<Eigen::Index>(j)];
    points.push_back((fk.link_pose(q, tcp.link) * tcp.offset).translation());
  }
  return points;
}

}  // namespace kinetic::app
