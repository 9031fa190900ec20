#include "engine/task/task_contacts.hpp"

#include <algorithm>

#include "engine/collision/body_pair.hpp"
#include "engine/collision/collision_body.hpp"
#include "engine/kinematics/forward_kinematics.hpp"

namespace kinetic::task_detail {

namespace {

std::shared_ptr<const CollisionBody> body_of(const std::string& name, const Shape& shape) {
  return make_collision_body(name, {{shape, Pose::Identity()}}, SphereResolution::Default);
}

}  // namespace

std::vector<std::string> obstacles_touching(const PlanningScene& scene, const std::string& object,
                                            const Shape& shape, const Pose& pose) {
  const auto held = body_of(object, shape);
  std::vector<std::string> names;
  for (const Obstacle& obstacle : scene.obstacles()) {
    if (obstacle.name == object) continue;
    const auto other = body_of(obstacle.name, obstacle.shape);
    const double cutoff = 2.0 * kContactTolerance;  // no need for the exact distance of far ones
    if (exact_pair_distance(*held, pose, *other, obstacle.pose, cutoff).distance <= kContactTolerance)
      names.push_back(obstacle.name);
  }
  return names;
}

std::vector<Overlap> obstacles_overlapping(const PlanningScene& scene, const std::string& object,
                                           const Shape& shape, const Pose& pose) {
  const auto held = body_of(object, shape);
  std::vector<Overlap> overlaps;
  for (const Obstacle& obstacle : scene.obstacles()) {
    if (obstacle.name == object) continue;
    const auto other = body_of(obstacle.name, obstacle.shape);
    if (const auto depth = exact_pair_penetration(*held, pose, *other, obstacle.pose, 0.0);
        depth && *depth > kContactTolerance)
      overlaps.push_back({obstacle.name, *depth});
  }
  return overlaps;
}

void allow_with(PlanningScene& scene, const std::string& object, const std::vector<std::string>& others) {
  for (const std::string& other : others) scene.allow(object, other);
}

void restore_with(PlanningScene& scene, const std::string& object, const std::vector<std::string>& others,
                  const PlanningScene& original) {
  for (const std::string& other : others) {
    const std::optional<bool> before = original.override_for(object, other);
    if (!before) scene.clear_override(object, other);
    else if (*before) scene.allow(object, other);
    else scene.disallow(object, other);
  }
}

std::vector<std::string> links_at_origin_of(CollisionChecker& checker, const RobotModel& model,
                                            const JointVector& q, const std::string& link) {
  const std::string probe = "__flange_probe__";
  PlanningScene scene;
  scene.add_obstacle(probe, Shape::sphere(kContactTolerance), compute_link_pose(model, q, link));
  checker.set_scene(scene);
  std::vector<std::string> links;
  for (const Contact& contact : checker.contacts(q)) {
    const std::string& other = contact.body_a == probe ? contact.body_b : contact.body_a;
    if ((contact.body_a == probe || contact.body_b == probe) && other != link &&
        std::find(links.begin(), links.end(), other) == links.end())
      links.push_back(other);
  }
  return links;
}

}  // namespace kinetic::task_detail
