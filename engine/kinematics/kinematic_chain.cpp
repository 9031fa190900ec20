#include "engine/kinematics/kinematic_chain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include "engine/core/small_decompositions.hpp"

#include "engine/core/error.hpp"
#include "engine/kinematics/fast_sincos.hpp"
#include "engine/kinematics/joint_source.hpp"

namespace kinetic {
namespace {

// Per-segment scratch without heap allocation (chains are far shorter than this).
constexpr int kMaxSegments = 64;

bool descends(const RobotModel& model, const std::string& base, const std::string& tip) {
  try {
    model.chain_joints(base, tip);
    return true;
  } catch (const Error&) {
    return false;
  }
}

// An SRDF group given as a joint list (MoveIt's usual form) as a chain: from the parent of its
// joint nearest the root to the child of its deepest joint, when every listed joint lies on that
// path (a branching list is no chain). Empty when the joints do not form one.
std::pair<std::string, std::string> chain_of_joint_list(const RobotModel& model,
                                                        const std::vector<std::string>& names) {
  std::vector<int> joints;
  for (const std::string& name : names) {
    if (const int joint = model.find_joint(name); joint >= 0) {
      joints.push_back(joint);
      continue;
    }
    // An SRDF virtual joint: the planar base's joints where it is planned, else no joint at all.
    for (const char* part : {"/x", "/y", "/theta"})
      if (const int joint = model.find_joint(name + part); joint >= 0) joints.push_back(joint);
  }
  if (joints.empty()) return {};
  const auto depth = [&](int joint) {
    int d = 0;
    for (int link = model.joints()[joint].parent_link; model.links()[link].parent_joint >= 0;
         link = model.joints()[model.links()[link].parent_joint].parent_link)
      ++d;
    return d;
  };
  const auto [shallow, deep] = std::minmax_element(
      joints.begin(), joints.end(), [&](int a, int b) { return depth(a) < depth(b); });
  const std::string base = model.links()[model.joints()[*shallow].parent_link].name;
  const std::string tip = model.links()[model.joints()[*deep].child_link].name;
  if (!descends(model, base, tip)) return {};
  const std::vector<int> path = model.chain_joints(base, tip);
  for (int j : joints)
    if (std::find(path.begin(), path.end(), j) == path.end()) return {};
  return {base, tip};
}

// A robot with no groups at all (a bare URDF): its movable joints as one chain, from the root link
// to the last joint's child, carried on through a single line of fixed links (the flange, tool0).
// Empty when the movable joints branch (two arms, a gripper's fingers).
std::pair<std::string, std::string> whole_robot_chain(const RobotModel& model) {
  std::vector<std::string> active;
  for (int v = 0; v < model.dof(); ++v) active.push_back(model.variable_joint(v).name);
  if (active.empty()) return {};
  auto [base, tip] = chain_of_joint_list(model, active);
  if (base.empty()) return {};
  for (const Link* link = &model.link(tip); link->child_joints.size() == 1;) {
    const Joint& next = model.joints()[link->child_joints.front()];
    if (next.is_moving()) break;
    link = &model.links()[next.child_link];
    tip = link->name;
  }
  return {model.links()[model.root_link()].name, tip};
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out.empty() ? "(none)" : out;
}

}  // namespace

KinematicChain::KinematicChain(RobotModelPtr model, const std::string& base_link,
                               const std::string& tip_link, const Pose& tip_offset)
    : model_(std::move(model)),
      base_link_(base_link),
      tip_link_(tip_link),
      tip_offset_(tip_offset) {
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
  Eigen::Matrix3d logical = Eigen::Matrix3d::Identity();  // true rotation = physical * logical
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
                      "joint '" + joint.name +
                          "' is floating or planar; chains support revolute, "
                          "continuous, prismatic and fixed joints");
      pending = pending * joint.origin;
    } else {
      const auto slot =
          std::find(variable_indices_.begin(), variable_indices_.end(), source.variable);
      if (slot == variable_indices_.end())
        throw Error(ErrorCode::InvalidModel,
                    "mimic joint '" + joint.name + "' follows a joint outside the chain " +
                        base_link + " -> " + tip_link,
                    "extend the chain to include the followed joint");
      const bool prismatic = joint.type == JointType::Prismatic;
      const Pose origin = pending * joint.origin;
      const detail::FrameStep step = detail::FrameStep::make(
          origin, joint.axis,
          prismatic ? detail::StepMotion::Prismatic : detail::StepMotion::Revolute);
      Segment segment;
      const Vector3 translation = logical * origin.translation();
      for (int r = 0; r < 3; ++r) segment.translation[r] = translation[r];
      if (step.permuted) {
        Eigen::Matrix3d permutation = Eigen::Matrix3d::Zero();  // the snapped origin rotation
        for (int c = 0; c < 3; ++c) permutation(step.source[c], c) = step.sign[c];
        logical = logical * permutation;  // exact: entries are 0 and ±1
      } else {
        segment.has_pre = true;
        const Eigen::Matrix3d pre = logical * origin.linear();
        for (int c = 0; c < 3; ++c)
          for (int r = 0; r < 3; ++r) segment.pre[3 * c + r] = pre(r, c);
        logical.setIdentity();
      }
      // Q Rot(u, a) = Rot(Q u, a) Q: the joint turns the physical frame about logical * u.
      const Vector3 axis = logical * step.axis.axis;
      for (int r = 0; r < 3; ++r) segment.axis[r] = axis[r];
      if (prismatic) {
        segment.motion = Motion::Slide;
      } else if (step.axis.kind == detail::AxisKind::General) {
        segment.motion = Motion::RotateGeneral;
      } else {
        int physical = 0;
        for (int r = 0; r < 3; ++r)
          if (axis[r] != 0.0) physical = r;
        segment.motion = static_cast<Motion>(physical);
        segment.angle_sign = axis[physical];
      }
      segment.slot = static_cast<int>(slot - variable_indices_.begin());
      segment.multiplier = source.multiplier;
      segment.offset = source.offset;
      segment.logical = logical;
      segments_.push_back(segment);
      pending = Pose::Identity();
    }
    anchors_.push_back({joint.child_link, static_cast<int>(segments_.size()) - 1, pending});
  }
  if (static_cast<int>(segments_.size()) > kMaxSegments)
    throw Error(ErrorCode::Unsupported, "chain " + base_link + " -> " + tip_link +
                                            " has more than " + std::to_string(kMaxSegments) +
                                            " moving joints");
  Pose tip_from_physical = Pose::Identity();
  tip_from_physical.linear() = logical;
  const Pose tip_from_last = tip_from_physical * pending * tip_offset_;
  tip_step_ = detail::FrameStep::make(tip_from_last, Vector3::UnitZ(), detail::StepMotion::Fixed);

  std::vector<detail::TipKernelInput> kernel_joints;
  for (const Segment& s : segments_) {
    if (s.has_pre || (s.motion != Motion::RotateX && s.motion != Motion::RotateY &&
                      s.motion != Motion::RotateZ)) {
      kernel_joints.clear();
      break;
    }
    kernel_joints.push_back({{s.translation[0], s.translation[1], s.translation[2]},
                             static_cast<int>(s.motion),
                             s.angle_sign,
                             s.multiplier,
                             s.offset,
                             s.slot});
  }
  if (!kernel_joints.empty()) tip_kernel_ = detail::make_tip_kernel(kernel_joints, tip_from_last);
}

