#include "engine/kinematics/kinematic_chain.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/core/error.hpp"
#include "engine/kinematics/joint_source.hpp"

namespace kinetic {
namespace {

// Per-segment scratch without heap allocation (chains are far shorter than this).
constexpr int kMaxSegments = 64;
using FrameBuffer = Eigen::Matrix<double, 3, Eigen::Dynamic, 0, 3, kMaxSegments>;

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "(none)" : out;
}

}  // namespace

KinematicChain::KinematicChain(RobotModelPtr model, const std::string& base_link,
                               const std::string& tip_link, const Pose& tip_offset)
    : model_(std::move(model)), base_link_(base_link), tip_link_(tip_link), tip_offset_(tip_offset) {
  if (!model_) throw Error(ErrorCode::InvalidValue, "KinematicChain needs a robot model, got null");
  const RobotModel& robot = *model_;
  const int base = robot.link_index(base_link);
  const int tip = robot.link_index(tip_link);

  // Joints from the tip up to the base, then reversed to base -> tip order.
  std::vector<int> path;
  for (int link = tip; link != base;) {
    const int joint = robot.links()[link].parent_joint;
    if (joint < 0)
      throw Error(ErrorCode::InvalidModel,
                  "link '" + tip_link + "' is not below link '" + base_link + "' in robot '" +
                      robot.name() + "', so they do not form a chain",
                  "choose a base link that is an ancestor of the tip link");
    path.push_back(joint);
    link = robot.joints()[joint].parent_link;
  }
  std::reverse(path.begin(), path.end());

  for (const int j : path) {
    const Joint& joint = robot.joints()[j];
    if (joint.is_active()) {
      variable_indices_.push_back(joint.variable_index);
      bounded_.push_back(joint.limits.has_position_limits && joint.type != JointType::Continuous);
    }
  }
  const JointVector model_lower = robot.lower_limits();
  const JointVector model_upper = robot.upper_limits();
  lower_.resize(dof());
  upper_.resize(dof());
  for (int i = 0; i < dof(); ++i) {
    lower_[i] = model_lower[variable_indices_[i]];
    upper_[i] = model_upper[variable_indices_[i]];
  }

  Pose pending = Pose::Identity();  // fixed transforms not yet folded into a segment
  anchors_.push_back({base, -1, Pose::Identity()});
  for (const int j : path) {
    const Joint& joint = robot.joints()[j];
    const detail::JointSource source = detail::resolve_joint_source(joint);
    const bool moves = source.variable >= 0 &&
                       (joint.type == JointType::Revolute || joint.type == JointType::Continuous ||
                        joint.type == JointType::Prismatic);
    if (!moves) {
      if (joint.type == JointType::Floating || joint.type == JointType::Planar)
        if (joint.variable_index >= 0)
          throw Error(ErrorCode::Unsupported,
                      "joint '" + joint.name + "' is floating or planar; chains support revolute, "
                      "continuous, prismatic and fixed joints");
      pending = pending * joint.origin;
    } else {
      const auto slot = std::find(variable_indices_.begin(), variable_indices_.end(), source.variable);
      if (slot == variable_indices_.end())
        throw Error(ErrorCode::InvalidModel,
                    "mimic joint '" + joint.name + "' follows a joint outside the chain " +
                        base_link + " -> " + tip_link,
                    "extend the chain to include the followed joint");
      Segment segment;
      const Pose origin = pending * joint.origin;
      segment.rotation = origin.linear();
      segment.translation = origin.translation();
      segment.identity_rotation = segment.rotation.isIdentity(0.0);
      segment.prismatic = joint.type == JointType::Prismatic;
      segment.axis = detail::JointAxis::classify(joint.axis);
      segment.slot = static_cast<int>(slot - variable_indices_.begin());
      segment.multiplier = source.multiplier;
      segment.offset = source.offset;
      segments_.push_back(segment);
      pending = Pose::Identity();
    }
    anchors_.push_back({joint.child_link, static_cast<int>(segments_.size()) - 1, pending});
  }
  if (static_cast<int>(segments_.size()) > kMaxSegments)
    throw Error(ErrorCode::Unsupported, "chain " + base_link + " -> " + tip_link + " has more than " +
                                            std::to_string(kMaxSegments) + " moving joints");
  const Pose tip_frame = pending * tip_offset_;
  tip_rotation_ = tip_frame.linear();
  tip_translation_ = tip_frame.translation();
}

