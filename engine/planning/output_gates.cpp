#include "engine/planning/output_gates.hpp"

#include <sstream>

namespace kinetic {

namespace {
constexpr double kSelfGateResolution = 0.01;  // rad
}  // namespace

std::optional<std::string> limits_gate(const RobotModel& model, const JointPath& path) {
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i].size() != model.dof()) return "waypoint " + std::to_string(i) + " has the wrong size";
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

std::optional<std::string> collision_gate(CollisionChecker& checker, const JointPath& path) {
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (checker.in_collision(path[i])) {
      const auto contacts = checker.contacts(path[i]);
      std::string what = "waypoint " + std::to_string(i) + " is in collision";
      if (!contacts.empty()) what += " ('" + contacts.front().body_a + "' with '" + contacts.front().body_b + "')";
      return what;
    }
    if (i == 0) continue;
    // Obstacles: the conservative continuous check (no obstacle can be stepped over). Self
    // collision: a fine discrete check — links of one arm sit permanently within the continuous
    // check's contact tolerance of each other in many poses, which it would report as contact.
    if (!checker.motion_valid_continuous(path[i - 1], path[i], {0.0, false, true}))
      return "segment " + std::to_string(i - 1) + " -> " + std::to_string(i) +
             " fails the continuous collision check against the scene";
    if (!checker.motion_valid_discrete(path[i - 1], path[i], kSelfGateResolution, {0.0, true, false}))
      return "segment " + std::to_string(i - 1) + " -> " + std::to_string(i) + " self-collides";
  }
  return std::nullopt;
}

}  // namespace kinetic
