#include "app/headless/scene_step_execution.hpp"

#include <tuple>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_scene_names.hpp"
#include "app/headless/pick_place_step_execution.hpp"
#include "engine/core/error.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/task/pick_place.hpp"

namespace kinetic::app::headless {

namespace {

using Kind = SceneChangeSpec::Kind;

std::string link_list(const std::vector<std::string>& links) {
  std::string text;
  for (const std::string& link : links) text += (text.empty() ? "" : ", ") + link;
  return text.empty() ? "none" : text;
}

}  // namespace

std::string apply_scene_step(const StepSpec& step, const RobotModel& robot,
                             const AttachDefaults& defaults, const JointVector& q,
                             PlanningScene& scene) {
  const SceneChangeSpec& change = *step.scene_change;
  const std::string& name = change.object;
  if (change.kind == Kind::Detach) {
    if (!scene.has_attached(name)) {
      if (scene.has_obstacle(name))
        throw JobError(change.object_field,
                       in_quotes(name) +
                           " is not attached at this step (it is an obstacle of the "
                           "scene): attach it in an earlier step");
      throw JobError(change.object_field,
                     "nothing named " + in_quotes(name) + " is attached at this step" +
                         known_names(name, attached_names(scene), "attached here are",
                                     "nothing is attached here"));
    }
    const std::string link = scene.attached(name).link;
    scene.detach(name, compute_link_pose(robot, q, link));
    return "released " + in_quotes(name) + " from " + link + " where it is";
  }
  const Obstacle& object =
      require_obstacle(scene, name, change.object_field,
                       "release it with a \"detach\" step before attaching it again");
  if (object.shape.type == Shape::Type::HalfSpace)
    throw JobError(
        change.object_field,
        in_quotes(name) + " is a half-space (an unbounded plane) and cannot be attached");
  const std::string link = change.link.empty() ? defaults.tip_link : change.link;
  if (link.empty())
    throw JobError(change.link_field,
                   "name the link to attach " + in_quotes(name) +
                       " to: the planning group is not one chain, so it has no TCP link");
  require_link(robot, link, change.link_field);
  std::vector<std::string> touch_links;
  if (change.touch_links) {
    touch_links = *change.touch_links;
    for (size_t i = 0; i < touch_links.size(); ++i)
      require_link(robot, touch_links[i], change.touch_links_field + "[" + std::to_string(i) + "]");
  } else {
    touch_links = default_touch_links(robot, link, defaults.group_variables);
  }
  scene.attach_obstacle(name, link, compute_link_pose(robot, q, link), touch_links);
  return "attached " + in_quotes(name) + " to " + link +
         " (touch links: " + link_list(touch_links) + ")";
}

void check_scene_steps(const Job& job, const RobotModel& robot, const AttachDefaults& defaults,
                       const JointVector& start, PlanningScene scene) {
  for (const StepSpec& step : job.steps) {
    if (!step.moves())
      apply_scene_step(step, robot, defaults, start, scene);
    else if (step.pick_place)
      check_pick_place_step(step, robot, scene);
  }
}

void check_state_after_scene_step(const StepSpec& step, CollisionChecker& checker,
                                  const JointVector& q, const std::string& what) {
  if (!checker.in_collision(q)) return;
  const SceneChangeSpec& change = *step.scene_change;
  const std::vector<Contact> contacts = checker.contacts(q);
  std::string pairs;
  for (const Contact& contact : contacts)
    pairs += (pairs.empty() ? "" : ", ") + contact.body_a + " - " + contact.body_b;
  // The pair to allow: the first one with the object in it.
  std::string a = change.object, b = "<the other body>";
  if (!contacts.empty())
    std::tie(a, b) = std::tie(contacts.front().body_a, contacts.front().body_b);
  for (const Contact& contact : contacts)
    if (contact.body_a == change.object || contact.body_b == change.object) {
      std::tie(a, b) = std::tie(contact.body_a, contact.body_b);
      break;
    }
  if (pairs.empty())
    pairs = in_quotes(change.object) +
            " within the checker's few millimetres of margin of another body";
  const std::string allowed = "\"allowed\": [[" + in_quotes(a) + ", " + in_quotes(b) + "]]";
  if (change.kind == Kind::Attach)
    throw JobFailure(kExitPlanningFailed,
                     what + ": with " + in_quotes(change.object) +
                         " attached, the robot is in collision here: " + pairs +
                         ". If they may touch (the object rests on it, or the gripper holds it "
                         "there), allow the pair "
                         "in the scene's \"allowed\" list (" +
                         allowed +
                         ") or name a robot link in this step's \"touch_links\"; otherwise move "
                         "clear before attaching");
  throw JobFailure(
      kExitPlanningFailed,
      what + ": with " + in_quotes(change.object) + " released, the robot is in collision here: " +
          pairs + ". Allow the pair in the scene's \"allowed\" list (" + allowed +
          ") so the robot may leave the object, or release it where the robot is clear of it");
}

}  // namespace kinetic::app::headless
