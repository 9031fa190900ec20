#include "engine/task/pick_place.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "engine/core/error.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/kinematics/forward_kinematics.hpp"
#include "engine/task/scene_switch.hpp"
#include "engine/task/stage_chain.hpp"
#include "engine/task/task_contacts.hpp"
#include "engine/task/task_failures.hpp"

namespace kinetic {

const char* to_string(TaskStage::Kind kind) {
  switch (kind) {
    case TaskStage::Kind::Move:
      return "move";
    case TaskStage::Kind::Approach:
      return "approach";
    case TaskStage::Kind::Grasp:
      return "grasp";
    case TaskStage::Kind::Lift:
      return "lift";
    case TaskStage::Kind::Transfer:
      return "transfer";
    case TaskStage::Kind::Place:
      return "place";
    case TaskStage::Kind::Release:
      return "release";
    case TaskStage::Kind::Retreat:
      return "retreat";
  }
  return "?";
}

namespace {

using namespace task_detail;

std::string quoted(const std::string& name) {
  return "\"" + name + "\"";
}

std::string position_text(const Pose& pose) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.3f, %.3f, %.3f) m", pose.translation().x(),
                pose.translation().y(), pose.translation().z());
  return text;
}

// The planner's scene is the request's again however plan_pick_and_place leaves.
class SceneRestorer {
 public:
  explicit SceneRestorer(Planner& planner) : planner_(planner), scene_(planner.scene()) {}
  ~SceneRestorer() {
    try {
      use_scene(planner_, scene_);
    } catch (...) {  // it was the planner's scene before: setting it again cannot fail in practice
    }
  }
  SceneRestorer(const SceneRestorer&) = delete;
  SceneRestorer& operator=(const SceneRestorer&) = delete;
  const PlanningScene& scene() const { return scene_; }

 private:
  Planner& planner_;
  PlanningScene scene_;
};

void require_distance(double value, const char* field) {
  if (std::isfinite(value) && value >= 0.0) return;
  char text[160];
  std::snprintf(text, sizeof text, "PickPlaceRequest::%s must be finite and >= 0 (got %g)", field,
                value);
  throw Error(ErrorCode::InvalidValue, text);
}

void require_step(double value, const char* field) {
  if (std::isfinite(value) && value > 0.0) return;
  char text[160];
  std::snprintf(text, sizeof text, "PickPlaceRequest::%s must be finite and > 0 (got %g)", field,
                value);
  throw Error(ErrorCode::InvalidValue, text);
}

// The straight stages' line settings. Collisions are always checked: the contacts the task needs
// are allowed in each stage's scene, so turning the check off would only let the arm through
// obstacles.
void validate_straight(const CartesianOptions& straight) {
  require_step(straight.max_translation_step, "straight.max_translation_step");
  require_step(straight.max_rotation_step, "straight.max_rotation_step");
  require_step(straight.jump_threshold, "straight.jump_threshold");
  require_distance(straight.margin, "straight.margin");
  if (!straight.avoid_collisions)
    throw Error(
        ErrorCode::InvalidValue,
        "PickPlaceRequest::straight.avoid_collisions must be true: the straight stages always "
        "check collisions (the contacts the task needs are allowed while they happen)",
        "leave it true; to let a link touch the object, name it in PickPlaceRequest::touch_links");
}

void validate_numbers(const PickPlaceRequest& request) {
  require_distance(request.approach_distance, "approach_distance");
  require_distance(request.lift_distance, "lift_distance");
  require_distance(request.place_distance, "place_distance");
  require_distance(request.retreat_distance, "retreat_distance");
  if (request.place_yaw_steps < 0 || request.place_yaw_steps > 360)
    throw Error(ErrorCode::InvalidValue,
                "PickPlaceRequest::place_yaw_steps must be between 0 and 360 (got " +
                    std::to_string(request.place_yaw_steps) + ")");
  if (request.max_grasps < 1)
    throw Error(ErrorCode::InvalidValue, "PickPlaceRequest::max_grasps must be at least 1 (got " +
                                             std::to_string(request.max_grasps) + ")");
  request.gripper.validate();
  request.options.validate();
  validate_straight(request.straight);
  validate_pose(request.place_pose, "PickPlaceRequest::place_pose");
}

