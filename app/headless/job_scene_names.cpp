#include "app/headless/job_scene_names.hpp"

#include "app/headless/job_file.hpp"
#include "engine/core/string_similarity.hpp"

namespace kinetic::app::headless {

std::string in_quotes(const std::string& name) {
  return "\"" + name + "\"";
}

std::string known_names(const std::string& name, const std::vector<std::string>& names,
                        const std::string& listing, const std::string& none) {
  const std::vector<std::string> close = closest_names(name, names);
  return (close.empty() ? std::string() : " (did you mean " + quoted_list(close) + "?)") + "; " +
         (names.empty() ? none : listing + " " + quoted_list(names, " and "));
}

std::vector<std::string> attached_names(const PlanningScene& scene) {
  std::vector<std::string> names;
  for (const AttachedObject& object : scene.attached_objects()) names.push_back(object.name);
  return names;
}

void require_link(const RobotModel& robot, const std::string& link, const std::string& field) {
  if (robot.find_link(link) >= 0) return;
  std::vector<std::string> names;
  for (const Link& l : robot.links()) names.push_back(l.name);
  throw JobError(field, "the robot has no link " + in_quotes(link) +
                            known_names(link, names, "its links are", "it has no links"));
}

const Obstacle& require_obstacle(const PlanningScene& scene, const std::string& name,
                                 const std::string& field, const std::string& held_remedy) {
  if (scene.has_obstacle(name)) return scene.obstacle(name);
  if (scene.has_attached(name))
    throw JobError(field, in_quotes(name) + " is attached already (to " +
                              scene.attached(name).link + "): " + held_remedy);
  std::vector<std::string> names;
  for (const Obstacle& obstacle : scene.obstacles()) names.push_back(obstacle.name);
  throw JobError(
      field, "the scene has no obstacle " + in_quotes(name) + " at this step" +
                 known_names(name, names, "its obstacles here are", "it has no obstacles here"));
}

}  // namespace kinetic::app::headless
