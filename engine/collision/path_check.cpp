// Continuous collision check of straight joint-space segments: the links against the scene's
// obstacles by adaptive bisection with padded states; link pairs (self) by the same bisection
// when every pair is made of solid primitives (exact verdicts), otherwise by conservative
// advancement pair by pair.
//
// Self pairs of meshes. Along q(t) = q0 + t * dq the distance between two links changes at most at
// the pair's closing speed v (per unit of t): the sum over the joints that move one link but not
// the other of |dq_j| times the pair's coefficient for j (pair_motion.cpp; joints above both links
// move the pair rigidly and cannot change its distance). So a pair seen with clearance g beyond its
// padding stays clear of (padding - tolerance) while it closes by less than g + tolerance: its
// budget. Each pair is looked at again only when its budget is used up — far pairs once per path
// or so, pairs near contact often — and budgets carry over waypoints. A look measures the pair's
// convex hulls (GJK; a lower bound on the meshes' distance, and the same for convex meshes) and
// the leaves' triangles only where the hulls come within the tolerance. A pair with a table of its
// distance (self_pair_table.hpp: the wrist's links) is first proven along the whole segment by
// the table's cells; it is then not looked at on the segment, and the next one starts it anew
// (it has moved, its last clearance is stale). The gate spent a quarter of its time on the
// wrist's hull distances; this took a tenth off the gates on MotionBenchMaker. Self pairs of bodies
// made of a few solid primitives are watched part against part, each part with its own speeds: a
// joint housing centred on its axis does not move while the link's far end sweeps.
//
// Scene. Each moving body moves at most at its own speed v (per unit of t: the sum over its joints
// of |dq_j| times its coefficient). An interval [t0, t1] of the segment is free when the state at
// its middle keeps every body clear of the scene by its padding plus how far the body can move in
// half the interval. Otherwise each body still near has a lower bound g on its clearance there
// (slot_scene_gap: the convex hulls, else the exact distance) and is proven for as far as it
// moves by less than g, |t - middle| < g / v; the pieces of the interval beyond the least such
// reach are proven the same way (plain halves where g is 0). The first intervals are the segment
// cut into as many equal pieces as keep those paddings within 10 cm. One scene query per body
// (the broad phase, then the few near obstacles) covers every (body, obstacle) pair at once,
// where watching the pairs one by one cost a look per pair and budget. A body whose exact
// distance is below its padding at a middle state, or that is still near once its margin is below
// the tolerance, is in contact.
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

#include "engine/collision/path_check.hpp"
#include "engine/collision/rounding_slack.hpp"
#include "engine/collision/scene_gap.hpp"
#include "engine/collision/self_pair_table.hpp"
#include "engine/core/error.hpp"
#include "engine/core/infinity.hpp"
#include "engine/geometry/convex_distance.hpp"