GroupChain group_chain(const RobotModel& model, const std::string& group) {
  const RobotConfig& config = model.config();
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
      base = model.links()[model.joints()[model.joint_index(g.joints.front())].parent_link].name;
      tip = model.links()[model.joints()[model.joint_index(g.joints.back())].child_link].name;
    }
    break;
  }
  if (group_name.empty() && config.planning_groups.empty()) {
    // No kinetic.toml groups: the SRDF's, given as a chain or as a joint list that forms one.
    for (const auto& g : model.semantic().groups) {
      if (!group.empty() && g.name != group) continue;
      std::tie(base, tip) =
          g.chains.empty() ? chain_of_joint_list(model, g.joints) : g.chains.front();
      if (base.empty()) continue;
      group_name = g.name;
      break;
    }
    for (const auto& g : model.semantic().groups) names.push_back(g.name);
  }
  if (group.empty() && names.empty()) {
    std::tie(base, tip) = whole_robot_chain(model);
    if (!base.empty()) return {"", base, tip, Pose::Identity()};
    throw Error(ErrorCode::InvalidModel,
                "robot '" + model.name() +
                    "' defines no planning group, and its movable joints do not form one chain",
                "name the arm's chain: add [planning_group.NAME] with base_link and tip_link to "
                "kinetic.toml, "
                "or a group to the SRDF");
  }
  if (group_name.empty() || base.empty() || tip.empty())
    throw Error(ErrorCode::InvalidModel,
                "robot '" + model.name() + "' has no planning group" +
                    (group.empty() ? std::string() : " '" + group + "'") +
                    " defined as a chain (known groups: " + joined(names) + ")",
                "add [planning_group.NAME] with base_link and tip_link to kinetic.toml, or a chain "
                "group to the SRDF");

  for (const auto& ee : config.end_effectors) {
    if (ee.group != group_name && !(ee.group.empty() && config.end_effectors.size() == 1)) continue;
    if (!ee.parent_link.empty()) tip = ee.parent_link;
    return {group_name, base, tip, ee.tcp};
  }
  // An SRDF end effector on this group (MoveIt's tip, e.g. the Panda's panda_hand_tcp) extends
  // the chain to its parent link through the fixed joints past the last moving one.
  if (config.end_effectors.empty())
    for (const auto& ee : model.semantic().end_effectors)
      if ((ee.parent_group == group_name || (ee.parent_group.empty() && ee.group == group_name)) &&
          !ee.parent_link.empty() && ee.parent_link != tip &&
          descends(model, tip, ee.parent_link)) {
        tip = ee.parent_link;
        break;
      }
  return {group_name, base, tip, Pose::Identity()};
}

