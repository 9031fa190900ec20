#include "app/headless/job_scene_steps.hpp"

namespace kinetic::app::headless {

using job_json::Fields;

namespace {

SceneChangeSpec parse_change(const Fields& step_fields, SceneChangeSpec::Kind kind) {
  const std::string key = to_string(kind);
  const std::string field = step_fields.at(key);
  const QJsonValue value = step_fields.value(key);
  SceneChangeSpec change;
  change.kind = kind;
  change.object_field = change.link_field = change.touch_links_field = field;
  if (value.isString()) {
    change.object = step_fields.text(key);
    return change;
  }
  const bool attach = kind == SceneChangeSpec::Kind::Attach;
  if (!value.isObject())
    throw JobError(field, std::string("expected the object's name or { \"object\"") +
                              (attach ? ", \"link\", \"touch_links\"" : "") + " }, got " +
                              job_json::type_name(value));
  const Fields f(value, field,
                 attach ? std::vector<std::string>{"object", "link", "touch_links"}
                        : std::vector<std::string>{"object"});
  change.object = f.required_text("object");
  change.object_field = f.at("object");
  change.link = f.text("link");
  change.link_field = f.at("link");
  if (f.has("touch_links")) change.touch_links = parse_link_list(f, "touch_links");
  change.touch_links_field = f.at("touch_links");
  return change;
}

}  // namespace

std::vector<std::string> parse_link_list(const Fields& f, const std::string& key) {
  const QJsonValue value = f.value(key);
  if (!value.isArray())
    throw JobError(f.at(key), std::string("expected an array of link names, got ") +
                                  job_json::type_name(value));
  std::vector<std::string> links;
  const QJsonArray array = value.toArray();
  for (int i = 0; i < array.size(); ++i) {
    const std::string field = f.at(key) + "[" + std::to_string(i) + "]";
    if (!array[i].isString() || array[i].toString().isEmpty())
      throw JobError(field,
                     std::string("expected a link name, got ") + job_json::type_name(array[i]));
    links.push_back(job_json::str(array[i].toString()));
  }
  return links;
}

const char* to_string(SceneChangeSpec::Kind kind) {
  return kind == SceneChangeSpec::Kind::Attach ? "attach" : "detach";
}

bool is_scene_step(const Fields& step_fields) {
  return step_fields.has("attach") || step_fields.has("detach");
}

void parse_scene_step(const Fields& step_fields, const std::vector<std::string>& motion_fields,
                      StepSpec& step) {
  if (step_fields.has("attach") && step_fields.has("detach"))
    throw JobError(
        step_fields.at("detach"),
        "a step either attaches or detaches: give \"attach\" and \"detach\" in steps of their own");
  const auto kind =
      step_fields.has("attach") ? SceneChangeSpec::Kind::Attach : SceneChangeSpec::Kind::Detach;
  // The robot rests while the scene changes: motion settings here would be silently unused.
  for (const std::string& key : motion_fields)
    if (step_fields.has(key))
      throw JobError(step_fields.at(key), std::string("a scene step (\"") + to_string(kind) +
                                              "\") does not move the robot, so it takes no \"" +
                                              key + "\"; give the motion a step of its own");
  step.scene_change = parse_change(step_fields, kind);
}

}  // namespace kinetic::app::headless
