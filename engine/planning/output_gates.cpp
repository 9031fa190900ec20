#include "engine/planning/output_gates.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace kinetic {

namespace {
constexpr double kSelfGateResolution = 0.01;  // rad (SelfGateMode::Discrete)

std::string waypoint_in_collision(CollisionChecker& checker, const JointPath& path, std::size_t i) {
  const auto contacts = checker.contacts(path[i]);
  std::string what = "waypoint " + std::to_string(i) + " is in collision";
  if (!contacts.empty())
    what += " ('" + contacts.front().body_a + "' with '" + contacts.front().body_b + "')";
  return what;
}

std::string segment_name(std::size_t i) {
  return "segment " + std::to_string(i - 1) + " -> " + std::to_string(i);
}
}  // namespace

std::optional<std::string> limits_gate(const RobotModel& model, const JointPath& path) {
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i].size() != model.dof())
      return "waypoint " + std::to_string(i) + " has the wrong size";
    for (int j = 0; j < model.dof(); ++j) {
      if (!model.variable_joint(j).limits.has_position_limits) continue;
      if (path[i][j] < lower[j] - 1e-9 || path[i][j] > upper[j] + 1e-9) {
        std::ostringstream s;
        s << "waypoint " << i << ": joint '" << model.variable_joint(j).name << "' = " << path[i][j]
          << " is outside [" << lower[j] << ", " << upper[j] << "]";
        return s.str();
      }
    }
  }
  return std::nullopt;
}

// Every state is checked: waypoint 0 in full; then per segment
// - Continuous: one conservative-advancement walk over the self pairs and the (link, obstacle)
//   pairs together (one FK per state looked at), each pair's clearance carried along the path,
//   and each waypoint in full;
// - Discrete: the continuous scene check per segment (which checks both of its ends against the
//   scene) and the self check of every state of the walk after its start.
std::optional<std::string> collision_gate(CollisionChecker& checker, const JointPath& path,
                                          SelfGateMode self_mode) {
  if (path.empty()) return std::nullopt;
  const CheckOptions scene_only{0.0, false, true}, self_only{0.0, true, false},
      both{0.0, true, true};
  if (self_mode == SelfGateMode::Continuous) {
    // path_begin checks waypoint 0 in full.
    if (!checker.path_begin(path[0], both)) return waypoint_in_collision(checker, path, 0);
    for (std::size_t i = 1; i < path.size(); ++i) {
      if (checker.path_advance(path[i])) continue;
      // Pairs of one arm often sit within a millimetre of each other: the walk steps past them
      // at the tolerance instead of calling that contact, and reports only states that fail
      // in_collision's own test.
      const CollisionChecker::PathContact contact = checker.path_contact();
      if (contact.body_a.empty() || checker.in_collision(path[i]))
        return waypoint_in_collision(checker, path, i);
      const std::string pair = " ('" + contact.body_a + "' with '" + contact.body_b + "')";
      if (contact.scene)
        return segment_name(i) + " fails the continuous collision check against the scene" + pair;
      return segment_name(i) + " self-collides" + pair;
    }
    return std::nullopt;
  }
  if (checker.in_collision(path[0])) return waypoint_in_collision(checker, path, 0);
  for (std::size_t i = 1; i < path.size(); ++i) {
    const JointVector& q0 = path[i - 1];
    const JointVector& q1 = path[i];
    // Obstacles: the conservative continuous check (no obstacle can be stepped over).
    if (!checker.motion_valid_continuous(q0, q1, scene_only)) {
      if (checker.in_collision(q1, scene_only)) return waypoint_in_collision(checker, path, i);
      return segment_name(i) + " fails the continuous collision check against the scene";
    }
    const JointVector dq = q1 - q0;
    const int steps =
        std::max(1, static_cast<int>(std::ceil(dq.cwiseAbs().maxCoeff() / kSelfGateResolution)));
    for (int s = 1; s < steps; ++s)
      if (checker.in_collision(q0 + dq * (static_cast<double>(s) / steps), self_only))
        return segment_name(i) + " self-collides";
    if (checker.in_collision(q1, self_only)) return waypoint_in_collision(checker, path, i);
  }
  return std::nullopt;
}

}  // namespace kinetic