KinematicChain KinematicChain::from_config(RobotModelPtr model, const std::string& group) {
  if (!model) throw Error(ErrorCode::InvalidValue, "KinematicChain needs a robot model, got null");
  const RobotConfig& config = model->config();
  std::vector<std::string> names;
  for (const auto& g : config.planning_groups) names.push_back(g.name);

  std::string base, tip, group_name;
  for (const auto& g : config.planning_groups) {
    if (!group.empty() && g.name != group) continue;
    group_name = g.name;
    base = g.base_link;
    tip = g.tip_link;
    if ((base.empty() || tip.empty()) && !g.joints.empty()) {
      // A joint list: the chain runs from the first joint's parent to the last joint's child.
      base = model->links()[model->joints()[model->joint_index(g.joints.front())].parent_link].name;
      tip = model->links()[model->joints()[model->joint_index(g.joints.back())].child_link].name;
    }
    break;
  }
  if (group_name.empty() && config.planning_groups.empty()) {
    for (const auto& g : model->semantic().groups) {  // no kinetic.toml groups: the SRDF's chains
      if ((!group.empty() && g.name != group) || g.chains.empty()) continue;
      group_name = g.name;
      base = g.chains.front().first;
      tip = g.chains.front().second;
      break;
    }
    for (const auto& g : model->semantic().groups) names.push_back(g.name);
  }
  if (group_name.empty() || base.empty() || tip.empty())
    throw Error(ErrorCode::InvalidModel,
                "robot '" + model->name() + "' has no planning group" +
                    (group.empty() ? std::string() : " '" + group + "'") +
                    " defined as a chain (known groups: " + joined(names) + ")",
                "add [planning_group.NAME] with base_link and tip_link to kinetic.toml, or build "
                "KinematicChain(model, base_link, tip_link)");

  for (const auto& ee : config.end_effectors) {
    if (ee.group != group_name && !(ee.group.empty() && config.end_effectors.size() == 1)) continue;
    if (!ee.parent_link.empty()) tip = ee.parent_link;
    return KinematicChain(std::move(model), base, tip, ee.tcp);
  }
  return KinematicChain(std::move(model), base, tip);
}

std::vector<std::string> KinematicChain::joint_names() const {
  std::vector<std::string> names;
  for (const int v : variable_indices_) names.push_back(model_->variable_joint(v).name);
  return names;
}

void KinematicChain::check(const JointVector& q) const {
  if (q.size() != dof())
    throw Error(ErrorCode::DimensionMismatch,
                "joint vector has " + std::to_string(q.size()) + " values, the chain " + base_link_ +
                    " -> " + tip_link_ + " has " + std::to_string(dof()) + " joints");
  if (!q.allFinite())
    throw Error(ErrorCode::InvalidValue, "joint vector contains NaN or infinite values");
}

template <bool kWithFrames>
void KinematicChain::forward(const double* q, Eigen::Matrix3d& rotation, Vector3& position,
                             Vector3* axes, Vector3* positions) const {
  rotation.setIdentity();
  position.setZero();
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& segment = segments_[i];
    if (i == 0) {
      rotation = segment.rotation;
      position = segment.translation;
    } else {
      position += rotation * segment.translation;
      if (!segment.identity_rotation) rotation = rotation * segment.rotation;
    }
    const double value = segment.multiplier * q[segment.slot] + segment.offset;
    if (segment.prismatic)
      detail::apply_translation(position, rotation, segment.axis, value);
    else
      detail::apply_rotation(rotation, segment.axis, value);
    if constexpr (kWithFrames) {
      axes[i] = rotation * segment.axis.axis;
      positions[i] = position;
    }
  }
}

Pose KinematicChain::fk(const JointVector& q) const {
  check(q);
  Eigen::Matrix3d rotation;
  Vector3 position;
  forward<false>(q.data(), rotation, position, nullptr, nullptr);
  Pose tip;
  tip.linear() = rotation * tip_rotation_;
  tip.translation() = position + rotation * tip_translation_;
  return tip;
}

void KinematicChain::fk_and_jacobian(const JointVector& q, Pose& tip, Jacobian& jacobian) const {
  check(q);
  Vector3 axes[kMaxSegments];
  Vector3 positions[kMaxSegments];
  Eigen::Matrix3d rotation;
  Vector3 position;
  forward<true>(q.data(), rotation, position, axes, positions);
  tip.linear() = rotation * tip_rotation_;
  tip.translation() = position + rotation * tip_translation_;
  const Vector3 end = tip.translation();
  jacobian.setZero(6, dof());
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment& segment = segments_[i];
    auto column = jacobian.col(segment.slot);
    if (segment.prismatic) {
      column.head<3>() += segment.multiplier * axes[i];
    } else {
      column.head<3>() += segment.multiplier * axes[i].cross(end - positions[i]);
      column.tail<3>() += segment.multiplier * axes[i];
    }
  }
}

Jacobian KinematicChain::jacobian(const JointVector& q) const {
  Pose tip;
  Jacobian result(6, dof());
  fk_and_jacobian(q, tip, result);
  return result;
}

const KinematicChain::LinkAnchor& KinematicChain::anchor(const std::string& link) const {
  const int index = model_->link_index(link);
  for (const auto& a : anchors_)
    if (a.link == index) return a;
  throw Error(ErrorCode::MissingLink,
              "link '" + link + "' is not on the chain " + base_link_ + " -> " + tip_link_,
              "use ForwardKinematics::link_jacobian for links off the chain");
}