KinematicChain KinematicChain::from_config(RobotModelPtr model, const std::string& group) {
  if (!model) throw Error(ErrorCode::InvalidValue, "KinematicChain needs a robot model, got null");
  const GroupChain chain = group_chain(*model, group);
  return KinematicChain(std::move(model), chain.base_link, chain.tip_link, chain.tcp);
}

std::vector<std::string> KinematicChain::joint_names() const {
  std::vector<std::string> names;
  for (const int v : variable_indices_) names.push_back(model_->variable_joint(v).name);
  return names;
}

void KinematicChain::throw_bad_configuration(const JointVector& q) const {
  if (q.size() != dof())
    throw Error(ErrorCode::DimensionMismatch,
                "joint vector has " + std::to_string(q.size()) + " values, the chain " +
                    base_link_ + " -> " + tip_link_ + " has " + std::to_string(dof()) + " joints");
  throw Error(ErrorCode::InvalidValue, "joint vector contains NaN or infinite values");
}

namespace {

// Columns x, y turn by (c, s) in their plane: x' = c x + s y, y' = c y - s x.
[[gnu::always_inline]] inline void turn(double* x, double* y, double c, double s) {
  const double x0 = x[0], x1 = x[1], x2 = x[2];
  x[0] = c * x0 + s * y[0];
  x[1] = c * x1 + s * y[1];
  x[2] = c * x2 + s * y[2];
  y[0] = c * y[0] - s * x0;
  y[1] = c * y[1] - s * x1;
  y[2] = c * y[2] - s * x2;
}

// r <- r * m (both column-major 3×3).
[[gnu::always_inline]] inline void multiply_in_place(double* r, const double* m) {
  double out[9];
  for (int c = 0; c < 3; ++c)
    for (int row = 0; row < 3; ++row)
      out[3 * c + row] =
          (r[row] * m[3 * c] + r[3 + row] * m[3 * c + 1]) + r[6 + row] * m[3 * c + 2];
  for (int i = 0; i < 9; ++i) r[i] = out[i];
}

}  // namespace

