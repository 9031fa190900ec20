#include "engine/task/task_contacts.hpp"

#include <algorithm>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_body.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"

namespace kinetic::task_detail {

ObstacleBodies::ObstacleBodies(const CollisionChecker& checker, const PlanningScene& scene) {
  for (const Obstacle& obstacle : scene.obstacles())
    for (int i = checker.robot_body_count(); i < checker.body_count(); ++i)
      if (checker.body_name(i) == obstacle.name) {
        obstacles_.push_back({obstacle.name, obstacle.pose, checker.shared_body(i)});
        break;
      }
  if (obstacles_.size() != scene.obstacles().size())
    throw Error(ErrorCode::InvalidValue,
                "ObstacleBodies: the checker's scene is not the one given");
}

const ObstacleBodies::Entry& ObstacleBodies::entry(const std::string& name) const {
  for (const Entry& each : obstacles_)
    if (each.name == name) return each;
  throw Error(ErrorCode::InvalidValue, "the scene has no obstacle \"" + name + "\"");
}

std::vector<std::string> ObstacleBodies::touching(const std::string& object,
                                                  const Pose& pose) const {
  const CollisionBody& held = *entry(object).body;
  std::vector<std::string> names;
  const double cutoff = 2.0 * kContactTolerance;  // no need for the exact distance of far ones
  for (const Entry& other : obstacles_)
    if (other.name != object &&
        exact_pair_distance(held, pose, *other.body, other.pose, cutoff).distance <=
            kContactTolerance)
      names.push_back(other.name);
  return names;
}

std::vector<Overlap> ObstacleBodies::overlapping(const std::string& object,
                                                 const Pose& pose) const {
  const CollisionBody& held = *entry(object).body;
  std::vector<Overlap> overlaps;
  for (const Entry& other : obstacles_) {
    if (other.name == object) continue;
    if (const auto depth = exact_pair_penetration(held, pose, *other.body, other.pose, 0.0);
        depth && *depth > kContactTolerance)
      overlaps.push_back({other.name, *depth});
  }
  return overlaps;
}

void allow_with(PlanningScene& scene, const std::string& object,
                const std::vector<std::string>& others) {
  for (const std::string& other : others) scene.allow(object, other);
}

void restore_with(PlanningScene& scene, const std::string& object,
                  const std::vector<std::string>& others, const PlanningScene& original) {
  for (const std::string& other : others) {
    const std::optional<bool> before = original.override_for(object, other);
    if (!before)
      scene.clear_override(object, other);
    else if (*before)
      scene.allow(object, other);
    else
      scene.disallow(object, other);
  }
}

std::vector<std::string> links_at_origin_of(const CollisionChecker& checker,
                                            const RobotModel& model, const JointVector& q,
                                            const std::string& link) {
  CollisionChecker probing = checker;
  const std::string probe = "__flange_probe__";
  PlanningScene scene;
  scene.add_obstacle(probe, Shape::sphere(kContactTolerance), compute_link_pose(model, q, link));
  probing.set_scene(scene);
  std::vector<std::string> links;
  for (const Contact& contact : probing.contacts(q)) {
    const std::string& other = contact.body_a == probe ? contact.body_b : contact.body_a;
    if ((contact.body_a == probe || contact.body_b == probe) && other != link &&
        std::find(links.begin(), links.end(), other) == links.end())
      links.push_back(other);
  }
  return links;
}

}  // namespace kinetic::task_detail
