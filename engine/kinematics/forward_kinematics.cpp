#include "engine/kinematics/forward_kinematics.hpp"

#include <cmath>
#include <deque>
#include <string>

#include "engine/core/error.hpp"
#include "engine/kinematics/fast_sincos.hpp"
#include "engine/kinematics/joint_source.hpp"

namespace kinetic {
namespace {

constexpr int kFrameSize = 16;  // one 4×4 column-major frame (Eigen::Isometry3d's layout)
alignas(16) constexpr double kIdentityFrame[kFrameSize] = {1, 0, 0, 0, 0, 1, 0, 0,
                                                           0, 0, 1, 0, 0, 0, 0, 1};

}  // namespace

ForwardKinematics::ForwardKinematics(const RobotModel& model)
    : dof_(model.dof()),
      link_count_(static_cast<int>(model.links().size())),
      root_(model.root_link()) {
  if (root_ < 0 || root_ >= link_count_)
    throw Error(ErrorCode::InvalidModel, "robot '" + model.name() + "' has no root link");
  step_of_link_.assign(link_count_, -1);
  // Breadth-first from the root: every parent link is placed before its children.
  std::deque<int> pending{root_};
  std::vector<detail::TreeKernelJoint> tree_joints;
  while (!pending.empty()) {
    const Link& link = model.links()[pending.front()];
    pending.pop_front();
    for (const int joint_index : link.child_joints) {
      const Joint& joint = model.joints()[joint_index];
      Step step;
      step.parent_link = joint.parent_link;
      step.child_link = joint.child_link;
      const detail::JointSource source = detail::resolve_joint_source(joint);
      step.variable = source.variable;
      step.multiplier = source.multiplier;
      step.offset = source.offset;
      detail::StepMotion motion = detail::StepMotion::Fixed;
      switch (joint.type) {
        case JointType::Revolute:
        case JointType::Continuous:
          if (source.variable >= 0) motion = detail::StepMotion::Revolute;
          break;
        case JointType::Prismatic:
          if (source.variable >= 0) motion = detail::StepMotion::Prismatic;
          break;
        case JointType::Fixed:
          break;
        case JointType::Floating:
        case JointType::Planar:
          if (joint.variable_index >= 0)
            throw Error(
                ErrorCode::Unsupported,
                "joint '" + joint.name +
                    "' is floating or planar, which forward kinematics "
                    "does not support",
                "make the joint fixed, or model it as a chain of prismatic and revolute joints");
          break;
      }
      if (motion == detail::StepMotion::Fixed) step.variable = -1;
      detail::TreeKernelJoint tree_joint;
      tree_joint.parent_link = step.parent_link;
      tree_joint.child_link = step.child_link;
      tree_joint.origin = joint.origin;
      tree_joint.axis = joint.axis;
      tree_joint.kind =
          motion == detail::StepMotion::Revolute    ? detail::TreeKernelJoint::Kind::Revolute
          : motion == detail::StepMotion::Prismatic ? detail::TreeKernelJoint::Kind::Prismatic
                                                    : detail::TreeKernelJoint::Kind::Fixed;
      tree_joint.variable = step.variable;
      tree_joint.multiplier = step.multiplier;
      tree_joint.offset = step.offset;
      tree_joints.push_back(tree_joint);
      step.frame = detail::FrameStep::make(joint.origin, joint.axis, motion);
      step_of_link_[step.child_link] = static_cast<int>(steps_.size());
      steps_.push_back(step);
      pending.push_back(joint.child_link);
    }
  }
  tree_kernel_ = detail::make_tree_kernel(tree_joints, link_count_, root_);
}

void ForwardKinematics::throw_bad_configuration(const JointVector& q) const {
  if (q.size() != dof_)
    throw Error(ErrorCode::DimensionMismatch, "joint vector has " + std::to_string(q.size()) +
                                                  " values, the robot has " + std::to_string(dof_) +
                                                  " joint variables");
  throw Error(ErrorCode::InvalidValue, "joint vector contains NaN or infinite values");
}

// The tree kernel writes every entry of every link's pose straight into the Pose storage.
void ForwardKinematics::compute_unchecked(const double* q, std::vector<Pose>& out) const {
  static_assert(sizeof(Pose) == kFrameSize * sizeof(double), "Pose must be a plain 4x4 frame");
  out.resize(link_count_);
  tree_kernel_(q, out.data()->data());
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
  Pose pose = Pose::Identity();
  alignas(16) double frames[2][kFrameSize];
  const double* parent = kIdentityFrame;
  int n = 0;
  for (const int index : path_to(link)) {
    const Step& step = steps_[index];
    const double value = step.value(q.data());
    double sine, cosine;
    detail::fast_sincos(value, sine, cosine);
    double* child = frames[n++ & 1];
    detail::apply_step(step.frame, parent, child, value, sine, cosine);
    parent = child;
  }
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 3; ++r) pose.data()[4 * c + r] = parent[4 * c + r];
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
  std::vector<double> frames(kFrameSize * path.size());
  const double* parent = kIdentityFrame;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Step& step = steps_[path[i]];
    const double value = step.value(q.data());
    double sine, cosine;
    detail::fast_sincos(value, sine, cosine);
    double* child = frames.data() + kFrameSize * i;
    detail::apply_step(step.frame, parent, child, value, sine, cosine);
    parent = child;
  }
  Vector3 point;
  for (int r = 0; r < 3; ++r)
    point[r] = parent[12 + r] + ((parent[r] * point_in_link[0] + parent[4 + r] * point_in_link[1]) +
                                 parent[8 + r] * point_in_link[2]);
  Jacobian jacobian = Jacobian::Zero(6, dof_);
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Step& step = steps_[path[i]];
    if (step.frame.motion == detail::StepMotion::Fixed) continue;
    const double* frame = frames.data() + kFrameSize * i;
    Vector3 axis;
    step.frame.world_axis(frame, axis.data());
    if (step.frame.motion == detail::StepMotion::Revolute) {
      const Vector3 position(frame[12], frame[13], frame[14]);
      jacobian.col(step.variable).head<3>() += step.multiplier * axis.cross(point - position);
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
