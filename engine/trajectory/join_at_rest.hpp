#pragma once
// Joining motions that each start and end at rest into one trajectory: the robot stops between
// them (where a job attaches or releases an object, between the stages of a pick and place).
#include <vector>

#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

// Trajectories of the same joints, each starting where the one before ends and all at rest at
// both ends, one after the other: each later one is shifted in time to start where the one before
// ends (that instant holds two samples, the deceleration's end and the next acceleration's start).
Trajectory join_at_rest(const std::vector<Trajectory>& runs);

}  // namespace kinetic
