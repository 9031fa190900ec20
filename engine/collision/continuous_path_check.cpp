// Continuous collision check of straight joint-space segments: the links against the scene's
// obstacles by adaptive bisection with padded states; link pairs (self) by the same bisection
// when every pair is made of solid primitives (exact verdicts), otherwise by conservative
// advancement pair by pair.
//
// Self pairs of meshes. Along q(t) = q0 + t * dq the distance between two links changes at most at the
// pair's closing speed v (per unit of t): the sum over the joints that move one link but not the
// other of |dq_j| times the pair's coefficient for j (pair_motion.cpp; joints above both links move
// the pair rigidly and cannot change its distance). So a pair seen with clearance g beyond its
// padding stays clear of (padding - tolerance) while it closes by less than g + tolerance: its
// budget. Each pair is looked at again only when its budget is used up — far pairs once per path
// or so, pairs near contact often — and budgets carry over waypoints. Self pairs of bodies made
// of a few solid primitives are watched part against part, each part with its own speeds: a joint
// housing centred on its axis does not move while the link's far end sweeps.
//
// Scene. Each moving body moves at most at its own speed (per unit of t: the sum over its joints
// of |dq_j| times its coefficient). An interval [t0, t1] of the segment is free when the state at
// its middle keeps every body clear of the scene by its padding plus how far the body can move in
// half the interval; otherwise both halves are proven the same way. The first intervals are the
// segment cut into as many equal pieces as keep those paddings within 10 cm. One exact scene
// check (the broad phase, then the few near pairs) covers every (body, obstacle) pair at once,
// where watching the pairs one by one cost a look per pair and budget. Once the widest body
// margin is below the tolerance and the state still fails, a body is within the tolerance of an
// obstacle: contact.
//
// Self pairs of solid primitives. The same intervals: a middle state proves the self pairs when
// each part pair is clear by its padding plus how far it can close in half the interval (the
// part speeds grid_motion_free uses), so the scene and the self pairs share each state's link
// poses. Once no part pair can close by the tolerance on an interval, in_collision's exact verdict
// at its middle decides. The pair-by-pair walk looked at the arms' ever-close pairs (base and
// shoulder, forearm and wrist) state after state on its own; sharing the states took the gates
// from 0.026 to 0.009 ms on empty-scene Panda plans and from 0.066 to 0.049 ms among 20 boxes.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "engine/collision/collision_checker.hpp"
#include "engine/collision/convex_distance.hpp"
#include "engine/core/error.hpp"

namespace kinetic {
namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kRefineGap = 0.03;  // m, about a default leaf radius
constexpr double kExactGap = 0.01;   // m: pairs nearer than this get their exact clearance
constexpr double kNearGap = 0.1;    // m: pairs whose last exact look was nearer go straight to it
constexpr double kEarlyLook = 0.1;  // fraction of a pair's step it may be looked at early
// Scene bisection: the first intervals need at most this padding (m) on any body. In the benchmark
// scenes this took 15-20% off the gate among 20 boxes, and a little among shelf and cage bars;
// 0.2 m did as well except among the boxes, 0.05 m cost time near the table.
constexpr double kWidestScenePadding = 0.1;
constexpr int kMaxFirstPieces = 64;
// m, kept beyond what a proof needs: the exact tier's answers at two poses may differ by rounding.
constexpr double kRoundingSlack = 1e-6;

// Lower bound on the distance of two bodies of solid primitives below `cutoff` (cutoff when
// nothing is nearer), exact within `exact_within` and within kLooseRatio beyond it, with the
// points of the last GJK iterate (points of the two bodies, |a - b| >= the bound).
PairDistance solid_distance_bound(const CollisionBody& a, const Pose& pose_a, const CollisionBody& b,
                                  const Pose& pose_b, double cutoff, double exact_within) {
  PairDistance best;
  best.distance = cutoff;
  for (const auto& part_a : a.parts)
    for (const auto& part_b : b.parts) {
      const Pose wa = pose_a * part_a.pose, wb = pose_b * part_b.pose;
      if ((wa.translation() - wb.translation()).norm() - bounding_radius(part_a.shape) - bounding_radius(part_b.shape) >=
          best.distance)
        continue;
      const ConvexDistance d = primitive_distance(part_a.shape, wa, part_b.shape, wb, best.distance, 0.0, exact_within);
      if (d.lower_bound < best.distance) best = {d.lower_bound, d.point_a, d.point_b};
    }
  return best;
}
}  // namespace

