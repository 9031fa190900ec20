#pragma once
// The two gates every path passes before a planner returns it (model order, full configurations):
// every waypoint within the joint limits, and every segment collision-free: against the scene by
// the checker's continuous (conservative, clearance-based) motion check, against itself by the
// continuous self check (conservative advancement per link pair) — or, for comparison, a discrete
// self check every 0.01 rad. They answer with the first violation in words, or nothing when the
// path passes.
#include <optional>
#include <string>

#include "engine/collision/collision_checker.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

enum class SelfGateMode {
  Continuous,  // no pair comes closer than the checker's contact tolerance (1 mm) past its padding
  Discrete,    // every 0.01 rad: faster links can skip a thin overlap between two states
};

std::optional<std::string> limits_gate(const RobotModel& model, const JointPath& path);
std::optional<std::string> collision_gate(CollisionChecker& checker, const JointPath& path,
                                          SelfGateMode self_mode = SelfGateMode::Continuous);

}  // namespace kinetic
