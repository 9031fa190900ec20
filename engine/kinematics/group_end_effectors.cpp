#include "engine/kinematics/group_end_effectors.hpp"

#include <algorithm>

#include "engine/core/error.hpp"
#include "engine/kinematics/kinematic_chain.hpp"

namespace kinetic {

namespace {

bool forms_a_chain(const RobotModelPtr& model, const std::string& group) {
  try {
    (void)KinematicChain::from_config(model, group);
    return true;
  } catch (const Error& error) {
    if (error.code() != ErrorCode::InvalidModel) throw;
    return false;
  }
}

}  // namespace

std::vector<GroupEndEffector> group_end_effectors(const RobotModelPtr& model,
                                                  const std::vector<int>& group_variables) {
  std::vector<GroupEndEffector> found;
  for (const SrdfEndEffector& ee : model->semantic().end_effectors) {
    const std::string& arm = ee.parent_group;
    if (arm.empty()) continue;
    const std::vector<int> arm_variables = model->group_variables(arm);
    const bool inside = std::all_of(arm_variables.begin(), arm_variables.end(), [&](int v) {
      return std::find(group_variables.begin(), group_variables.end(), v) != group_variables.end();
    });
    if (inside && !arm_variables.empty() && forms_a_chain(model, arm))
      found.push_back({ee.name, arm});
  }
  return found;
}

}  // namespace kinetic