const Obstacle& object_to_pick(const PlanningScene& scene, const std::string& name) {
  if (scene.has_attached(name))
    throw Error(ErrorCode::InvalidValue,
                "object " + quoted(name) + " is attached already (to " + scene.attached(name).link +
                    "): pick and place starts with it standing in the scene",
                "detach it first, or plan the rest of the motion with it held");
  if (!scene.has_obstacle(name)) {
    std::vector<std::string> names;
    for (const Obstacle& obstacle : scene.obstacles()) names.push_back(obstacle.name);
    throw Error(ErrorCode::InvalidValue, "the scene has no obstacle " + quoted(name) + " to pick",
                names.empty() ? "add the object to the scene first" : suggestion_hint(name, names));
  }
  return scene.obstacle(name);
}

void require_link(const RobotModel& model, const std::string& link, const std::string& field) {
  if (model.find_link(link) >= 0) return;
  std::vector<std::string> names;
  for (const Link& l : model.links()) names.push_back(l.name);
  throw Error(ErrorCode::MissingLink, "the robot has no link " + quoted(link) + " (" + field + ")",
              suggestion_hint(link, names));
}

// The place pose, then its rotations about world Z through the object's origin, without those
// that overlap another obstacle (Error(InCollision) naming them when none is left).
std::vector<PlaceTarget> place_targets(const TaskContext& context) {
  const PickPlaceRequest& request = context.request;
  const Obstacle& object = context.object;
  std::vector<PlaceTarget> targets;
  std::string overlaps_text;
  const int count = std::max(1, request.place_yaw_steps);
  for (int k = 0; k < count; ++k) {
    const double angle = 2.0 * std::numbers::pi * k / count;
    PlaceTarget target;
    target.pose = request.place_pose;
    target.pose.linear() =
        Eigen::AngleAxisd(angle, Vector3::UnitZ()).toRotationMatrix() * request.place_pose.linear();
    target.label =
        k == 0
            ? std::string("place pose as given")
            : "place pose turned " +
                  std::to_string(static_cast<int>(std::lround(angle * 180.0 / std::numbers::pi))) +
                  "°";
    const std::vector<Overlap> overlaps = context.bodies.overlapping(object.name, target.pose);
    if (!overlaps.empty()) {
      if (overlaps_text.empty())
        for (const Overlap& overlap : overlaps) {
          char depth[48];
          std::snprintf(depth, sizeof depth, " (%.1f mm deep)", overlap.depth * 1000.0);
          overlaps_text += (overlaps_text.empty() ? "" : ", ") + quoted(overlap.obstacle) + depth;
        }
      continue;
    }
    target.supports = context.bodies.touching(object.name, target.pose);
    target.check_scene = context.approach_scene;
    target.check_scene.move_obstacle(object.name, target.pose);
    targets.push_back(std::move(target));
  }
  if (targets.empty())
    throw Error(ErrorCode::InCollision,
                "at the place pose " + position_text(request.place_pose) + " " +
                    quoted(object.name) + " overlaps " + overlaps_text +
                    (count > 1 ? " (at every allowed rotation)" : ""),
                "move the place pose clear of them; resting on an obstacle (within 1 mm) is fine");
  return targets;
}

// generate_grasps, its errors naming the object: "object "part" is 0.12 m across ...".
std::vector<Grasp> grasps_for(const Obstacle& object, const GripperSpec& gripper) {
  try {
    return generate_grasps(object.shape, object.pose, gripper);
  } catch (const Error& error) {
    const std::string generic = "the object ", message = error.message();
    throw Error(error.code(),
                message.rfind(generic, 0) == 0
                    ? "object " + quoted(object.name) + " " + message.substr(generic.size())
                    : "object " + quoted(object.name) + ": " + message,
                error.hint());
  }
}

std::string candidate_text(const Grasp& grasp, std::size_t index, std::size_t count) {
  return "grasp " + std::to_string(index + 1) + "/" + std::to_string(count) + " (" +
         grasp.description + ")";
}

}  // namespace

