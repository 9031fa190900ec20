#include "app/headless/job_pick_place.hpp"

#include <sstream>

#include "app/headless/job_motion_settings.hpp"
#include "app/headless/job_scene_steps.hpp"

namespace kinetic::app::headless {

using job_json::Fields;

namespace {

constexpr double kMaxDistance = 5.0;  // m: longer straight moves are surely a typo

std::string metres(double value) {
  std::ostringstream text;
  text << value << " m";
  return text.str();
}

// A pick and place plans its own moves: settings that choose a motion step's way would go unused.
void refuse_motion_fields(const Fields& s) {
  for (const char* key : {"goal", "constraints"})
    if (s.has(key))
      throw JobError(
          s.at(key),
          std::string("a pick_place step plans its own moves (free-space to the grasp and to the "
                      "place, straight lines for the approach, lift, place and retreat), so "
                      "it takes no \"") +
              key + "\"");
  // The motion steps' parser does not know the key; a pick and place says why it has none.
  if (s.has("cartesian") && s.value("cartesian").toObject().contains("avoid_collisions"))
    throw JobError(s.at("cartesian") + ".avoid_collisions",
                   "a pick_place step's straight stages always avoid collisions (the contacts the "
                   "task needs, the gripper with the object and the object with what it stands on, "
                   "are allowed while they happen); leave it out, and name the links that may "
                   "touch the object in \"touch_links\"");
  if (s.has("timing") && s.text("timing") != to_string(Timing::TimeOptimal))
    throw JobError(
        s.at("timing"),
        "a pick_place step is timed time_optimal, stage by stage, coming to rest where it "
        "grasps and releases; \"" +
            s.text("timing") + "\" is not available for it (leave \"timing\" out)");
}

GripperSpec parse_gripper(const Fields& f) {
  GripperSpec gripper;
  const std::string type = f.text("type", "parallel");
  if (type == "suction")
    gripper.kind = GripperSpec::Kind::Suction;
  else if (type != "parallel")
    throw JobError(f.at("type"), "expected \"parallel\" or \"suction\", got \"" + type + "\"");
  if (gripper.kind == GripperSpec::Kind::Suction)
    for (const char* key : {"max_opening", "min_opening", "finger_depth"})
      if (f.has(key))
        throw JobError(f.at(key), std::string("a suction gripper has no fingers: \"") + key +
                                      "\" goes with \"type\": \"parallel\"");
  gripper.max_opening = f.number("max_opening", gripper.max_opening, 1e-4, 2.0);
  gripper.min_opening = f.number("min_opening", gripper.min_opening, 0.0, 2.0);
  if (gripper.min_opening > gripper.max_opening)
    throw JobError(f.at("min_opening"), "must not exceed \"max_opening\" (" +
                                            metres(gripper.max_opening) +
                                            "): it is the narrowest span the fingers hold");
  gripper.finger_depth = f.number("finger_depth", gripper.finger_depth, 0.0, 1.0);
  gripper.yaw_steps = f.integer("yaw_steps", gripper.yaw_steps, 1, 360);
  return gripper;
}

PickPlaceSpec parse_pick_place(const Fields& f) {
  PickPlaceSpec spec;
  spec.field = f.path();
  PickPlaceRequest& request = spec.request;
  request.object = f.required_text("object");
  if (!f.has("place"))
    throw JobError(
        f.at("place"),
        "missing (where the object goes: { \"xyz\", \"rpy\" | \"quaternion\" }, world frame)");
  const Fields place(f.value("place"), f.at("place"), {"xyz", "rpy", "quaternion"});
  if (!place.has("xyz"))
    throw JobError(place.at("xyz"),
                   "missing (the object's position when placed, world frame, metres)");
  request.place_pose = job_json::parse_pose(place);
  request.place_yaw_steps = f.integer("place_yaw_steps", request.place_yaw_steps, 0, 360);
  if (f.has("gripper"))
    request.gripper =
        parse_gripper(Fields(f.value("gripper"), f.at("gripper"),
                             {"type", "max_opening", "min_opening", "finger_depth", "yaw_steps"}));
  request.approach_distance =
      f.number("approach_distance", request.approach_distance, 0.0, kMaxDistance);
  request.lift_distance = f.number("lift_distance", request.lift_distance, 0.0, kMaxDistance);
  request.place_distance = f.number("place_distance", request.place_distance, 0.0, kMaxDistance);
  request.retreat_distance =
      f.number("retreat_distance", request.retreat_distance, 0.0, kMaxDistance);
  request.attach_link = f.text("attach_link");
  // Left out: the engine's default; []: only the attach link touches the object.
  if (f.has("touch_links")) request.touch_links = parse_link_list(f, "touch_links");
  request.max_grasps = f.integer("max_grasps", request.max_grasps, 1, 10000);
  return spec;
}

}  // namespace

bool is_pick_place_step(const Fields& step_fields) {
  return step_fields.has("pick_place");
}

void parse_pick_place_step(const Fields& step_fields, StepSpec& step) {
  refuse_motion_fields(step_fields);
  step.pick_place = parse_pick_place(
      Fields(step_fields.value("pick_place"), step_fields.at("pick_place"),
             {"object", "place", "place_yaw_steps", "gripper", "approach_distance", "lift_distance",
              "place_distance", "retreat_distance", "attach_link", "touch_links", "max_grasps"}));
}

void check_pick_place_settings(const Fields& s, const StepSpec& step) {
  if (step.cartesian)
    throw JobError(s.has("planner") ? s.at("planner") : "defaults.planner",
                   std::string("a pick_place step plans its free-space stages with a free-space "
                               "planner; \"") +
                       kCartesianPlanner +
                       "\" moves are its straight stages already (set them with \"cartesian\")" +
                       (s.has("planner") ? ""
                                         : ": give " + step.field +
                                               " its own \"planner\", e.g. \"rrt_connect\""));
  if (step.min_fraction < 1.0)
    throw JobError(s.at("cartesian") + ".min_fraction",
                   "a pick_place step completes its straight stages whole (the approach must "
                   "reach the grasp); leave \"min_fraction\" out");
}

QJsonObject pick_place_defaults(const QJsonValue& defaults) {
  QJsonObject taken;
  const QJsonObject all = defaults.toObject();
  for (const std::string& key : kPickPlaceDefaults)
    if (all.contains(QString::fromStdString(key)))
      taken.insert(QString::fromStdString(key), all.value(QString::fromStdString(key)));
  // A Cartesian motion step may stop part way; a pick and place's straight stages may not.
  if (taken.value("cartesian").isObject()) {
    QJsonObject cartesian = taken.value("cartesian").toObject();
    cartesian.remove("min_fraction");
    taken.insert("cartesian", cartesian);
  }
  return taken;
}

}  // namespace kinetic::app::headless
