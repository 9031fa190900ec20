#include "app/headless/job_motion_settings.hpp"

#include "engine/core/error.hpp"

namespace kinetic::app::headless {

using job_json::Fields;
using job_json::vec3;

void parse_cartesian_settings(const Fields& step_fields, StepSpec& step) {
  if (!step_fields.has("cartesian")) return;
  const Fields f(step_fields.value("cartesian"), step_fields.at("cartesian"),
                 {"translation_step", "rotation_step", "jump_threshold", "margin", "min_fraction",
                  "closed_form_ik"});
  CartesianOptions& o = step.cartesian_options;
  o.max_translation_step = f.number("translation_step", o.max_translation_step, 1e-5, 0.1);
  o.max_rotation_step = f.number("rotation_step", o.max_rotation_step, 1e-5, 0.5);
  o.jump_threshold = f.number("jump_threshold", o.jump_threshold, 1e-4, 10.0);
  o.margin = f.number("margin", o.margin, 0.0, 1.0);
  o.closed_form_ik = f.flag("closed_form_ik", o.closed_form_ik);
  step.min_fraction = f.number("min_fraction", step.min_fraction, 0.0, 1.0);
}

void parse_constraints(const Fields& step_fields, StepSpec& step) {
  if (!step_fields.has("constraints")) return;
  const Fields f(step_fields.value("constraints"), step_fields.at("constraints"),
                 {"orientation", "position", "joints"});
  PathConstraints constraints;
  step.orientation_from_start = false;
  if (f.has("orientation")) {
    const Fields o(f.value("orientation"), f.at("orientation"), {"tolerance", "rpy", "quaternion"});
    if (!o.has("tolerance"))
      throw JobError(o.at("tolerance"),
                     "missing (the largest rotation away from the orientation, radians)");
    OrientationConstraint orientation;
    orientation.tolerance = o.number("tolerance", 0.0, 1e-4, 3.14159);
    if (o.has("rpy") || o.has("quaternion"))
      orientation.orientation = Quaternion(job_json::parse_pose(o).linear());
    else
      step.orientation_from_start = true;
    constraints.orientation = orientation;
  }
  if (f.has("position")) {
    const Fields p(f.value("position"), f.at("position"), {"min", "max"});
    if (!p.has("min") || !p.has("max"))
      throw JobError(
          p.path(),
          "needs \"min\" and \"max\": [x, y, z] in metres, the TCP's box in the base frame");
    PositionConstraint box;
    box.lower = vec3(p.numbers("min", 3, "min"));
    box.upper = vec3(p.numbers("max", 3, "max"));
    for (int axis = 0; axis < 3; ++axis)
      if (box.lower[axis] > box.upper[axis])
        throw JobError(
            p.path(), "\"min\" must not exceed \"max\" (axis " + std::string(1, "xyz"[axis]) + ")");
    constraints.position = box;
  }
  if (f.has("joints")) {
    const QJsonValue v = f.value("joints");
    if (!v.isArray() || v.toArray().isEmpty())
      throw JobError(f.at("joints"),
                     "expected a non-empty array of { \"joint\", \"min\", \"max\" }");
    const QJsonArray list = v.toArray();
    for (int i = 0; i < list.size(); ++i) {
      const Fields j(list[i], f.at("joints") + "[" + std::to_string(i) + "]",
                     {"joint", "min", "max"});
      JointRangeConstraint range;
      range.joint = j.required_text("joint");
      if (!j.has("min") || !j.has("max"))
        throw JobError(j.path(), "needs \"min\" and \"max\" (rad or m)");
      range.lower = j.number("min", 0.0, -1e6, 1e6);
      range.upper = j.number("max", 0.0, -1e6, 1e6);
      if (range.lower > range.upper) throw JobError(j.path(), "\"min\" must not exceed \"max\"");
      constraints.joints.push_back(range);
    }
  }
  if (constraints.empty())
    throw JobError(f.path(), "give at least one of \"orientation\", \"position\" or \"joints\"");
  step.constraints = constraints;
}

void parse_arc_goal(const Fields& goal_fields, StepSpec& step) {
  const Fields f(goal_fields.value("arc"), goal_fields.at("arc"), {"center", "axis", "angle"});
  for (const char* key : {"center", "axis", "angle"})
    if (!f.has(key))
      throw JobError(f.at(key),
                     "missing (an arc needs \"center\" [x, y, z], \"axis\" [x, y, z] and \"angle\" "
                     "in radians)");
  const Vector3 axis = vec3(f.numbers("axis", 3, "axis"));
  if (axis.norm() < 1e-9) throw JobError(f.at("axis"), "a zero vector is not an axis");
  const double angle = f.number("angle", 0.0, -100.0, 100.0);
  if (angle == 0.0)
    throw JobError(f.at("angle"), "must not be 0 (radians about the axis, right-handed)");
  step.goal_kind = StepSpec::GoalKind::Arc;
  step.arc =
      CartesianSegment::arc(vec3(f.numbers("center", 3, "center")), axis.normalized(), angle);
}

void check_motion_settings(const StepSpec& step) {
  if (step.cartesian) {
    if (step.goal_kind == StepSpec::GoalKind::Joints || step.goal_kind == StepSpec::GoalKind::Named)
      throw JobError(
          step.field_of(".goal"),
          "a Cartesian step moves the TCP, so it needs a \"pose\", \"relative\" or \"arc\" goal "
          "(for a joint goal give this step a free-space \"planner\", e.g. \"rrt_connect\")");
    if (!step.constraints.empty())
      throw JobError(step.field_of(".constraints"),
                     "a Cartesian step follows its own line; constraints go with free-space steps");
    return;
  }
  if (step.goal_kind == StepSpec::GoalKind::Arc)
    throw JobError(step.field_of(".goal.arc"),
                   "an arc is a Cartesian move: give the step \"planner\": \"cartesian\"");
  if (!step.constraints.empty() && step.options.planner != PlannerType::RrtConnect)
    throw JobError(
        step.field_of(".constraints"),
        std::string("constrained steps are planned by RRT-Connect with projection, not ") +
            to_string(step.options.planner) + ": give the step \"planner\": \"rrt_connect\"");
}

}  // namespace kinetic::app::headless
