#include "engine/task/grasp_generation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "engine/core/error.hpp"
#include "engine/scene/planning_scene.hpp"
#include "engine/task/grasp_candidates.hpp"

namespace kinetic {

namespace {

constexpr int kMaxYawSteps = 360;

std::string metres(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g m", value);
  return text;
}

void require_gripper_field(bool ok, const char* field, const std::string& rule, double value) {
  if (ok) return;
  char text[64];
  std::snprintf(text, sizeof text, "%g", value);
  throw Error(ErrorCode::InvalidValue,
              std::string("GripperSpec::") + field + " must be " + rule + " (got " + text + ")");
}

// The spans a parallel gripper could close across: box extents, a cylinder's diameter and length,
// a sphere's diameter.
std::vector<double> spans(const Shape& shape) {
  switch (shape.type) {
    case Shape::Type::Box:
      return {shape.box_size.x(), shape.box_size.y(), shape.box_size.z()};
    case Shape::Type::Cylinder:
      return {2.0 * shape.radius, shape.length};
    case Shape::Type::Sphere:
      return {2.0 * shape.radius};
    default:
      return {};
  }
}

// No span fits: say how the object and the gripper's range miss each other.
[[noreturn]] void throw_no_span(const std::vector<double>& object_spans,
                                const GripperSpec& gripper) {
  const double narrowest = *std::min_element(object_spans.begin(), object_spans.end());
  const double widest = *std::max_element(object_spans.begin(), object_spans.end());
  if (narrowest > gripper.max_opening)
    throw Error(ErrorCode::InvalidValue,
                "the object is " + metres(narrowest) +
                    " across at its narrowest; the gripper opens " + metres(gripper.max_opening) +
                    " (GripperSpec::max_opening)",
                "use a gripper that opens wider, a suction gripper, or a smaller object");
  if (widest < gripper.min_opening)
    throw Error(ErrorCode::InvalidValue,
                "the object is " + metres(widest) +
                    " across at its widest; the gripper closes to no less than " +
                    metres(gripper.min_opening) + " (GripperSpec::min_opening)",
                "use a gripper that closes further, or a suction gripper");
  throw Error(ErrorCode::InvalidValue,
              "no span of the object lies between the gripper's min_opening " +
                  metres(gripper.min_opening) + " and max_opening " + metres(gripper.max_opening) +
                  " (the object's spans are " + metres(narrowest) + " to " + metres(widest) + ")",
              "widen the gripper's opening range, or use a suction gripper");
}

// Where the approach comes from, seen in the world: straight down (from above) is 1, from the side
// 0, straight up (from below) -1.
double downward(const Pose& object_pose, const Grasp& grasp) {
  const double value = -(object_pose.linear() * grasp.approach()).z();
  return std::round(value * 1e9) / 1e9;  // equal directions tie exactly, whatever the rounding
}

const char* direction_words(double down) {
  if (down > std::sqrt(0.5) - 1e-9) return "from above";
  if (down < -std::sqrt(0.5) + 1e-9) return "from below";
  return "from the side";
}

}  // namespace

void GripperSpec::validate() const {
  require_gripper_field(kind == Kind::Parallel || kind == Kind::Suction, "kind",
                        "Parallel or Suction", static_cast<double>(kind));
  require_gripper_field(std::isfinite(max_opening) && max_opening > 0.0, "max_opening",
                        "finite and > 0", max_opening);
  require_gripper_field(std::isfinite(min_opening) && min_opening >= 0.0, "min_opening",
                        "finite and >= 0", min_opening);
  require_gripper_field(min_opening <= max_opening, "min_opening",
                        "at most max_opening (" + metres(max_opening) + ")", min_opening);
  require_gripper_field(std::isfinite(finger_depth) && finger_depth >= 0.0, "finger_depth",
                        "finite and >= 0", finger_depth);
  require_gripper_field(yaw_steps >= 1 && yaw_steps <= kMaxYawSteps, "yaw_steps",
                        "between 1 and " + std::to_string(kMaxYawSteps), yaw_steps);
}

std::vector<Grasp> generate_grasps(const Shape& object, const Pose& object_pose,
                                   const GripperSpec& gripper) {
  gripper.validate();
  object.validate();
  validate_pose(object_pose, "object pose");
  using namespace grasp_detail;
  std::vector<Grasp> grasps;
  const bool suction = gripper.kind == GripperSpec::Kind::Suction;
  switch (object.type) {
    case Shape::Type::Box:
      grasps =
          suction ? box_suction(object.box_size, gripper) : box_parallel(object.box_size, gripper);
      break;
    case Shape::Type::Cylinder:
      grasps = suction ? cylinder_suction(object.length, gripper)
                       : cylinder_parallel(object.radius, object.length, gripper);
      break;
    case Shape::Type::Sphere:
      if (suction)
        throw Error(ErrorCode::Unsupported,
                    "a suction cup cannot hold a sphere: it has no flat face to seal on",
                    "use a parallel gripper for spheres");
      grasps = sphere_parallel(object.radius, object_pose.linear(), gripper);
      break;
    case Shape::Type::Mesh:
    case Shape::Type::HalfSpace:
      throw Error(ErrorCode::Unsupported,
                  std::string("no grasps are generated for a ") + to_string(object.type) +
                      " object: only boxes, cylinders and spheres",
                  "model the object as a box, cylinder or sphere for picking");
  }
  if (grasps.empty()) throw_no_span(spans(object), gripper);

  for (Grasp& grasp : grasps) {
    const double down = downward(object_pose, grasp);
    // Ties (the same direction): the TCP nearer the object's centre, the narrower span.
    grasp.score = down - 0.05 * (grasp.object_to_tcp.translation().norm() + grasp.width);
    grasp.description = std::string(direction_words(down)) + ", " + grasp.description;
  }
  std::stable_sort(grasps.begin(), grasps.end(),
                   [](const Grasp& a, const Grasp& b) { return a.score > b.score; });
  return grasps;
}

}  // namespace kinetic
