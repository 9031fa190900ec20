#include "engine/planning/state_diagnostics.hpp"

#include <algorithm>
#include <cstdio>

namespace kinetic {

std::optional<Error> limits_problem(const RobotModel& model, const JointVector& q,
                                    const std::string& what) {
  model.validate(q);  // size and finiteness: DimensionMismatch / InvalidValue
  const JointVector lower = model.lower_limits(), upper = model.upper_limits();
  std::string joints;
  int count = 0;
  for (int j = 0; j < model.dof(); ++j) {
    if (!model.variable_joint(j).limits.has_position_limits) continue;
    if (q[j] >= lower[j] - 1e-9 && q[j] <= upper[j] + 1e-9) continue;
    char line[256];
    std::snprintf(line, sizeof line, "joint '%s' = %.4f is outside its limits [%.4f, %.4f]",
                  model.variable_joint(j).name.c_str(), q[j], lower[j], upper[j]);
    joints += (count++ ? "; " : "") + std::string(line);
  }
  if (count == 0) return std::nullopt;
  return Error(
      ErrorCode::OutOfLimits, what + ": " + joints,
      "move the joint" + std::string(count > 1 ? "s" : "") + " inside the limits before planning");
}

std::string describe_contacts(const std::vector<Contact>& contacts) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(contacts.size(), 3);
  for (std::size_t i = 0; i < shown; ++i) {
    char depth[64];
    if (contacts[i].depth < 5e-5)  // would print as 0.0 mm
      std::snprintf(depth, sizeof depth, " (touching)");
    else
      std::snprintf(depth, sizeof depth, " (%.1f mm deep)", contacts[i].depth * 1000.0);
    out += (i ? ", '" : "'") + contacts[i].body_a + "' with '" + contacts[i].body_b + "'" + depth;
  }
  if (contacts.size() > shown) out += " and " + std::to_string(contacts.size() - shown) + " more";
  return out;
}

std::optional<Error> collision_problem(CollisionChecker& checker, const JointVector& q,
                                       const std::string& what) {
  // Exactly: a state within the checker's refinement margin of an obstacle (a grasp) is free.
  if (!checker.in_collision(q)) return std::nullopt;
  const std::vector<Contact> contacts = checker.contacts(q);
  const std::string pairs =
      contacts.empty() ? std::string("(contact pairs unavailable)") : describe_contacts(contacts);
  const RobotModel& model = checker.model();
  const bool only_links =
      !contacts.empty() && std::all_of(contacts.begin(), contacts.end(), [&](const Contact& c) {
        return model.find_link(c.body_a) >= 0 && model.find_link(c.body_b) >= 0;
      });
  if (only_links)
    // Links whose collision shapes overlap in every pose make every plan fail this way; a URDF
    // without an SRDF names no such pairs (MoveIt users get them from the Setup Assistant).
    return Error(ErrorCode::InCollision, what + " is in self-collision: " + pairs,
                 "move the joints apart; if these links touch in every pose (a URDF without an "
                 "SRDF lists no "
                 "pairs to skip), generate the pairs to skip: Tools → Generate collision matrix in "
                 "the studio, "
                 "or [collision] skip_pairs in the robot's kinetic.toml");
  return Error(
      ErrorCode::InCollision, what + " is in collision: " + pairs,
      "move the robot or the obstacle apart, or allow the pair if the contact is intended: add it "
      "to the scene's \"allowed\" list, or in the studio right-click the pair in the Collisions "
      "panel → Allow contact");
}

}  // namespace kinetic
