#pragma once
// The names a job's scene-changing steps ("attach", "detach", "pick_place") refer to, checked
// where their step runs: JobErrors naming the step's field, listing the names there are, with a
// "did you mean" for close ones.
#include <string>
#include <vector>

#include "engine/model/robot_model.hpp"
#include "engine/scene/planning_scene.hpp"

namespace kinetic::app::headless {

std::string in_quotes(const std::string& name);

// " (did you mean 'a'?); <listing> 'a', 'b' and 'c'", or "; <none>" when there are no names.
std::string known_names(const std::string& name, const std::vector<std::string>& names,
                        const std::string& listing, const std::string& none);

std::vector<std::string> attached_names(const PlanningScene& scene);

// JobError(field) listing the robot's links unless it has `link`.
void require_link(const RobotModel& robot, const std::string& link, const std::string& field);

// The obstacle `name` of `scene` at this step, to attach or to pick. JobError(field) when it is
// held (saying so, then `held_remedy`) or not in the scene (listing its obstacles).
const Obstacle& require_obstacle(const PlanningScene& scene, const std::string& name,
                                 const std::string& field, const std::string& held_remedy);

}  // namespace kinetic::app::headless
