#pragma once
// Where a joint's value comes from: its own variable, or (mimic joints, resolved by the loader
// through chains of mimics) effective_multiplier * source variable + effective_offset.
#include "engine/model/robot_model.hpp"

namespace kinetic::detail {

struct JointSource {
  int variable = -1;  // -1: the joint does not move (fixed)
  double multiplier = 1.0;
  double offset = 0.0;
};

inline JointSource resolve_joint_source(const Joint& joint) {
  if (!joint.is_moving()) return {};
  if (joint.is_active()) return {joint.variable_index, 1.0, 0.0};
  if (joint.mimic && joint.mimic_source_variable >= 0)
    return {joint.mimic_source_variable, joint.mimic->effective_multiplier,
            joint.mimic->effective_offset};
  return {};
}

}  // namespace kinetic::detail
