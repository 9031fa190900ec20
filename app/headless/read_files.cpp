#include "app/headless/read_files.hpp"

#include "app/headless/robot_files.hpp"

namespace kinetic::app::headless {

namespace fs = std::filesystem;

ReadFiles files_the_job_names(const Job& job) {
  const RobotFiles robot = robot_files(job);
  return {{job.source, "the job file"},
          {job.scene.file, "the scene file"},
          {job.robot.urdf, "the URDF"},
          {robot.srdf, "the SRDF"},
          {robot.config, "the kinetic.toml"}};
}

ReadFiles files_the_robot_and_scene_read(const JobResult& result) {
  ReadFiles files;
  if (result.robot) {
    if (!result.robot->source_path().empty())
      files.emplace_back(result.robot->source_path(), "the robot file");
    for (const std::string& included : result.robot->included_files())
      files.emplace_back(included, "the robot's file");
    for (const Link& link : result.robot->links()) {
      const std::string of = " of link '" + link.name + "'";
      for (const VisualShape& visual : link.visuals) {
        if (!visual.geometry.mesh_path.empty())
          files.emplace_back(visual.geometry.mesh_path, "the visual mesh" + of);
        if (visual.material && !visual.material->texture_path.empty())
          files.emplace_back(visual.material->texture_path, "the texture" + of);
      }
      for (const CollisionShape& collision : link.collisions)
        if (!collision.geometry.mesh_path.empty())
          files.emplace_back(collision.geometry.mesh_path, "the collision mesh" + of);
    }
  }
  for (const Obstacle& obstacle : result.scene.obstacles())
    if (!obstacle.shape.mesh_path.empty())
      files.emplace_back(obstacle.shape.mesh_path, "the mesh of obstacle '" + obstacle.name + "'");
  for (const AttachedObject& object : result.scene.attached_objects())
    if (!object.shape.mesh_path.empty())
      files.emplace_back(object.shape.mesh_path, "the mesh of object '" + object.name + "'");
  return files;
}

}  // namespace kinetic::app::headless
