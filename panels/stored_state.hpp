#pragma once
// A stored state: a joint configuration the user keeps under a name of their own ("above bin",
// "home for cell 2"), beside the robot's named poses, to recall as the current state or the goal.
// Values are kept by joint name, not by position, so a reloaded robot (or one whose URDF gained a
// joint) is matched joint by joint and a state that no longer fits is said to, never half applied.
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/robot_model.hpp"

namespace kinetic::panels {

struct StoredState {
  QString name;
  // (joint name, value in rad or m), in the robot's variable order when stored.
  std::vector<std::pair<std::string, double>> joints;
  bool operator==(const StoredState&) const = default;
};

// The state of `q` (one value per variable of `robot`) under `name`.
StoredState stored_state_of(const RobotModel& robot, const QString& name, const JointVector& q);

// How a stored state fits a robot: its joint vector when it gives a value for every moving joint
// of the robot and names no other joint; else the joints in the way, for the message.
struct StoredStateFit {
  std::optional<JointVector> joints;
  QStringList unknown_joints;  // named by the state, not moving joints of the robot
  QStringList missing_joints;  // moving joints of the robot the state gives no value for
};
StoredStateFit fit_stored_state(const RobotModel& robot, const StoredState& state);

// Why a state does not fit ("names joint 'x' that robot 'panda' does not have; gives no value for
// 'y'"), a clause without a final full stop; "" when it fits.
QString stored_state_misfit(const RobotModel& robot, const StoredStateFit& fit);

// "state N" with the smallest N >= 1 that no state in `states` is named.
QString next_stored_state_name(const std::vector<StoredState>& states);

// The index of the state named `name`, or -1.
int find_stored_state(const std::vector<StoredState>& states, const QString& name);

}  // namespace kinetic::panels