// All sines and cosines first (one branch-free pass), then one in-register step per segment.
void KinematicChain::forward(const double* q, int count, Frame& last, Frame* frames) const {
  double angles[kMaxSegments], sines[kMaxSegments], cosines[kMaxSegments];
  const Segment* segments = segments_.data();
  for (int i = 0; i < count; ++i)
    angles[i] = segments[i].multiplier * q[segments[i].slot] + segments[i].offset;
  detail::fast_sincos_array(angles, sines, cosines, count);
  Frame f = {{1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0}};
  for (int i = 0; i < count; ++i) {
    const Segment& s = segments[i];
    const double t0 = s.translation[0], t1 = s.translation[1], t2 = s.translation[2];
    f.p[0] += (f.r[0] * t0 + f.r[3] * t1) + f.r[6] * t2;
    f.p[1] += (f.r[1] * t0 + f.r[4] * t1) + f.r[7] * t2;
    f.p[2] += (f.r[2] * t0 + f.r[5] * t1) + f.r[8] * t2;
    if (s.has_pre) [[unlikely]]
      multiply_in_place(f.r, s.pre);
    const double c = cosines[i], sn = s.angle_sign * sines[i];
    switch (s.motion) {
      case Motion::RotateX:
        turn(f.r + 3, f.r + 6, c, sn);
        break;
      case Motion::RotateY:
        turn(f.r + 6, f.r + 0, c, sn);
        break;
      case Motion::RotateZ:
        turn(f.r + 0, f.r + 3, c, sn);
        break;
      case Motion::RotateGeneral: {
        // Rodrigues, as Eigen::AngleAxis::toRotationMatrix builds it.
        const double k0 = s.axis[0], k1 = s.axis[1], k2 = s.axis[2];
        const double sine = sines[i], one_minus = 1.0 - c;
        const double m[9] = {one_minus * k0 * k0 + c,         one_minus * k0 * k1 + sine * k2,
                             one_minus * k0 * k2 - sine * k1, one_minus * k0 * k1 - sine * k2,
                             one_minus * k1 * k1 + c,         one_minus * k1 * k2 + sine * k0,
                             one_minus * k0 * k2 + sine * k1, one_minus * k1 * k2 - sine * k0,
                             one_minus * k2 * k2 + c};
        multiply_in_place(f.r, m);
        break;
      }
      case Motion::Slide: {
        const double d = angles[i];
        f.p[0] += d * ((f.r[0] * s.axis[0] + f.r[3] * s.axis[1]) + f.r[6] * s.axis[2]);
        f.p[1] += d * ((f.r[1] * s.axis[0] + f.r[4] * s.axis[1]) + f.r[7] * s.axis[2]);
        f.p[2] += d * ((f.r[2] * s.axis[0] + f.r[5] * s.axis[1]) + f.r[8] * s.axis[2]);
        break;
      }
    }
    if (frames) frames[i] = f;
  }
  last = f;
}

void KinematicChain::finish_tip(const Frame& last, Pose& tip) const {
  const double parent[16] = {last.r[0], last.r[1], last.r[2], 0,         last.r[3], last.r[4],
                             last.r[5], 0,         last.r[6], last.r[7], last.r[8], 0,
                             last.p[0], last.p[1], last.p[2], 1};
  detail::apply_step(tip_step_, parent, tip.data(), 0.0, 0.0, 1.0);
}

Pose KinematicChain::link_frame(const Frame& frame, int segment) const {
  Pose pose;  // bottom row already [0 0 0 1]
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) pose.linear()(r, c) = frame.r[3 * c + r];
  for (int r = 0; r < 3; ++r) pose.translation()[r] = frame.p[r];
  pose.linear() = pose.linear() * segments_[segment].logical;  // exact: a signed permutation
  return pose;
}

Pose KinematicChain::fk(const JointVector& q) const {
  check(q);
  Pose tip;
  if (tip_kernel_) [[likely]] {
    (*tip_kernel_)(q.data(), tip.data());
    return tip;
  }
  Frame last;
  forward(q.data(), static_cast<int>(segments_.size()), last, nullptr);
  finish_tip(last, tip);
  return tip;
}