PickPlaceResult plan_pick_and_place(Planner& planner, const JointVector& start,
                                    const PickPlaceRequest& request, const PlanControl& control) {
  const auto begin = std::chrono::steady_clock::now();
  SceneRestorer restorer(planner);
  const RobotModel& model = planner.model();
  validate_numbers(request);
  const PlanningScene& original = restorer.scene();
  const Obstacle& object = object_to_pick(original, request.object);
  const std::vector<Grasp> grasps = grasps_for(object, request.gripper);
  const std::string attach_link =
      request.attach_link.empty() ? planner.chain().tip_link() : request.attach_link;
  require_link(model, attach_link, "PickPlaceRequest::attach_link");
  if (request.touch_links)
    for (std::size_t i = 0; i < request.touch_links->size(); ++i)
      require_link(model, (*request.touch_links)[i],
                   "PickPlaceRequest::touch_links[" + std::to_string(i) + "]");
  planner.check_start(start);

  TaskContext context{planner,
                      request,
                      control,
                      start,
                      original,
                      object,
                      attach_link,
                      {},
                      {},
                      Pose::Identity(),
                      {},
                      {},
                      ObstacleBodies(planner.checker(), original)};
  context.touch_links =
      request.touch_links
          ? *request.touch_links
          : task_touch_links(planner.checker(), start, attach_link, planner.group_variables());
  context.gripper_links = context.touch_links;
  context.gripper_links.insert(context.gripper_links.begin(), attach_link);
  context.base_in_world = compute_link_pose(model, start, planner.chain().base_link());
  context.pick_supports = context.bodies.touching(object.name, object.pose);
  context.approach_scene = original;
  allow_with(context.approach_scene, object.name, context.gripper_links);
  const std::vector<PlaceTarget> places = place_targets(context);

  PickPlaceResult result;
  FailureTally failures;
  const std::size_t grasp_count =
      std::min(grasps.size(), static_cast<std::size_t>(request.max_grasps));
  const auto note = [&](const std::string& what, const StageFailure& failure, int candidates) {
    result.notes.push_back(what + ": " + failure.stage + ": " + failure.reason);
    failures.add(failure, candidates);
  };
  for (std::size_t g = 0; g < grasp_count; ++g) {
    check_cancel(control);
    const Grasp& grasp = grasps[g];
    const std::string grasp_text = candidate_text(grasp, g, grasp_count);
    ++result.grasps_tried;
    try {
      require_grasp_reachable(context, grasp);
    } catch (const StageFailure& failure) {
      note(grasp_text, failure, static_cast<int>(places.size()));
      continue;
    }
    std::vector<const PlaceTarget*> reachable;
    for (const PlaceTarget& place : places) {
      try {
        require_place_reachable(context, grasp, place);
        reachable.push_back(&place);
      } catch (const StageFailure& failure) {
        note(grasp_text + ", " + place.label, failure, 1);
      }
    }
    if (reachable.empty()) continue;
    PickStages pick;
    try {
      pick = plan_pick(context, grasp);
    } catch (const StageFailure& failure) {
      note(grasp_text, failure, static_cast<int>(reachable.size()));
      continue;
    }
    for (const PlaceTarget* place : reachable) {
      try {
        std::vector<TaskStage> rest = plan_place(context, grasp, pick, *place);
        result.stages = pick.stages;
        result.stages.insert(result.stages.end(), rest.begin(), rest.end());
        result.grasp = grasp;
        result.grasp_candidates = static_cast<int>(grasp_count);
        result.place_pose = place->pose;
        result.final_scene = original;
        result.final_scene.move_obstacle(object.name, place->pose);
        result.final_state = result.stages.back().path.back();
        result.planning_time_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin)
                .count();
        return result;
      } catch (const StageFailure& failure) {
        note(grasp_text + ", " + place->label, failure, 1);
      }
    }
  }
  const std::string most_common = failures.most_common();
  throw Error(ErrorCode::Unreachable,
              "no pick and place of " + quoted(object.name) +
                  " succeeded: " + std::to_string(failures.total()) + " candidates tried (" +
                  std::to_string(grasp_count) + " grasps x " + std::to_string(places.size()) +
                  " place poses); " + failures.summary(),
              hint_for_stage(most_common));
}

std::vector<std::string> task_touch_links(const CollisionChecker& checker, const JointVector& q,
                                          const std::string& link,
                                          const std::vector<int>& group_variables) {
  std::vector<std::string> links = default_touch_links(checker.model(), link, group_variables);
  for (const std::string& reaching :
       task_detail::links_at_origin_of(checker, checker.model(), q, link))
    if (std::find(links.begin(), links.end(), reaching) == links.end()) links.push_back(reaching);
  return links;
}

}  // namespace kinetic