bool CollisionChecker::self_motion_valid_continuous(const JointVector& q0, const JointVector& q1,
                                                    const CheckOptions& options, double tolerance) {
  if (q1.size() != q0.size())
    throw Error(ErrorCode::DimensionMismatch, "continuous self-collision check: the segment's ends differ in size");
  if (!q1.allFinite())  // (q0 is checked by path_begin; a failing start must not hide a bad end)
    throw Error(ErrorCode::InvalidValue, "continuous self-collision check: joint values must be finite numbers");
  return self_path_begin(q0, options, tolerance) && self_path_advance(q1);
}

bool CollisionChecker::self_path_begin(const JointVector& q, const CheckOptions& options,
                                       double tolerance) {
  CheckOptions self_only = options;
  self_only.self = true;
  self_only.scene = false;
  return path_begin(q, self_only, tolerance);
}

bool CollisionChecker::path_begin(const JointVector& q, const CheckOptions& options, double tolerance) {
  if (!(tolerance > 0.0))
    throw Error(ErrorCode::InvalidValue, "continuous path check: tolerance must be > 0");
  if (q.size() != model_->dof())
    throw Error(ErrorCode::DimensionMismatch, "continuous path check: expected " +
                                                  std::to_string(model_->dof()) + " joint values");
  if (!q.allFinite())
    throw Error(ErrorCode::InvalidValue, "continuous path check: joint values must be finite numbers");
  path_options_ = options;
  path_tolerance_ = tolerance;
  path_scene_generation_ = scene_generation_;
  path_q_ = q;
  path_contact_ = {};
  const std::size_t watched = options.self ? path_pairs_.size() : 0;
  path_budget_.assign(watched, 0.0);  // nothing known yet: every pair is looked at
  path_look_t_.assign(watched, 0.0);
  path_witness_.assign(watched, {});
  return !in_collision(q, options);  // (which computes the poses the walk starts from)
}

void CollisionChecker::add_path_pairs(int a, int b) {
  const CollisionBody& body_a = *bodies_[a].body;
  const CollisionBody& body_b = *bodies_[b].body;
  const bool split = all_simple_primitives(body_a) && all_simple_primitives(body_b) &&
                     (body_a.parts.size() > 1 || body_b.parts.size() > 1) &&
                     body_a.parts.size() * body_b.parts.size() <= kMaxSplitPartPairs;
  const int parts_a = split ? static_cast<int>(body_a.parts.size()) : 1;
  const int parts_b = split ? static_cast<int>(body_b.parts.size()) : 1;
  const int dof = model_->dof();
  for (int p = 0; p < parts_a; ++p)
    for (int q = 0; q < parts_b; ++q) {
      path_pairs_.push_back({a, b, split ? p : -1, split ? q : -1, all_simple_primitives(body_a) && all_simple_primitives(body_b)});
      path_speed_coefficients_.resize(path_pairs_.size() * static_cast<std::size_t>(dof), 0.0);
      double* coefficients = path_speed_coefficients_.data() + (path_pairs_.size() - 1) * static_cast<std::size_t>(dof);
      add_pair_speeds(a, split ? p : -1, b, split ? q : -1, true, coefficients);
    }
}

std::optional<double> CollisionChecker::look_at_parts(std::size_t k, double t, double padding, double remaining) {
  const PathPair& pair = path_pairs_[k];
  const FclPart& part_a = bodies_[pair.a].body->parts[static_cast<std::size_t>(pair.part_a)];
  const FclPart& part_b = bodies_[pair.b].body->parts[static_cast<std::size_t>(pair.part_b)];
  const Pose wa = pose(pair.a) * part_a.pose, wb = pose(pair.b) * part_b.pose;
  // The parts' bounding spheres first: most part pairs stay far apart for the rest of the segment.
  const double sphere_gap = (wa.translation() - wb.translation()).norm() - bounding_radius(part_a.shape) -
                            bounding_radius(part_b.shape) - padding;
  if (sphere_gap >= remaining) return sphere_gap;
  // GJK's lower bound: it stops once that reaches what the rest of the segment needs, or, beyond
  // the tolerance, once it is within kLooseRatio of the distance (a step a tenth shorter costs
  // less than the iterations GJK needs to converge on two cylinders).
  const double tolerance = path_tolerance_;
  const double gap = primitive_distance(part_a.shape, wa, part_b.shape, wb, padding + remaining, 0.0,
                                        padding + tolerance).lower_bound - padding;
  // As for whole bodies: within the tolerance the verdict is in_collision's at this state.
  if (gap < tolerance && t > 0.0 && pair_in_collision(pair.a, pair.b, padding)) return std::nullopt;
  if (gap < -tolerance) return std::nullopt;
  return std::max(gap, 0.0);
}