namespace kinetic {
namespace {
constexpr double kRefineGap = 0.03;  // m, about a default leaf radius
constexpr double kExactGap = 0.01;   // m: pairs nearer than this get their exact clearance
constexpr double kNearGap = 0.1;     // m: pairs whose last exact look was nearer go straight to it
constexpr double kEarlyLook = 0.1;   // fraction of a pair's step it may be looked at early
// Scene bisection: the first intervals need at most this padding (m) on any body. In the benchmark
// scenes this took 15-20% off the gate among 20 boxes, and a little among shelf and cage bars;
// 0.2 m did as well except among the boxes, 0.05 m cost time near the table.
constexpr double kWidestScenePadding = 0.1;
constexpr int kMaxFirstPieces = 64;

// The distance table of watched pair k when it is a whole self pair that has one, else null.
const SelfPairTable* table_of_path_pair(const CollisionWorld& world, std::size_t k) {
  const CollisionWorld::PathPair& pair = world.path_pairs[k];
  if (pair.part_a >= 0 || pair.a >= world.obstacle_begin || pair.b >= world.obstacle_begin)
    return nullptr;
  const int a = std::min(pair.a, pair.b), b = std::max(pair.a, pair.b);
  const int self = world.self_pair_of[static_cast<std::size_t>(a * world.obstacle_begin + b)];
  return self >= 0 ? world.self_tables[static_cast<std::size_t>(self)].get() : nullptr;
}

// One look at a part pair (path_advance): its gap beyond padding, or nullopt for contact.
std::optional<double> look_at_parts(const CollisionWorld& world, const CollisionState& state,
                                    const PathCheckState& path, std::size_t k, double t,
                                    double padding, double remaining) {
  const CollisionWorld::PathPair& pair = world.path_pairs[k];
  const FclPart& part_a = world.bodies[pair.a].body->parts[static_cast<std::size_t>(pair.part_a)];
  const FclPart& part_b = world.bodies[pair.b].body->parts[static_cast<std::size_t>(pair.part_b)];
  const Pose wa = state.pose(pair.a) * part_a.pose, wb = state.pose(pair.b) * part_b.pose;
  // The parts' bounding spheres first: most part pairs stay far apart for the rest of the segment.
  const double sphere_gap =
      (wa.translation() - wb.translation()).norm() - part_a.radius - part_b.radius - padding;
  if (sphere_gap >= remaining) return sphere_gap;
  // GJK's lower bound: it stops once that reaches what the rest of the segment needs, or, beyond
  // the tolerance, once it is within kLooseRatio of the distance (a step a tenth shorter costs
  // less than the iterations GJK needs to converge on two cylinders).
  const double tolerance = path.tolerance;
  const double gap = primitive_distance(part_a.shape, wa, part_b.shape, wb, padding + remaining,
                                        0.0, padding + tolerance)
                         .lower_bound -
                     padding;
  // As for whole bodies: within the tolerance the verdict is in_collision's at this state.
  if (gap < tolerance && t > 0.0 && pair_in_collision(world, state, pair.a, pair.b, padding))
    return std::nullopt;
  if (gap < -tolerance) return std::nullopt;
  return std::max(gap, 0.0);
}

// Continuous check along q0 + t * dq, t in [0, 1] (path_advance), of the scene when the path
// options ask for it and of the self pairs when `self`: adaptive bisection, an interval proven
// free when its middle state keeps every moving body clear of the scene by padding + how far the
// body can move in half the interval (its speed terms, at most its own turning speed per joint),
// and every self part pair clear by padding + how far it can close in half the interval (as
// grid_motion_free proves runs; only for self pairs all of solid parts, whose verdicts are
// exact). Fails when some body comes within `tolerance` of an obstacle, or a self pair fails the
// state check's test where no pair can close by the tolerance; path.contact then names the pair.
bool segment_free(const CollisionWorld& world, CollisionState& state, PathCheckState& path,
                  const JointVector& q0, const JointVector& dq, double tolerance, bool self) {
  const std::size_t slots = world.moving_bodies.size();
  const double padding = world.padding_for(false, path.options),
               self_padding = world.padding_for(true, path.options);
  const SlotMask scene_slots = path.options.scene ? kAllSlots : 0;
  double fastest_part_pair = 0.0;
  if (self) {  // the speeds grid_motion_free uses: whole pairs for the root cull, part pairs
    world.speeds_along(world.self_speed_table, world.self_pairs.size(), dq, path.speeds.self_speed);
    world.speeds_along(world.solid_part_speed_table, world.solid_part_begin.back(), dq,
                       path.speeds.part_speed);
    path.speeds.self_extra.resize(path.speeds.self_speed.size());
    path.speeds.part_extra.resize(path.speeds.part_speed.size());
    for (double v : path.speeds.part_speed) fastest_part_pair = std::max(fastest_part_pair, v);
  }
  world.speeds_along(world.body_speed_table, world.moving_bodies.size(), dq,
                     path.speeds.body_speed);
  path.body_padding.resize(slots);
  // Intervals start where no body needs more than kWidestScenePadding: wider padded checks
  // nearly always failed among obstacles, each for the price of a state.
  double fastest = 0.0;
  for (std::size_t m = 0; m < slots; ++m) fastest = std::max(fastest, path.speeds.body_speed[m]);
  int pieces = 1;
  if (world.obstacle_begin < world.body_count())
    while (fastest * 0.5 / pieces > kWidestScenePadding && pieces < kMaxFirstPieces) pieces *= 2;
  path.intervals.clear();
  for (int i = pieces - 1; i >= 0; --i)  // the earliest last: taken first
    path.intervals.push_back(
        {static_cast<double>(i) / pieces, static_cast<double>(i + 1) / pieces, scene_slots, self});
  while (!path.intervals.empty()) {
    const auto [t0, t1, bodies, self_left] = path.intervals.back();
    path.intervals.pop_back();
    const double middle = 0.5 * (t0 + t1), half = 0.5 * (t1 - t0);
    path.at.noalias() = q0 + middle * dq;
    update_poses(world, state, path.at);
    bool self_near = false;
    if (self_left) {
      for (std::size_t k = 0; k < path.speeds.self_speed.size(); ++k)
        path.speeds.self_extra[k] = path.speeds.self_speed[k] * half + kRoundingSlack;
      for (std::size_t i = 0; i < path.speeds.part_speed.size(); ++i)
        path.speeds.part_extra[i] = path.speeds.part_speed[i] * half + kRoundingSlack;
      self_near = self_in_collision(world, state, self_padding, path.speeds.self_extra.data(),
                                    path.speeds.part_extra.data());
      // Within the tolerance: no pair can close by that much on the interval, so in_collision's
      // verdict here (exact for solid parts) holds it above padding - tolerance throughout.
      if (self_near && fastest_part_pair * half < tolerance) {
        if (self_in_collision(world, state, self_padding)) {
          path.contact = {};
          for (std::size_t k = 0; k < world.self_pairs.size(); ++k)
            if (self_pair_in_collision(world, state, k, self_padding)) {
              path.contact = {world.body_name(world.self_pairs[k].first),
                              world.body_name(world.self_pairs[k].second), false};
              break;
            }
          return false;
        }
        self_near = false;
      }
    }
    // Body by body: the pieces left prove only the bodies not proven clear here. A near body
    // clear by g is proven for as long as it moves less than g: `proven` either side of the
    // middle for every near body.
    SlotMask near = 0;
    double widest = 0.0, proven = half, least_gap = kInf;
    std::size_t nearest_slot = 0;
    int nearest_obstacle = -1;
    for (std::size_t m = 0; m < slots; ++m) {
      if (!(bodies & slot_bit(m))) continue;
      const double speed = path.speeds.body_speed[m];
      path.body_padding[m] = speed * half;
      if (self_near) {  // the pieces meet at the middle anyway: near or not is enough to know
        if (!slot_near_scene(world, state, m, padding + path.body_padding[m], 0.0)) continue;
        near |= slot_bit(m);
        widest = std::max(widest, path.body_padding[m]);
        continue;
      }
      const SceneGap gap =
          slot_scene_gap(world, state, m, padding, path.body_padding[m], tolerance);
      if (gap.contact) {
        path.contact = {world.body_name(world.moving_bodies[m]), world.body_name(gap.obstacle),
                        true};
        return false;
      }
      if (gap.gap >= path.body_padding[m]) continue;
      near |= slot_bit(m);
      widest = std::max(widest, path.body_padding[m]);
      proven = std::min(proven, gap.gap > 0.0 ? gap.gap / speed : 0.0);
      if (gap.gap < least_gap) {
        least_gap = gap.gap;
        nearest_slot = m;
        nearest_obstacle = gap.obstacle;
      }
    }
    if (!near && !self_near) continue;
    if (near && widest < tolerance) {
      // A body is within the tolerance of an obstacle here: the nearest pair found, or the
      // first near one.
      for (std::size_t m = 0; m < slots && nearest_obstacle < 0; ++m)
        for (int o = world.obstacle_begin; o < world.body_count() && nearest_obstacle < 0; ++o)
          if ((near & slot_bit(m)) && !world.scene_allowed[m][o - world.obstacle_begin] &&
              pair_in_collision(world, state, world.moving_bodies[m], o,
                                padding + path.body_padding[m], 0.0)) {
            nearest_slot = m;
            nearest_obstacle = o;
          }
      path.contact = {};
      if (nearest_obstacle >= 0)
        path.contact = {world.body_name(world.moving_bodies[nearest_slot]),
                        world.body_name(nearest_obstacle), true};
      return false;
    }
    // The self pairs have no clearance here to step by: their halves meet at the middle.
    const double cut = self_near ? 0.0 : proven;
    path.intervals.push_back({middle + cut, t1, near, self_near});  // the earlier piece first
    path.intervals.push_back({t0, middle - cut, near, self_near});
  }
  return true;
}

}  // namespace

bool path_begin(const CollisionWorld& world, CollisionState& state, PathCheckState& path,
                const JointVector& q, const CheckOptions& options, double tolerance) {
  if (!(tolerance > 0.0))
    throw Error(ErrorCode::InvalidValue, "continuous path check: tolerance must be > 0");
  if (q.size() != world.model->dof())
    throw Error(
        ErrorCode::DimensionMismatch,
        "continuous path check: expected " + std::to_string(world.model->dof()) + " joint values");
  if (!q.allFinite())
    throw Error(ErrorCode::InvalidValue,
                "continuous path check: joint values must be finite numbers");
  path.options = options;
  path.tolerance = tolerance;
  path.world_id = world.id;
  path.q = q;
  path.contact = {};
  const std::size_t watched = options.self ? world.path_pairs.size() : 0;
  path.budget.assign(watched, 0.0);  // nothing known yet: every pair is looked at
  path.look_t.assign(watched, 0.0);
  path.witness.assign(watched, {});
  return !in_collision(world, state, q,
                       options);  // (which computes the poses the walk starts from)
}

bool path_advance(const CollisionWorld& world, CollisionState& state, PathCheckState& path,
                  const JointVector& q1) {
  if (q1.size() != world.model->dof())
    throw Error(
        ErrorCode::DimensionMismatch,
        "continuous path check: expected " + std::to_string(world.model->dof()) + " joint values");
  if (path.q.size() != q1.size())
    throw Error(ErrorCode::InvalidValue, "continuous path check: advance() before begin()");
  if (path.world_id != world.id)
    throw Error(ErrorCode::InvalidValue, "continuous path check: the scene changed since begin()");
  if (!q1.allFinite())
    throw Error(ErrorCode::InvalidValue,
                "continuous path check: joint values must be finite numbers");
  const double padding = world.padding_for(true, path.options);
  const double tolerance = path.tolerance;
  const JointVector& q0 = path.q;  // (path.q becomes q1 only at the end)
  path.dq.noalias() = q1 - q0;
  const JointVector& dq = path.dq;
  // Self pairs all of solid parts are proven by the bisection with the scene (segment_free);
  // the others are watched pair by pair.
  const bool self_by_bisection = path.options.self && world.self_pairs_solid;
  const std::size_t count = self_by_bisection ? 0 : path.budget.size();  // the self pairs watched
  path.contact = {};
  // Closing speeds are fixed along the segment.
  const int dof = world.model->dof();
  const JointVector motion = dq.cwiseAbs();
  path.speed.resize(count);
  path.table_proven.assign(count, 0);
  for (std::size_t k = 0; k < count; ++k) {
    const double* coefficients =
        world.path_speed_coefficients.data() + k * static_cast<std::size_t>(dof);
    double speed = 0.0;
    for (int v = 0; v < dof; ++v) speed += coefficients[v] * motion[v];
    path.look_t[k] = 0.0;
    // A pair with a table of its distance (the wrist's ever-close links) proven apart along the
    // whole segment by cell lookups: no hull distances on the way, as if it did not move.
    const SelfPairTable* table = table_of_path_pair(world, k);
    if (speed > 0.0 && table && table->clear_along(q0, dq, 0.0, 1.0, padding)) {
      path.table_proven[k] = 1;
      speed = 0.0;
    }
    path.speed[k] = speed;
  }
  // Pairs that do not move relative to each other keep the verdict of the segment's start.
  // The others wait in a min-heap on the path parameter at which their budget runs out: a state
  // looked at costs one FK pass and the pairs due there, not a scan over every pair.
  const auto due = [&](std::size_t k) {
    return path.speed[k] > 0.0 ? path.look_t[k] + path.budget[k] / path.speed[k] : kInf;
  };
  const auto later = [](const std::pair<double, int>& x, const std::pair<double, int>& y) {
    return x.first > y.first;
  };
  path.due.clear();
  for (std::size_t k = 0; k < count; ++k)
    if (const double when = due(k); when < 1.0) path.due.emplace_back(when, static_cast<int>(k));
  std::make_heap(path.due.begin(), path.due.end(), later);
  const auto fail = [&](const CollisionWorld::PathPair& pair) {
    path.contact = {world.body_name(pair.a), world.body_name(pair.b), false};
    return false;
  };

  // The start state is the path's previous state: checked in full already.
  while (!path.due.empty()) {
    const double t = path.due.front().first;
    if (t > 0.0) {
      path.at.noalias() = q0 + t * dq;
      update_poses(world, state, path.at);
    }
    // Every pair due by now is looked at this state, and so is a pair due within the last tenth
    // of its step: a look a little early costs a tenth of a step, a state of its own costs an FK
    // pass (most states served one pair; with this a state serves four or five).
    const auto due_here = [&](const std::pair<double, int>& next) {
      return next.first <= t ||
             next.first - t <=
                 kEarlyLook * (next.first - path.look_t[static_cast<std::size_t>(next.second)]);
    };
    while (!path.due.empty() && due_here(path.due.front())) {
      std::pop_heap(path.due.begin(), path.due.end(), later);
      const std::size_t k = static_cast<std::size_t>(path.due.back().second);
      path.due.pop_back();
      const CollisionWorld::PathPair& pair = world.path_pairs[k];
      const int a = pair.a, b = pair.b;
      const CollisionBody& body_a = *world.bodies[a].body;
      const CollisionBody& body_b = *world.bodies[b].body;
      const double v = path.speed[k];
      const double remaining = (1.0 - t) * v;  // the most this pair can close until q1
      if (pair.part_a >= 0) {
        if (const std::optional<double> gap =
                look_at_parts(world, state, path, k, t, padding, remaining)) {
          path.budget[k] = *gap + tolerance;
          path.look_t[k] = t;
          if (const double when = due(k); when < 1.0) {
            path.due.emplace_back(when, static_cast<int>(k));
            std::push_heap(path.due.begin(), path.due.end(), later);
          }
          continue;
        }
        return fail(pair);
      }
      // Root spheres first (a few flops): most pairs are far apart for the rest of the segment.
      // (An attached half-space has no root sphere.)
      const double root_gap = body_a.tree.empty() || body_b.tree.empty()
                                  ? -kInf
                                  : (state.bound_centers[a] - state.bound_centers[b]).norm() -
                                        world.root_radii[a] - world.root_radii[b] - padding;
      // The closest points of the pair's last exact look, carried in each body's frame, are
      // still points of the two bodies: their distance now is an upper bound on the gap.
      const PathCheckState::Witness& witness = path.witness[k];
      const double witness_distance =
          witness.known ? (state.pose(a) * witness.on_a - state.pose(b) * witness.on_b).norm() *
                                  (1.0 + 1e-9) +
                              1e-12
                        : kInf;
      double gap = root_gap;
      // A pair known to be near skips the sphere trees: their bound could not come out above
      // kExactGap, and refining it was most of the walk's time.
      const bool near = witness_distance - padding < kNearGap;
      if (near) gap = -kInf;
      const auto judge = [&](double measured) {  // the verdicts at a measured gap
        // Links of one arm may sit within the tolerance of each other: within it, the verdict
        // is in_collision's at this state (the start had it already).
        if (measured < tolerance && t > 0.0 && pair_in_collision(world, state, a, b, padding))
          return false;
        return measured >= -tolerance;  // tiers disagree beyond the tolerance: trust contact
      };
      bool hull_bound =
          false;  // the hulls keep the pair beyond the tolerance (or the segment's end)
      if (pair.solid && gap < remaining) {
        // Primitives: GJK's lower bounds straight away (cheaper than refining sphere trees),
        // as far as the rest of the segment needs.
        gap = solid_distance_bound(body_a, state.pose(a), body_b, state.pose(b),
                                   padding + remaining, padding + tolerance)
                  .distance -
              padding;
        if (!judge(gap)) return fail(pair);
        gap = std::max(gap, 0.0);
      } else if (gap < remaining && hull_proof_applies(body_a, body_b)) {
        // Meshes: their convex hulls (one GJK; cheaper than refining the sphere trees), whose
        // distance is a lower bound on the meshes' (each mesh lies inside its hull) and, for the
        // convex meshes robots mostly ship, the same. The leaves' triangles below only where the
        // hulls come within the tolerance.
        const int self = std::max(a, b) < world.obstacle_begin
                             ? world.self_pair_of[static_cast<std::size_t>(
                                   std::min(a, b) * world.obstacle_begin + std::max(a, b))]
                             : -1;
        const double hull =
            self >= 0 ? hull_distance_hinted(body_a, state.pose(a), body_b, state.pose(b),
                                             padding + 0.25 * remaining, padding + tolerance,
                                             padding + remaining,
                                             state.self_hull_hint[static_cast<std::size_t>(self)])
                      : hull_distance_bound(body_a, state.pose(a), body_b, state.pose(b),
                                            padding + remaining);
        gap = std::max(gap, hull - padding);
        hull_bound = gap >= std::min(remaining, tolerance);
      } else if (!near && gap < remaining) {
        // The sphere trees, refined only to a little past the root gap: a bound far beyond the
        // true distance would cost a walk over most node pairs and buy a step not much longer.
        const double target = std::min(remaining, std::max(root_gap, 0.0) + kRefineGap);
        gap = pair_distance_bounds(body_a, state.pose(a), body_b, state.pose(b), padding + target)
                  .lower -
              padding;
      }
      if (!pair.solid && gap < kExactGap && !hull_bound) {
        // Near: the exact clearance (the sphere bound can be a leaf radius short of it, and near
        // pairs are the ones looked at often), the search pruned at the witness distance.
        // (Never below the tolerance: the verdicts need that much, and a witness from a touching
        // state would otherwise keep the search at zero after the pair has moved apart.)
        const double cutoff =
            std::min(padding + std::min(remaining, std::max(tolerance, kRefineGap)),
                     std::max(witness_distance, padding + tolerance));
        const PairDistance exact =
            exact_pair_distance(body_a, state.pose(a), body_b, state.pose(b), cutoff);
        if (exact.distance < cutoff)
          path.witness[k] = {state.pose(a).inverse() * exact.point_a,
                             state.pose(b).inverse() * exact.point_b, true};
        gap = exact.distance - padding;
        if (!judge(gap)) return fail(pair);
        gap = std::max(gap, 0.0);
      }
      path.budget[k] = gap + tolerance;
      path.look_t[k] = t;
      if (const double when = due(k); when < 1.0) {
        path.due.emplace_back(when, static_cast<int>(k));
        std::push_heap(path.due.begin(), path.due.end(), later);
      }
    }
  }
  if ((path.options.scene || self_by_bisection) &&
      !segment_free(world, state, path, q0, dq, tolerance, self_by_bisection))
    return false;
  // Budgets left at q1 carry into the next segment; a pair the table proved has no measured
  // clearance at q1 (it moved): looked at anew unless the table proves the next segment too.
  for (std::size_t k = 0; k < count; ++k)
    path.budget[k] = path.table_proven[k]
                         ? 0.0
                         : std::max(0.0, path.budget[k] - path.speed[k] * (1.0 - path.look_t[k]));
  path.q = q1;
  // q1 in full, as in_collision judges it; the bisection proved the scene there already.
  CheckOptions end_check = path.options;
  end_check.scene = false;
  return !in_collision(world, state, q1, end_check);
}

}  // namespace kinetic
