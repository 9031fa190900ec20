// How fast pairs of bodies can close in along a joint-space motion, per joint: the speed
// coefficients the continuous checks step by (conservative advancement), and the part pairs of
// solid bodies that no joint can move relative to each other (their distance is measured once).
//
// A body's bound for joint j is its reach from j's origin up the chain (compute_speed_terms), or
// less: a part turning about an axis fixed in its own frame moves as a set at rotation_speed(), 0
// about its own axis of symmetry (a joint housing about its joint); and seen from the other body,
// the joint turns that body the other way about a line fixed in its frame when it is the joint's
// parent link (or an obstacle, for a joint whose axis is fixed in the world).
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "engine/collision/collision_checker.hpp"
#include "engine/collision/convex_distance.hpp"
#include "engine/collision/rotation_speed.hpp"

namespace kinetic {
namespace {
// A part pair whose coefficients all stay below this (m per rad or m per m) counts as fixed:
// over any motion within joint limits its distance changes by far less than a nanometre.
constexpr double kFixedPair = 1e-12;
}  // namespace

double CollisionChecker::part_reach(int body, int part) const {
  const BodySlot& slot = bodies_[body];
  if (part < 0) {
    const SphereNode& root = slot.body->tree.root();
    return (slot.offset * root.center).norm() + root.radius;
  }
  const FclPart& p = slot.body->parts[static_cast<std::size_t>(part)];
  return (slot.offset * p.pose.translation()).norm() + bounding_radius(p.shape);
}

std::optional<Pose> CollisionChecker::fixed_offset(int link, int ancestor) const {
  Pose offset = Pose::Identity();
  for (int at = link; at != ancestor;) {
    const int joint = model_->links()[at].parent_joint;
    if (joint < 0) return std::nullopt;
    const Joint& j = model_->joints()[joint];
    if (j.is_moving()) return std::nullopt;
    offset = j.origin * offset;
    at = j.parent_link;
  }
  return offset;
}

double CollisionChecker::turning_speed(const SpeedTerm& term, int body, int part, int other, int other_part) const {
  const Joint& j = model_->joints()[term.joint];
  const Vector3 axis = j.axis.normalized();
  // The body turns about an axis fixed in its own frame: through the joint frame's origin
  // (the whole body's bound is kept with the term).
  double speed = term.own_turn;
  const BodySlot& mover = bodies_[body];
  if (part >= 0)
    if (const std::optional<Pose> in_joint = fixed_offset(mover.link, j.child_link))
      speed = rotation_speed(*mover.body, part, *in_joint * mover.offset, Vector3::Zero(), axis);
  // Or, as seen from the other body, that body turns the other way about the same line, fixed in
  // the joint's parent link: the slower of the two bounds holds. An obstacle is fixed to the root
  // link (link poses are in its frame), so this covers joints whose axis is fixed in the world.
  if (other >= 0) {
    const BodySlot& still = bodies_[other];
    const int still_link = still.moving() ? still.link : model_->root_link();
    std::optional<Pose> in_parent = fixed_offset(still_link, j.parent_link);
    if (!in_parent)
      if (const std::optional<Pose> above = fixed_offset(j.parent_link, still_link)) in_parent = above->inverse();
    if (in_parent)
      speed = std::min(speed, rotation_speed(*still.body, other_part, *in_parent * still.offset,
                                             j.origin.translation(), j.origin.linear() * axis));
  }
  return speed;
}

void CollisionChecker::add_pair_speeds(int a, int part_a, int b, int part_b, bool self, double* coefficients) const {
  const auto& joints = model_->joints();
  // A part's speed about a revolute joint: the body's bound with the part's own reach in place
  // of the whole body's (speed terms are multiplier * (body reach + distance up the chain)), or
  // less where the joint's axis is fixed in the frame of either part (turning_speed). Joints that
  // move both bodies move the pair rigidly: they do not count.
  const auto add = [&](int body, int part, int other, int other_part) {
    const double reach_delta = part_reach(body, -1) - part_reach(body, part);
    for (const auto& term : speed_terms_[body]) {
      bool shared = false;
      if (other >= 0)
        for (const auto& o : speed_terms_[other]) shared |= o.joint == term.joint;
      if (shared) continue;
      const Joint& j = joints[term.joint];
      const double multiplier = j.is_active() ? 1.0 : (j.mimic ? std::abs(j.mimic->multiplier) : 0.0);
      coefficients[term.variable] +=
          j.type == JointType::Prismatic
              ? term.factor
              : std::min(std::max(0.0, term.factor - multiplier * reach_delta),
                         multiplier * turning_speed(term, body, part, other, other_part));
    }
  };
  add(a, part_a, b, part_b);
  if (self) add(b, part_b, a, part_a);
}

void CollisionChecker::speeds_along(const std::vector<double>& table, std::size_t rows, const JointVector& dq,
                                    std::vector<double>& out) const {
  const auto dof = static_cast<std::size_t>(model_->dof());
  out.assign(rows, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t v = 0; v < dof; ++v) out[r] += table[r * dof + v] * std::abs(dq[static_cast<Eigen::Index>(v)]);
}

void CollisionChecker::build_solid_plans() {
  const int robot_bodies = obstacle_begin_;
  self_pair_of_.assign(static_cast<std::size_t>(robot_bodies * robot_bodies), -1);
  solid_plans_.assign(self_pairs_.size(), {});
  solid_part_begin_.assign(self_pairs_.size() + 1, 0);
  solid_part_speed_table_.clear();
  // Fixed pairs are measured at any configuration: the zero one.
  std::vector<Pose> links(model_->links().size(), Pose::Identity());
  fk_->compute(model_->zero_configuration(), links);
  const auto placed = [&](int body, int part) {
    return links[static_cast<std::size_t>(bodies_[body].link)] * bodies_[body].offset *
           bodies_[body].body->parts[static_cast<std::size_t>(part)].pose;
  };
  std::vector<double> coefficients(static_cast<std::size_t>(model_->dof()));
  const std::size_t row = std::max<std::size_t>(1, coefficients.size());  // (a robot may have no joints)
  for (std::size_t k = 0; k < self_pairs_.size(); ++k) {
    solid_part_begin_[k] = solid_part_speed_table_.size() / row;
    const auto [a, b] = self_pairs_[k];
    self_pair_of_[static_cast<std::size_t>(a * robot_bodies + b)] = static_cast<int>(k);
    const CollisionBody& body_a = *bodies_[a].body;
    const CollisionBody& body_b = *bodies_[b].body;
    if (!all_simple_primitives(body_a) || !all_simple_primitives(body_b) ||
        body_a.parts.size() * body_b.parts.size() > kMaxSolidPlanPairs)
      continue;
    for (int p = 0; p < static_cast<int>(body_a.parts.size()); ++p)
      for (int q = 0; q < static_cast<int>(body_b.parts.size()); ++q) {
        SolidPartPair pair{p, q, bounding_radius(body_a.parts[static_cast<std::size_t>(p)].shape) +
                                     bounding_radius(body_b.parts[static_cast<std::size_t>(q)].shape)};
        std::fill(coefficients.begin(), coefficients.end(), 0.0);
        add_pair_speeds(a, p, b, q, true, coefficients.data());
        solid_part_speed_table_.insert(solid_part_speed_table_.end(), coefficients.begin(), coefficients.end());
        if (*std::max_element(coefficients.begin(), coefficients.end()) <= kFixedPair)
          pair.constant_distance = primitive_distance(body_a.parts[static_cast<std::size_t>(p)].shape, placed(a, p),
                                                      body_b.parts[static_cast<std::size_t>(q)].shape, placed(b, q))
                                       .distance;
        solid_plans_[k].push_back(pair);
      }
  }
  solid_part_begin_.back() = solid_part_speed_table_.size() / row;
  self_pairs_solid_ = std::all_of(solid_plans_.begin(), solid_plans_.end(), [](const auto& plan) { return !plan.empty(); });
}

}  // namespace kinetic