bool CollisionChecker::path_advance(const JointVector& q1) {
  if (q1.size() != model_->dof())
    throw Error(ErrorCode::DimensionMismatch, "continuous path check: expected " +
                                                  std::to_string(model_->dof()) + " joint values");
  if (path_q_.size() != q1.size())
    throw Error(ErrorCode::InvalidValue, "continuous path check: advance() before begin()");
  if (path_scene_generation_ != scene_generation_)
    throw Error(ErrorCode::InvalidValue, "continuous path check: the scene changed since begin()");
  if (!q1.allFinite())
    throw Error(ErrorCode::InvalidValue, "continuous path check: joint values must be finite numbers");
  const double padding = padding_for(true, path_options_);
  const double tolerance = path_tolerance_;
  const JointVector q0 = path_q_;
  const JointVector dq = q1 - q0;
  // Self pairs all of solid parts are proven by the bisection with the scene (segment_free);
  // the others are watched pair by pair.
  const bool self_by_bisection = path_options_.self && self_pairs_solid_;
  const std::size_t count = self_by_bisection ? 0 : path_budget_.size();  // the self pairs watched
  path_contact_ = {};
  // Closing speeds are fixed along the segment.
  const int dof = model_->dof();
  const JointVector motion = dq.cwiseAbs();
  path_speed_.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    const double* coefficients = path_speed_coefficients_.data() + k * static_cast<std::size_t>(dof);
    double speed = 0.0;
    for (int v = 0; v < dof; ++v) speed += coefficients[v] * motion[v];
    path_speed_[k] = speed;
    path_look_t_[k] = 0.0;
  }
  // Pairs that do not move relative to each other keep the verdict of the segment's start.
  // The others wait in a min-heap on the path parameter at which their budget runs out: a state
  // looked at costs one FK pass and the pairs due there, not a scan over every pair.
  const auto due = [&](std::size_t k) {
    return path_speed_[k] > 0.0 ? path_look_t_[k] + path_budget_[k] / path_speed_[k] : kInf;
  };
  const auto later = [](const std::pair<double, int>& x, const std::pair<double, int>& y) { return x.first > y.first; };
  path_due_.clear();
  for (std::size_t k = 0; k < count; ++k)
    if (const double when = due(k); when < 1.0) path_due_.emplace_back(when, static_cast<int>(k));
  std::make_heap(path_due_.begin(), path_due_.end(), later);
  const auto fail = [&](const PathPair& pair) {
    path_contact_ = {body_name(pair.a), body_name(pair.b), false};
    return false;
  };

  // The start state is the path's previous state: checked in full already.
  while (!path_due_.empty()) {
    const double t = path_due_.front().first;
    if (t > 0.0) update(q0 + t * dq);
    // Every pair due by now is looked at this state, and so is a pair due within the last tenth
    // of its step: a look a little early costs a tenth of a step, a state of its own costs an FK
    // pass (most states served one pair; with this a state serves four or five).
    const auto due_here = [&](const std::pair<double, int>& next) {
      return next.first <= t || next.first - t <= kEarlyLook * (next.first - path_look_t_[static_cast<std::size_t>(next.second)]);
    };
    while (!path_due_.empty() && due_here(path_due_.front())) {
      std::pop_heap(path_due_.begin(), path_due_.end(), later);
      const std::size_t k = static_cast<std::size_t>(path_due_.back().second);
      path_due_.pop_back();
      const PathPair& pair = path_pairs_[k];
      const int a = pair.a, b = pair.b;
      const CollisionBody& body_a = *bodies_[a].body;
      const CollisionBody& body_b = *bodies_[b].body;
      const double v = path_speed_[k];
      const double remaining = (1.0 - t) * v;  // the most this pair can close until q1
      if (pair.part_a >= 0) {
        if (const std::optional<double> gap = look_at_parts(k, t, padding, remaining)) {
          path_budget_[k] = *gap + tolerance;
          path_look_t_[k] = t;
          if (const double when = due(k); when < 1.0) {
            path_due_.emplace_back(when, static_cast<int>(k));
            std::push_heap(path_due_.begin(), path_due_.end(), later);
          }
          continue;
        }
        return fail(pair);
      }
      // Root spheres first (a few flops): most pairs are far apart for the rest of the segment.
      // (An attached half-space has no root sphere.)
      const double root_gap = body_a.tree.empty() || body_b.tree.empty()
                                  ? -kInf
                                  : (bound_centers_[a] - bound_centers_[b]).norm() - root_radii_[a] -
                                        root_radii_[b] - padding;
      // The closest points of the pair's last exact look, carried in each body's frame, are
      // still points of the two bodies: their distance now is an upper bound on the gap.
      const Witness& witness = path_witness_[k];
      const double witness_distance =
          witness.known ? (pose(a) * witness.on_a - pose(b) * witness.on_b).norm() * (1.0 + 1e-9) + 1e-12 : kInf;
      double gap = root_gap;
      // A pair known to be near goes straight to the exact search: a sphere bound could not
      // come out above kExactGap, and refining it was most of the walk's time.
      const bool near = witness_distance - padding < kNearGap;
      if (near) gap = -kInf;
      const auto judge = [&](double measured) {  // the verdicts at a measured gap
        // Links of one arm may sit within the tolerance of each other: within it, the verdict
        // is in_collision's at this state (the start had it already).
        if (measured < tolerance && t > 0.0 && pair_in_collision(a, b, padding)) return false;
        return measured >= -tolerance;  // tiers disagree beyond the tolerance: trust contact
      };
      if (pair.solid && gap < remaining) {
        // Primitives: GJK's lower bounds straight away (cheaper than refining sphere trees),
        // as far as the rest of the segment needs.
        gap = solid_distance_bound(body_a, pose(a), body_b, pose(b), padding + remaining, padding + tolerance).distance -
              padding;
        if (!judge(gap)) return fail(pair);
        gap = std::max(gap, 0.0);
      } else if (!near && gap < remaining) {
        // The sphere trees, refined only to a little past the root gap: a bound far beyond the
        // true distance would cost a walk over most node pairs and buy a step not much longer.
        const double target = std::min(remaining, std::max(root_gap, 0.0) + kRefineGap);
        gap = pair_distance_bounds(body_a, pose(a), body_b, pose(b), padding + target).lower - padding;
      }
      if (!pair.solid && gap < kExactGap) {
        // Near: the exact clearance (the sphere bound can be a leaf radius short of it, and near
        // pairs are the ones looked at often), the search pruned at the witness distance.
        // (Never below the tolerance: the verdicts need that much, and a witness from a touching
        // state would otherwise keep the search at zero after the pair has moved apart.)
        const double cutoff = std::min(padding + std::min(remaining, std::max(tolerance, kRefineGap)),
                                       std::max(witness_distance, padding + tolerance));
        const PairDistance exact = exact_pair_distance(body_a, pose(a), body_b, pose(b), cutoff);
        if (exact.distance < cutoff)
          path_witness_[k] = {pose(a).inverse() * exact.point_a, pose(b).inverse() * exact.point_b, true};
        gap = exact.distance - padding;
        if (!judge(gap)) return fail(pair);
        gap = std::max(gap, 0.0);
      }
      path_budget_[k] = gap + tolerance;
      path_look_t_[k] = t;
      if (const double when = due(k); when < 1.0) {
        path_due_.emplace_back(when, static_cast<int>(k));
        std::push_heap(path_due_.begin(), path_due_.end(), later);
      }
    }
  }
  if ((path_options_.scene || self_by_bisection) && !segment_free(q0, dq, tolerance, self_by_bisection)) return false;
  // Budgets left at q1 carry into the next segment.
  for (std::size_t k = 0; k < count; ++k)
    path_budget_[k] = std::max(0.0, path_budget_[k] - path_speed_[k] * (1.0 - path_look_t_[k]));
  path_q_ = q1;
  // q1 in full, as in_collision judges it; the bisection proved the scene there already.
  CheckOptions end_check = path_options_;
  end_check.scene = false;
  return !in_collision(q1, end_check);
}