namespace {

// Adds the columns of the joints in segments 0..count-1 for the point `point` (base frame).
template <typename Segments, typename Frames, typename Motion>
void add_jacobian_columns(const Segments& segments, int count, const Frames& frames,
                          const double* point, Motion slide, Jacobian& jacobian) {
  for (int i = 0; i < count; ++i) {
    const auto& segment = segments[i];
    const auto& f = frames[i];
    const double* u = segment.axis;
    const double axis[3] = {(f.r[0] * u[0] + f.r[3] * u[1]) + f.r[6] * u[2],
                            (f.r[1] * u[0] + f.r[4] * u[1]) + f.r[7] * u[2],
                            (f.r[2] * u[0] + f.r[5] * u[1]) + f.r[8] * u[2]};
    double* column = jacobian.col(segment.slot).data();
    const double k = segment.multiplier;
    if (segment.motion == slide) {
      for (int r = 0; r < 3; ++r) column[r] += k * axis[r];
    } else {
      const double d0 = point[0] - f.p[0], d1 = point[1] - f.p[1], d2 = point[2] - f.p[2];
      column[0] += k * (axis[1] * d2 - axis[2] * d1);
      column[1] += k * (axis[2] * d0 - axis[0] * d2);
      column[2] += k * (axis[0] * d1 - axis[1] * d0);
      for (int r = 0; r < 3; ++r) column[3 + r] += k * axis[r];
    }
  }
}

}  // namespace

void KinematicChain::fk_and_jacobian(const JointVector& q, Pose& tip, Jacobian& jacobian) const {
  check(q);
  const int count = static_cast<int>(segments_.size());
  Frame frames[kMaxSegments];
  Frame last;
  forward(q.data(), count, last, frames);
  finish_tip(last, tip);
  jacobian.setZero(6, dof());
  add_jacobian_columns(segments_, count, frames, tip.translation().data(), Motion::Slide, jacobian);
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
  if (a.segment < 0) return a.offset;
  Frame last;
  forward(q.data(), a.segment + 1, last, nullptr);
  return link_frame(last, a.segment) * a.offset;
}

Jacobian KinematicChain::jacobian_at(const JointVector& q, const std::string& link,
                                     const Vector3& point_in_link) const {
  check(q);
  const LinkAnchor& a = anchor(link);
  Jacobian result = Jacobian::Zero(6, dof());
  if (a.segment < 0) return result;
  Frame frames[kMaxSegments];
  Frame last;
  forward(q.data(), a.segment + 1, last, frames);
  const Vector3 point = link_frame(last, a.segment) * (a.offset * point_in_link);
  add_jacobian_columns(segments_, a.segment + 1, frames, point.data(), Motion::Slide, result);
  return result;
}

std::vector<Pose> KinematicChain::fk_batch(const Eigen::MatrixXd& configurations) const {
  if (configurations.rows() != dof())
    throw Error(ErrorCode::DimensionMismatch,
                "configurations have " + std::to_string(configurations.rows()) +
                    " rows, the chain has " + std::to_string(dof()) + " joints",
                "pass one configuration per column");
  if (!configurations.allFinite())
    throw Error(ErrorCode::InvalidValue, "configurations contain NaN or infinite values");
  std::vector<Pose> poses(configurations.cols());
  for (Eigen::Index c = 0; c < configurations.cols(); ++c) {
    if (tip_kernel_) {
      (*tip_kernel_)(configurations.col(c).data(), poses[c].data());
      continue;
    }
    Frame last;
    forward(configurations.col(c).data(), static_cast<int>(segments_.size()), last, nullptr);
    finish_tip(last, poses[c]);
  }
  return poses;
}

double KinematicChain::manipulability(const Jacobian& jacobian) {
  if (jacobian.cols() == 0) return 0.0;
  const Eigen::VectorXd sigma = singular_values(jacobian);
  return sigma.prod();  // = sqrt(det(J Jᵀ)) at 6+ DOF, sqrt(det(Jᵀ J)) below
}

double KinematicChain::condition_number(const Jacobian& jacobian) {
  if (jacobian.cols() == 0) return std::numeric_limits<double>::infinity();
  const Eigen::VectorXd sigma = singular_values(jacobian);
  const double smallest = sigma[sigma.size() - 1];
  return smallest > 0.0 ? sigma[0] / smallest : std::numeric_limits<double>::infinity();
}

double KinematicChain::manipulability(const JointVector& q) const {
  return manipulability(jacobian(q));
}

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
