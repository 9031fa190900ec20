#include "engine/trajectory/trajectory_limits.hpp"

#include <cmath>
#include <limits>
#include <sstream>

#include "engine/core/error.hpp"
#include "engine/model/robot_model.hpp"

namespace kinetic {

TrajectoryLimits TrajectoryLimits::from_model(const RobotModel& model,
                                              const std::vector<int>& variables) {
  std::vector<int> chosen = variables;
  if (chosen.empty())
    for (int v = 0; v < model.dof(); ++v) chosen.push_back(v);
  const auto n = static_cast<Eigen::Index>(chosen.size());
  TrajectoryLimits limits;
  limits.robot = model.name();
  limits.velocity.resize(n);
  limits.acceleration.resize(n);
  limits.jerk.resize(n);
  limits.lower.resize(n);
  limits.upper.resize(n);
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < n; ++i) {
    const int variable = chosen[static_cast<std::size_t>(i)];
    if (variable < 0 || variable >= model.dof())
      throw Error(ErrorCode::InvalidValue, "variable index " + std::to_string(variable) +
                                               " is outside robot '" + model.name() + "' (" +
                                               std::to_string(model.dof()) + " variables)");
    const Joint& joint = model.variable_joint(variable);
    const JointLimits& l = joint.limits;
    limits.joint_names.push_back(joint.name);
    limits.units.push_back(joint.type == JointType::Prismatic ? PositionUnit::Metre
                                                              : PositionUnit::Radian);
    limits.velocity[i] = l.velocity;
    limits.acceleration[i] =
        l.acceleration > 0.0 ? l.acceleration : kDefaultAccelerationFactor * l.velocity;
    limits.jerk[i] = l.jerk > 0.0 ? l.jerk : kDefaultJerkFactor * limits.acceleration[i];
    const bool bounded = l.has_position_limits && joint.type != JointType::Continuous;
    limits.lower[i] = bounded ? l.lower : -inf;
    limits.upper[i] = bounded ? l.upper : inf;
  }
  limits.check();
  return limits;
}

TrajectoryLimits TrajectoryLimits::uniform(int dof, double velocity, double acceleration,
                                           double jerk) {
  if (dof <= 0) throw Error(ErrorCode::InvalidValue, "trajectory limits need at least one joint");
  TrajectoryLimits limits;
  for (int j = 0; j < dof; ++j) {
    limits.joint_names.push_back("joint_" + std::to_string(j + 1));
    limits.units.push_back(PositionUnit::Radian);
  }
  limits.velocity = JointVector::Constant(dof, velocity);
  limits.acceleration = JointVector::Constant(dof, acceleration);
  limits.jerk = JointVector::Constant(dof, jerk);
  limits.lower = JointVector::Constant(dof, -std::numeric_limits<double>::infinity());
  limits.upper = JointVector::Constant(dof, std::numeric_limits<double>::infinity());
  limits.check();
  return limits;
}

void TrajectoryLimits::check() const {
  const auto n = static_cast<Eigen::Index>(joint_names.size());
  if (n == 0) throw Error(ErrorCode::InvalidValue, "trajectory limits name no joints");
  const auto sized = [n](const JointVector& v) { return v.size() == n; };
  if (units.size() != joint_names.size() || !sized(velocity) || !sized(acceleration) ||
      !sized(jerk) || !sized(lower) || !sized(upper))
    throw Error(ErrorCode::DimensionMismatch,
                "trajectory limits for " + std::to_string(n) +
                    " joints have vectors of another size (units, velocity, acceleration, jerk, "
                    "lower, upper must all have one value per joint)");
  for (Eigen::Index j = 0; j < n; ++j) {
    const std::string& name = joint_names[static_cast<std::size_t>(j)];
    const auto positive = [&](double value, const char* what, const std::string& where) {
      if (!(value > 0.0) || !std::isfinite(value)) {
        std::ostringstream text;
        text << what << " limit of joint '" << name << "' is " << value;
        throw Error(ErrorCode::InvalidValue, text.str(),
                    "it must be a positive finite number: set it " + where);
      }
    };
    positive(velocity[j], "velocity", "in the URDF, <limit velocity=\"...\"> of the joint");
    positive(acceleration[j], "acceleration",
             "in kinetic.toml, [limits.acceleration] " + name + " = ...");
    positive(jerk[j], "jerk", "in kinetic.toml, [limits.jerk] " + name + " = ...");
    if (std::isnan(lower[j]) || std::isnan(upper[j]) || lower[j] > upper[j])
      throw Error(ErrorCode::InvalidValue, "position limits of joint '" + name + "' are [" +
                                               std::to_string(lower[j]) + ", " +
                                               std::to_string(upper[j]) + "]");
  }
  const auto scaling = [](double value, const char* what) {
    if (!(value >= kMinScaling && value <= 1.0)) {
      std::ostringstream text, hint;
      text << what << " scaling is " << value;
      hint << "scaling factors must be in [" << kMinScaling << ", 1] (" << kMinScaling
           << ": a thousand times slower than the limits allow)";
      throw Error(ErrorCode::InvalidValue, text.str(), hint.str());
    }
  };
  scaling(velocity_scaling, "velocity");
  scaling(acceleration_scaling, "acceleration");
}

void check_path(const JointPath& path, const TrajectoryLimits& limits) {
  limits.check();
  if (path.empty())
    throw Error(ErrorCode::InvalidValue, "the path has no waypoints", "give at least one waypoint");
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i].size() != limits.dof())
      throw Error(ErrorCode::DimensionMismatch,
                  "waypoint " + std::to_string(i) + " has " + std::to_string(path[i].size()) +
                      " values, the limits have " + std::to_string(limits.dof()) + " joints");
    for (Eigen::Index j = 0; j < path[i].size(); ++j)
      if (!std::isfinite(path[i][j]))
        throw Error(ErrorCode::InvalidValue, "waypoint " + std::to_string(i) + ": joint '" +
                                                 limits.joint_names[static_cast<std::size_t>(j)] +
                                                 "' is not finite");
  }
}

JointPath remove_duplicate_waypoints(const JointPath& path, std::vector<std::size_t>* map_to_kept,
                                     double tolerance) {
  const std::vector<std::size_t> indices = distinct_waypoints(path, map_to_kept, tolerance);
  JointPath kept;
  kept.reserve(indices.size());
  for (std::size_t i : indices) kept.push_back(path[i]);
  return kept;
}

std::vector<std::size_t> distinct_waypoints(const JointPath& path,
                                            std::vector<std::size_t>* map_to_kept,
                                            double tolerance) {
  std::vector<std::size_t> kept;
  kept.reserve(path.size());
  if (map_to_kept) {
    map_to_kept->clear();
    map_to_kept->reserve(path.size());
  }
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (kept.empty() || (path[i] - path[kept.back()]).cwiseAbs().maxCoeff() > tolerance)
      kept.push_back(i);
    if (map_to_kept) map_to_kept->push_back(kept.size() - 1);
  }
  return kept;
}

}  // namespace kinetic
