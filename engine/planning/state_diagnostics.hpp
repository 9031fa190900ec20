#pragma once
// Why a start or goal state cannot be planned from or to, as a ready-to-throw kinetic::Error:
// which joints are outside their limits, which links collide with what.
#include <optional>
#include <string>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"

namespace kinetic {

// what: "start state", "goal state", ... (the message starts with it).
std::optional<Error> limits_problem(const RobotModel& model, const JointVector& q,
                                    const std::string& what);
std::optional<Error> collision_problem(CollisionChecker& checker, const JointVector& q,
                                       const std::string& what);
// "'forearm_link' with 'table' (8.0 mm deep), ..." (at most three pairs, then how many more).
std::string describe_contacts(const std::vector<Contact>& contacts);

}  // namespace kinetic