bool CollisionChecker::segment_free(const JointVector& q0, const JointVector& dq, double tolerance, bool self) {
  const std::size_t slots = moving_bodies_.size();
  const double padding = padding_for(false, path_options_), self_padding = padding_for(true, path_options_);
  const SlotMask scene_slots = path_options_.scene ? kAllSlots : 0;
  double fastest_part_pair = 0.0;
  if (self) {  // the speeds grid_motion_free uses: whole pairs for the root cull, part pairs
    speeds_along(self_speed_table_, self_pairs_.size(), dq, grid_self_speed_);
    speeds_along(solid_part_speed_table_, solid_part_begin_.back(), dq, grid_part_speed_);
    grid_self_extra_.resize(grid_self_speed_.size());
    grid_part_extra_.resize(grid_part_speed_.size());
    for (double v : grid_part_speed_) fastest_part_pair = std::max(fastest_part_pair, v);
  }
  speeds_along(body_speed_table_, moving_bodies_.size(), dq, segment_speeds_);
  segment_padding_.resize(slots);
  // Intervals start where no body needs more than kWidestScenePadding: wider padded checks
  // nearly always failed among obstacles, each for the price of a state.
  double fastest = 0.0;
  for (std::size_t m = 0; m < slots; ++m) fastest = std::max(fastest, segment_speeds_[m]);
  int pieces = 1;
  if (obstacle_begin_ < body_count())
    while (fastest * 0.5 / pieces > kWidestScenePadding && pieces < kMaxFirstPieces) pieces *= 2;
  segment_intervals_.clear();
  for (int i = pieces - 1; i >= 0; --i)  // the earliest last: taken first
    segment_intervals_.push_back({static_cast<double>(i) / pieces, static_cast<double>(i + 1) / pieces, scene_slots, self});
  while (!segment_intervals_.empty()) {
    const auto [t0, t1, bodies, self_left] = segment_intervals_.back();
    segment_intervals_.pop_back();
    const double middle = 0.5 * (t0 + t1), half = 0.5 * (t1 - t0);
    update(q0 + middle * dq);
    // Body by body: the halves prove only the bodies not proven clear here.
    SlotMask near = 0;
    double widest = 0.0;
    for (std::size_t m = 0; m < slots; ++m) {
      if (!(bodies & slot_bit(m))) continue;
      segment_padding_[m] = segment_speeds_[m] * half;
      if (!slot_near_scene(m, padding + segment_padding_[m], 0.0)) continue;
      near |= slot_bit(m);
      widest = std::max(widest, segment_padding_[m]);
    }
    bool self_near = false;
    if (self_left) {
      for (std::size_t k = 0; k < grid_self_speed_.size(); ++k) grid_self_extra_[k] = grid_self_speed_[k] * half + kRoundingSlack;
      for (std::size_t i = 0; i < grid_part_speed_.size(); ++i) grid_part_extra_[i] = grid_part_speed_[i] * half + kRoundingSlack;
      self_near = self_in_collision(self_padding, grid_self_extra_.data(), grid_part_extra_.data());
      // Within the tolerance: no pair can close by that much on the interval, so in_collision's
      // verdict here (exact for solid parts) holds it above padding - tolerance throughout.
      if (self_near && fastest_part_pair * half < tolerance) {
        if (self_in_collision(self_padding)) {
          path_contact_ = {};
          for (std::size_t k = 0; k < self_pairs_.size(); ++k)
            if (self_pair_in_collision(k, self_padding)) {
              path_contact_ = {body_name(self_pairs_[k].first), body_name(self_pairs_[k].second), false};
              break;
            }
          return false;
        }
        self_near = false;
      }
    }
    if (!near && !self_near) continue;
    if (near && widest < tolerance) {
      // A body is within the tolerance of an obstacle here: name the pair.
      for (std::size_t m = 0; m < slots; ++m)
        for (int o = obstacle_begin_; o < body_count(); ++o)
          if ((near & slot_bit(m)) && !scene_allowed_[m][o - obstacle_begin_] &&
              pair_in_collision(moving_bodies_[m], o, padding + segment_padding_[m], 0.0)) {
            path_contact_ = {body_name(moving_bodies_[m]), body_name(o), true};
            return false;
          }
      path_contact_ = {};
      return false;
    }
    segment_intervals_.push_back({middle, t1, near, self_near});  // the earlier half first
    segment_intervals_.push_back({t0, middle, near, self_near});
  }
  return true;
}

}  // namespace kinetic
