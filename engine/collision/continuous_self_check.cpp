// Continuous self-collision check of straight joint-space segments by conservative advancement.
//
// Along q(t) = q0 + t * dq the distance between two links changes at most at the pair's closing
// speed v (per unit of t): the sum over the joints that move one link but not the other of
// |dq_j| times the largest distance of that link's geometry from joint j's axis (compute_speed_terms;
// joints above both links move the pair rigidly and cannot change its distance). So a pair seen
// with clearance g beyond its padding stays clear of (padding - tolerance) while it closes by less
// than g + tolerance: its budget. Each pair is looked at again only when its budget is used up —
// far pairs once per path or so, pairs near contact often — and budgets carry over waypoints.
#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/collision/collision_checker.hpp"
#include "engine/core/error.hpp"

namespace kinetic {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kRefineGap = 0.03;  // m, about a default leaf radius
constexpr double kExactGap = 0.01;   // m: pairs nearer than this get their exact clearance
}  // namespace

bool CollisionChecker::self_motion_valid_continuous(const JointVector& q0, const JointVector& q1,
                                                    const CheckOptions& options, double tolerance) {
  if (q1.size() != q0.size())
    throw Error(ErrorCode::DimensionMismatch, "continuous self-collision check: the segment's ends differ in size");
  return self_path_begin(q0, options, tolerance) && self_path_advance(q1);
}

bool CollisionChecker::self_path_begin(const JointVector& q, const CheckOptions& options,
                                       double tolerance) {
  if (!(tolerance > 0.0))
    throw Error(ErrorCode::InvalidValue, "continuous self-collision check: tolerance must be > 0");
  if (q.size() != model_->dof())
    throw Error(ErrorCode::DimensionMismatch, "continuous self-collision check: expected " +
                                                  std::to_string(model_->dof()) + " joint values");
  self_path_padding_ = padding_for(true, options);
  self_path_tolerance_ = tolerance;
  self_path_q_ = q;
  self_budget_.assign(self_pairs_.size(), 0.0);  // nothing known yet: every pair is looked at
  self_look_t_.assign(self_pairs_.size(), 0.0);
  update(q);
  return !self_in_collision(self_path_padding_);
}

bool CollisionChecker::self_path_advance(const JointVector& q1) {
  if (q1.size() != model_->dof())
    throw Error(ErrorCode::DimensionMismatch, "continuous self-collision check: expected " +
                                                  std::to_string(model_->dof()) + " joint values");
  if (self_path_q_.size() != q1.size() || self_budget_.size() != self_pairs_.size())
    throw Error(ErrorCode::InvalidValue, "continuous self-collision check: advance() before begin()");
  const double padding = self_path_padding_, tolerance = self_path_tolerance_;
  const JointVector q0 = self_path_q_;
  const JointVector dq = q1 - q0;
  const std::size_t count = self_pairs_.size();
  self_speeds_.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const auto [a, b] = self_pairs_[k];
    self_speeds_[k] = closing_speed(a, b, dq) + closing_speed(b, a, dq);
    self_look_t_[k] = 0.0;
  }
  // Pairs that do not move relative to each other keep the verdict of the segment's start.
  const auto due = [&](std::size_t k) {
    return self_speeds_[k] > 0.0 ? self_look_t_[k] + self_budget_[k] / self_speeds_[k] : kInf;
  };

  // The start state is the path's previous state: checked in full already.
  double t = 0.0;
  while (true) {
    double next = kInf;
    for (std::size_t k = 0; k < count; ++k) {
      const double when = due(k);
      if (when > t) {
        next = std::min(next, when);
        continue;
      }
      const auto [a, b] = self_pairs_[k];
      const CollisionBody& body_a = *bodies_[a].body;
      const CollisionBody& body_b = *bodies_[b].body;
      const double v = self_speeds_[k];
      const double remaining = (1.0 - t) * v;  // the most this pair can close until q1
      // Root spheres first (a few flops): most pairs are far apart for the rest of the segment.
      const double root_gap =
          (bound_centers_[a] - bound_centers_[b]).norm() - root_radii_[a] - root_radii_[b] - padding;
      double gap = root_gap;
      if (gap < remaining) {
        // The sphere trees, refined only to a little past the root gap: a bound far beyond the
        // true distance would cost a walk over most node pairs and buy a step not much longer.
        const double target = std::min(remaining, std::max(root_gap, 0.0) + kRefineGap);
        gap = pair_distance_bounds(body_a, pose(a), body_b, pose(b), padding + target).lower - padding;
      }
      if (gap < kExactGap) {
        // Near: the exact clearance (the sphere bound can be a leaf radius short of it, and near
        // pairs are the ones looked at often), and within the tolerance in_collision's verdict
        // at this state (the start had it already).
        const double cutoff = padding + std::min(remaining, std::max(tolerance, kRefineGap));
        gap = exact_pair_distance(body_a, pose(a), body_b, pose(b), cutoff).distance - padding;
        if (gap < tolerance && t > 0.0 && pair_in_collision(a, b, padding)) return false;
        if (gap < -tolerance) return false;  // tiers disagree beyond the tolerance: trust contact
        gap = std::max(gap, 0.0);
      }
      self_budget_[k] = gap + tolerance;
      self_look_t_[k] = t;
      next = std::min(next, due(k));
    }
    if (next >= 1.0) break;
    t = next;
    update(q0 + t * dq);
  }
  // Budgets left at q1 carry into the next segment.
  for (std::size_t k = 0; k < count; ++k)
    self_budget_[k] = std::max(0.0, self_budget_[k] - self_speeds_[k] * (1.0 - self_look_t_[k]));
  self_path_q_ = q1;
  update(q1);
  return !self_in_collision(padding);
}

}  // namespace kinetic
