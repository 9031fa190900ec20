#include "engine/kinematics/forward_kinematics.hpp"

#include <cmath>
#include <deque>
#include <string>

#include "engine/core/error.hpp"
#include "engine/kinematics/joint_source.hpp"

namespace kinetic {

ForwardKinematics::ForwardKinematics(const RobotModel& model)
    : dof_(model.dof()),
      link_count_(static_cast<int>(model.links().size())),
      root_(model.root_link()) {
  if (root_ < 0 || root_ >= link_count_)
    throw Error(ErrorCode::InvalidModel, "robot '" + model.name() + "' has no root link");
  step_of_link_.assign(link_count_, -1);
  // Breadth-first from the root: every parent link is placed before its children.
  std::deque<int> pending{root_};
  while (!pending.empty()) {
    const Link& link = model.links()[pending.front()];
    pending.pop_front();
    for (const int joint_index : link.child_joints) {
      const Joint& joint = model.joints()[joint_index];
      Step step;
      step.parent_link = joint.parent_link;
      step.child_link = joint.child_link;
      step.rotation = joint.origin.linear();
      step.translation = joint.origin.translation();
      step.identity_rotation = step.rotation.isIdentity(0.0);
      step.axis = detail::JointAxis::classify(joint.axis);
      const detail::JointSource source = detail::resolve_joint_source(joint);
      step.variable = source.variable;
      step.multiplier = source.multiplier;
      step.offset = source.offset;
      switch (joint.type) {
        case JointType::Revolute:
        case JointType::Continuous:
        case JointType::Prismatic:
          step.type = source.variable >= 0 ? joint.type : JointType::Fixed;
          break;
        case JointType::Fixed:
          step.type = JointType::Fixed;
          break;
        case JointType::Floating:
        case JointType::Planar:
          if (joint.variable_index >= 0)
            throw Error(ErrorCode::Unsupported,
                        "joint '" + joint.name + "' is floating or planar, which forward kinematics "
                        "does not support",
                        "make the joint fixed, or model it as a chain of prismatic and revolute joints");
          step.type = JointType::Fixed;
          break;
      }
      if (step.type == JointType::Continuous) step.type = JointType::Revolute;
      step_of_link_[step.child_link] = static_cast<int>(steps_.size());
      steps_.push_back(step);
      pending.push_back(joint.child_link);
    }
  }
}

void ForwardKinematics::check(const JointVector& q) const {
  if (q.size() != dof_)
    throw Error(ErrorCode::DimensionMismatch,
                "joint vector has " + std::to_string(q.size()) + " values, the robot has " +
                    std::to_string(dof_) + " joint variables");
  if (!q.allFinite())
    throw Error(ErrorCode::InvalidValue, "joint vector contains NaN or infinite values");
}

void ForwardKinematics::apply_step(const Step& step, const double* q,
                                   const Eigen::Matrix3d& parent_rotation,
                                   const Vector3& parent_position, Eigen::Matrix3d& rotation,
                                   Vector3& position) const {
  position = parent_position + parent_rotation * step.translation;
  if (step.identity_rotation)
    rotation = parent_rotation;
  else
    rotation = parent_rotation * step.rotation;
  if (step.type == JointType::Fixed) return;
  const double value = step.multiplier * q[step.variable] + step.offset;
  if (step.type == JointType::Revolute)
    detail::apply_rotation(rotation, step.axis, value);
  else
    detail::apply_translation(position, rotation, step.axis, value);
}

void ForwardKinematics::compute_unchecked(const double* q, std::vector<Pose>& out) const {
  out.resize(link_count_);
  out[root_].setIdentity();
  for (const Step& step : steps_) {
    const Pose& parent = out[step.parent_link];
    Eigen::Matrix3d rotation;
    Vector3 position;
    apply_step(step, q, parent.linear(), parent.translation(), rotation, position);
    Pose& child = out[step.child_link];
    child.linear() = rotation;
    child.translation() = position;
  }
}

void ForwardKinematics::compute(const JointVector& q, std::vector<Pose>& out) const {
  check(q);
  compute_unchecked(q.data(), out);
}

std::vector<int> ForwardKinematics::path_to(int link) const {
  if (link < 0 || link >= link_count_)
    throw Error(ErrorCode::MissingLink, "link index " + std::to_string(link) +
                                            " is out of range (the robot has " +
                                            std::to_string(link_count_) + " links)");
  std::vector<int> path;
  for (int step = step_of_link_[link]; step >= 0; step = step_of_link_[steps_[step].parent_link])
    path.push_back(step);
  return {path.rbegin(), path.rend()};
}

Pose ForwardKinematics::link_pose(const JointVector& q, int link) const {
  check(q);
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Vector3 position = Vector3::Zero();
  for (const int step : path_to(link)) {
    const Eigen::Matrix3d parent_rotation = rotation;
    const Vector3 parent_position = position;
    apply_step(steps_[step], q.data(), parent_rotation, parent_position, rotation, position);
  }
  Pose pose = Pose::Identity();
  pose.linear() = rotation;
  pose.translation() = position;
  return pose;
}

void ForwardKinematics::compute_batch(const Eigen::MatrixXd& configurations,
                                      std::vector<std::vector<Pose>>& out) const {
  if (configurations.rows() != dof_)
    throw Error(ErrorCode::DimensionMismatch,
                "configurations have " + std::to_string(configurations.rows()) +
                    " rows, the robot has " + std::to_string(dof_) + " joint variables",
                "pass one configuration per column");
  if (!configurations.allFinite())
    throw Error(ErrorCode::InvalidValue, "configurations contain NaN or infinite values");
  out.resize(configurations.cols());
  for (Eigen::Index c = 0; c < configurations.cols(); ++c)
    compute_unchecked(configurations.col(c).data(), out[c]);
}

Jacobian ForwardKinematics::link_jacobian(const JointVector& q, int link,
                                          const Vector3& point_in_link) const {
  check(q);
  const std::vector<int> path = path_to(link);
  // Joint frames (= child link frames) along the path, then the point in the root frame.
  std::vector<Eigen::Matrix3d> rotations(path.size());
  std::vector<Vector3> positions(path.size());
  Eigen::Matrix3d rotation = Eigen::Matrix3d::Identity();
  Vector3 position = Vector3::Zero();
  for (std::size_t i = 0; i < path.size(); ++i) {
    apply_step(steps_[path[i]], q.data(), rotation, position, rotations[i], positions[i]);
    rotation = rotations[i];
    position = positions[i];
  }
  const Vector3 point = position + rotation * point_in_link;
  Jacobian jacobian = Jacobian::Zero(6, dof_);
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Step& step = steps_[path[i]];
    if (step.type == JointType::Fixed) continue;
    const Vector3 axis = rotations[i] * step.axis.axis;
    if (step.type == JointType::Revolute) {
      jacobian.col(step.variable).head<3>() += step.multiplier * axis.cross(point - positions[i]);
      jacobian.col(step.variable).tail<3>() += step.multiplier * axis;
    } else {
      jacobian.col(step.variable).head<3>() += step.multiplier * axis;
    }
  }
  return jacobian;
}

void compute_link_poses(const RobotModel& model, const JointVector& q, std::vector<Pose>& out) {
  ForwardKinematics(model).compute(q, out);
}

std::vector<Pose> compute_link_poses(const RobotModel& model, const JointVector& q) {
  std::vector<Pose> out;
  compute_link_poses(model, q, out);
  return out;
}

Pose compute_link_pose(const RobotModel& model, const JointVector& q, const std::string& link) {
  return ForwardKinematics(model).link_pose(q, model.link_index(link));
}

}  // namespace kinetic