Pose KinematicChain::link_pose(const JointVector& q, const std::string& link) const {
  check(q);
  const LinkAnchor& a = anchor(link);
  Pose frame = Pose::Identity();
  for (int i = 0; i <= a.segment; ++i) {
    const Segment& segment = segments_[i];
    Eigen::Matrix3d rotation = frame.linear();
    Vector3 position = frame.translation() + rotation * segment.translation;
    rotation = rotation * segment.rotation;
    const double value = segment.multiplier * q[segment.slot] + segment.offset;
    if (segment.prismatic)
      detail::apply_translation(position, rotation, segment.axis, value);
    else
      detail::apply_rotation(rotation, segment.axis, value);
    frame.linear() = rotation;
    frame.translation() = position;
  }
  return frame * a.offset;
}

Jacobian KinematicChain::jacobian_at(const JointVector& q, const std::string& link,
                                     const Vector3& point_in_link) const {
  check(q);
  const LinkAnchor& a = anchor(link);
  Vector3 axes[kMaxSegments];
  Vector3 positions[kMaxSegments];
  Eigen::Matrix3d rotation;
  Vector3 position;
  forward<true>(q.data(), rotation, position, axes, positions);
  const Vector3 point = link_pose(q, link) * point_in_link;
  Jacobian result = Jacobian::Zero(6, dof());
  for (int i = 0; i <= a.segment; ++i) {
    const Segment& segment = segments_[i];
    auto column = result.col(segment.slot);
    if (segment.prismatic) {
      column.head<3>() += segment.multiplier * axes[i];
    } else {
      column.head<3>() += segment.multiplier * axes[i].cross(point - positions[i]);
      column.tail<3>() += segment.multiplier * axes[i];
    }
  }
  return result;
}

std::vector<Pose> KinematicChain::fk_batch(const Eigen::MatrixXd& configurations) const {
  if (configurations.rows() != dof())
    throw Error(ErrorCode::DimensionMismatch,
                "configurations have " + std::to_string(configurations.rows()) + " rows, the chain has " +
                    std::to_string(dof()) + " joints",
                "pass one configuration per column");
  if (!configurations.allFinite())
    throw Error(ErrorCode::InvalidValue, "configurations contain NaN or infinite values");
  std::vector<Pose> poses(configurations.cols());
  for (Eigen::Index c = 0; c < configurations.cols(); ++c) {
    Eigen::Matrix3d rotation;
    Vector3 position;
    forward<false>(configurations.col(c).data(), rotation, position, nullptr, nullptr);
    poses[c].linear() = rotation * tip_rotation_;
    poses[c].translation() = position + rotation * tip_translation_;
  }
  return poses;
}

double KinematicChain::manipulability(const Jacobian& jacobian) {
  if (jacobian.cols() == 0) return 0.0;
  const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(jacobian).singularValues();
  return sigma.prod();  // = sqrt(det(J Jᵀ)) at 6+ DOF, sqrt(det(Jᵀ J)) below
}

double KinematicChain::condition_number(const Jacobian& jacobian) {
  if (jacobian.cols() == 0) return std::numeric_limits<double>::infinity();
  const Eigen::VectorXd sigma = Eigen::JacobiSVD<Eigen::MatrixXd>(jacobian).singularValues();
  const double smallest = sigma[sigma.size() - 1];
  return smallest > 0.0 ? sigma[0] / smallest : std::numeric_limits<double>::infinity();
}

double KinematicChain::manipulability(const JointVector& q) const { return manipulability(jacobian(q)); }

double KinematicChain::condition_number(const JointVector& q) const {
  return condition_number(jacobian(q));
}

JointVector KinematicChain::to_chain(const JointVector& q_model) const {
  if (q_model.size() != model_->dof())
    throw Error(ErrorCode::DimensionMismatch,
                "joint vector has " + std::to_string(q_model.size()) + " values, robot '" +
                    model_->name() + "' has " + std::to_string(model_->dof()) + " joint variables");
  JointVector q(dof());
  for (int i = 0; i < dof(); ++i) q[i] = q_model[variable_indices_[i]];
  return q;
}

void KinematicChain::to_model(const JointVector& q_chain, JointVector& q_model) const {
  check(q_chain);
  if (q_model.size() == 0) q_model = JointVector::Zero(model_->dof());
  if (q_model.size() != model_->dof())
    throw Error(ErrorCode::DimensionMismatch,
                "model joint vector has " + std::to_string(q_model.size()) + " values, robot '" +
                    model_->name() + "' has " + std::to_string(model_->dof()) + " joint variables");
  for (int i = 0; i < dof(); ++i) q_model[variable_indices_[i]] = q_chain[i];
}

}  // namespace kinetic
