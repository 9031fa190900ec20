// Discrete motion check of a straight joint-space edge: every state of a grid must pass
// the state check, and whole runs of grid states are proven free at once.
//
// A run (the grid states strictly between states a and b) is free when the state in its middle
// keeps every body clear by its padding, plus the refinement margin, plus how far the body can
// move from the middle to the run's farthest state (its speed terms, pair_motion.cpp): each state
// of the run then keeps the body clear by the padding plus the refinement margin, where
// in_collision cannot report a collision (its sphere tier's false positives lie within that
// margin; solid self pairs are decided exactly and need no margin). Otherwise the middle state
// is checked as in_collision checks it and both halves become runs. Obstacles and self pairs are
// proven separately, the scene body by body and the self pairs pair by pair: a run whose
// obstacles are proven clear leaves its halves only the self pairs, and the other way round, and
// the halves check only the bodies not proven clear of the scene and the pairs not proven apart.
// The verdict is that of checking every state; runs are taken middle first, then the quarters, ...,
// so a blocked edge fails after about as many states as there. A caller may name one state to check
// first (where an earlier edge was blocked); the two runs on either side of it then take the whole
// edge's place.
#include <algorithm>
#include <cmath>

#include "engine/collision/grid_check.hpp"
#include "engine/collision/rounding_slack.hpp"
#include "engine/collision/self_pair_table.hpp"
#include "engine/core/error.hpp"

namespace kinetic {
namespace {

// Runs of fewer states are checked state by state: proving a run costs about a state's check,
// and fails more often the nearer the run is to contact.
constexpr int kMinProvenRun = 3;  // grid steps from a to b
// m: a body that would need more clearance than this from the scene gets only its root
// sphere's proof (slot_root_clear): in clutter the full proof nearly always fails there, for
// about a state's check, while the root spheres fail for a few flops. Far from obstacles they
// prove long runs at once: Panda searches above the table, in the cage and at the shelf took
// 20-35% less time; among 20 boxes, where they fail, 3-6% more. A body whose failed root proof
// already lies within the padding is not tried so again in the halves.
constexpr double kMaxSceneProofPadding = 0.05;

// The self pairs of run.self with a table that proves them apart by `padding` on every state of
// the run (pairs from 63 on share a bit and are left to the other proofs).
SlotMask pairs_clear_along(const CollisionWorld& world, const JointVector& q0,
                           const JointVector& dq, const GridCheckState::Run& run, int steps,
                           double padding) {
  SlotMask proven = 0;
  const std::size_t pairs = std::min<std::size_t>(world.self_tables.size(), 63);
  for (std::size_t k = 0; k < pairs; ++k) {
    const SelfPairTable* table = world.self_tables[k].get();
    if (table && (run.self & slot_bit(k)) &&
        table->clear_along(q0, dq, static_cast<double>(run.a + 1) / steps,
                           static_cast<double>(run.b - 1) / steps, padding))
      proven |= slot_bit(k);
  }
  return proven;
}

// The states strictly between grid states 0 and steps in the order the runs below take their
// middles (the middle, the quarters, ...), worked out once per grid size.
const std::vector<int>& bisection(GridCheckState& grid, int steps) {
  constexpr std::size_t kKeptSizes = 1024;  // larger grids are worked out each time
  const std::size_t size = static_cast<std::size_t>(std::max(steps, 0));
  std::vector<int>* order = &grid.bisection_scratch;
  if (size < kKeptSizes) {
    if (grid.bisections.size() <= size) grid.bisections.resize(size + 1);
    order = &grid.bisections[size];
    if (!order->empty() || steps < 2) return *order;
  }
  order->clear();
  grid.runs.assign(1, {0, steps, 0, 0});
  for (std::size_t head = 0; head < grid.runs.size(); ++head) {
    const auto [a, b, scene, self, roots] = grid.runs[head];
    if (b - a < 2) continue;
    const int middle = (a + b) / 2;
    order->push_back(middle);
    grid.runs.push_back({a, middle, 0, 0});
    grid.runs.push_back({middle, b, 0, 0});
  }
  return *order;
}

// The edge's grid states eight at a time through the lanes (lane_check.hpp), each state they
// leave open checked by the state check for the slots and pairs left open, in the order of the
// runs below (the middle, the quarters, ...: the first eight are spread over the whole edge).
bool lane_motion_free(const CollisionWorld& world, CollisionState& state, GridCheckState& grid,
                      const JointVector& q0, const JointVector& dq, int steps,
                      const CheckOptions& options, int skip, bool with_ends) {
  const double scene_padding = world.padding_for(false, options),
               self_padding = world.padding_for(true, options);
  grid.order.clear();
  if (with_ends) grid.order.assign({0, steps});
  for (const int i : bisection(grid, steps))
    if (i != skip) grid.order.push_back(i);
  const SlotMask scene_slots = options.scene ? kAllSlots : 0,
                 self_pairs = options.self ? kAllSlots : 0;
  // Pairs with a table of their distance proven along the whole edge at once (by the margin the
  // state check's sphere tier may err by, as the runs below prove them), not lane by lane; after
  // the first pass's witnesses, which end a quarter of the search's motion checks.
  SlotMask self_proven = 0;
  bool self_proven_known = false;
  // The scene pairs' kept hull axes, for the lanes to prove the pairs whose covers touch (not
  // where the covers decide: a touching cover collides there).
  const HullHint* scene_hints = options.covers_decide || state.scene_hull_hint.empty()
                                    ? nullptr
                                    : state.scene_hull_hint.data();
  const JointVector* batch[kLanes];
  for (std::size_t first = 0; first < grid.order.size(); first += kLanes) {
    const int count = static_cast<int>(std::min<std::size_t>(kLanes, grid.order.size() - first));
    for (int l = 0; l < count; ++l) {
      grid.lane_q[l].noalias() = q0 + dq * (static_cast<double>(grid.order[first + l]) / steps);
      batch[l] = &grid.lane_q[l];
    }
    // One lane a witness proves colliding ends the edge: the pass stops there.
    const bool placed =
        lanes_open_scene(world, grid.lanes, batch, count, scene_padding, grid.lane_open,
                         /*stop_at_collision=*/options.scene, scene_hints);
    if (options.scene)
      for (int l = 0; l < count; ++l)
        if (grid.lane_open[l].collides) {
          grid.blocked_step = grid.order[first + static_cast<std::size_t>(l)];
          return false;
        }
    if (placed && options.self) {
      if (!self_proven_known) {
        self_proven =
            pairs_clear_along(world, q0, dq, {0, steps, 0, kAllSlots}, steps,
                              self_padding + world.options.refinement_margin + kRoundingSlack);
        self_proven_known = true;
      }
      lanes_open_self(world, grid.lanes, batch, count, self_padding, grid.lane_open, self_proven);
    }
    for (int l = 0; l < count; ++l) {
      const SlotMask scene = grid.lane_open[l].scene & scene_slots;
      const SlotMask self = grid.lane_open[l].self & self_pairs;
      if (!scene && !self) continue;
      update_poses(world, state, grid.lane_q[l]);
      if ((scene && scene_in_collision(world, state, scene_padding, nullptr, options.exact, scene,
                                       options.covers_decide)) ||
          (self && self_in_collision(world, state, self_padding, nullptr, nullptr, false, self,
                                     nullptr, options.exact))) {
        grid.blocked_step = grid.order[first + l];
        return false;
      }
    }
  }
  return true;
}
// The self pairs' and solid part pairs' speeds along the edge dq, for the run proofs (the
// bodies': speeds_along of body_speed_table).
void pair_speeds(const CollisionWorld& world, GridCheckState& grid, const JointVector& dq) {
  world.speeds_along(world.self_speed_table, world.self_pairs.size(), dq, grid.self_speed);
  world.speeds_along(world.solid_part_speed_table, world.solid_part_begin.back(), dq,
                     grid.part_speed);
  grid.self_extra.resize(grid.self_speed.size());
  grid.part_extra.resize(grid.part_speed.size());
}

// Whether every body clears the scene on every grid state strictly between the edge's ends, by
// the root spheres' proofs at its middle state (the runs' proof, below, for the whole edge, with
// the root spheres alone: in clutter it fails for a few flops). Needs grid.body_speed.
bool edge_clear_of_scene(const CollisionWorld& world, CollisionState& state, GridCheckState& grid,
                         const JointVector& q0, const JointVector& dq, int steps,
                         const CheckOptions& options) {
  if (!options.scene || world.obstacle_begin == world.body_count()) return true;
  const double scene_padding = world.padding_for(false, options);
  const double margin = world.options.refinement_margin + kRoundingSlack;
  const int middle = steps / 2;
  const double reach = static_cast<double>(std::max(middle - 1, steps - 1 - middle)) / steps;
  grid.q.noalias() = q0 + dq * (static_cast<double>(middle) / steps);
  update_poses(world, state, grid.q);
  // The distal bodies first: in clutter they fail first.
  for (std::size_t turn = 0; turn < grid.body_speed.size(); ++turn) {
    const std::size_t m = grid.body_speed.size() - 1 - turn;
    double gap = 0.0;
    if (!slot_root_clear(world, state, m, scene_padding, grid.body_speed[m] * reach + margin, gap))
      return false;
  }
  return true;
}
}  // namespace

bool grid_motion_free(const CollisionWorld& world, CollisionState& state, GridCheckState& grid,
                      const JointVector& q0, const JointVector& q1, int steps,
                      const CheckOptions& options, int first_step, bool with_ends) {
  if (q0.size() != world.model->dof() || q1.size() != world.model->dof())
    throw Error(ErrorCode::DimensionMismatch, "motion check: expected " +
                                                  std::to_string(world.model->dof()) +
                                                  " joint values at each end");
  if (!q0.allFinite() || !q1.allFinite())
    throw Error(ErrorCode::InvalidValue, "motion check: joint values must be finite numbers");
  if (steps < 2 && !with_ends) return true;
  grid.dq.noalias() = q1 - q0;
  const JointVector& dq = grid.dq;
  if (with_ends && (!world.lanes || steps < 2)) {  // the ends by state checks of their own
    for (const int end : {0, std::max(steps, 1)}) {
      if (in_collision(world, state, end == 0 ? q0 : q1, options)) {
        grid.blocked_step = end;
        return false;
      }
    }
    if (steps < 2) return true;
    with_ends = false;
  }
  const double scene_padding = world.padding_for(false, options),
               self_padding = world.padding_for(true, options);
  const double margin = world.options.refinement_margin + kRoundingSlack;
  const SlotMask all_scene = options.scene ? kAllSlots : 0, all_self = options.self ? kAllSlots : 0;
  const bool has_obstacles = world.obstacle_begin < world.body_count();
  const bool probe = first_step > 0 && first_step < steps;
  if (probe) {  // where the caller expects a collision: a blocked edge then costs one state
    grid.q.noalias() = q0 + dq * (static_cast<double>(first_step) / steps);
    update_poses(world, state, grid.q);
    if ((options.scene && scene_in_collision(world, state, scene_padding, nullptr, options.exact,
                                             kAllSlots, options.covers_decide)) ||
        (options.self && self_in_collision(world, state, self_padding, nullptr, nullptr, false,
                                           kAllSlots, nullptr, options.exact))) {
      grid.blocked_step = first_step;
      return false;
    }
  }
  SlotMask scene_runs = all_scene;  // the bodies the runs prove clear of the scene
  if (world.lanes) {
    // The lanes test every grid state, where in open space the runs prove an edge from a few
    // (the built-in Panda in an empty scene: 60% more instructions by the lanes): an edge whose
    // scene the root spheres prove clear from its middle is left to the runs for its self pairs.
    // In clutter that proof fails edge after edge (MotionBenchMaker's cage: 4.6% more
    // instructions for trying it on every edge), so after failures in a row it waits 1, 3, 7, 15
    // and then 16 edges before it is tried again. The verdicts are the lanes' either way.
    bool clear = false;
    if (steps >= kMinProvenRun) {
      if (grid.scene_proof_wait > 0) {
        --grid.scene_proof_wait;
      } else {
        world.speeds_along(world.body_speed_table, world.moving_bodies.size(), dq, grid.body_speed);
        clear = edge_clear_of_scene(world, state, grid, q0, dq, steps, options);
        grid.scene_proof_backoff = clear ? 0 : std::min(2 * grid.scene_proof_backoff + 1, 16);
        grid.scene_proof_wait = grid.scene_proof_backoff;
      }
    }
    if (!clear)
      return lane_motion_free(world, state, grid, q0, dq, steps, options, probe ? first_step : 0,
                              with_ends);
    if (with_ends)
      for (const int end : {0, steps})
        if (in_collision(world, state, end == 0 ? q0 : q1, options)) {
          grid.blocked_step = end;
          return false;
        }
    scene_runs = 0;
  }
  // The bodies' and pairs' speeds along the edge, for the run proofs.
  if (!world.lanes)
    world.speeds_along(world.body_speed_table, world.moving_bodies.size(), dq, grid.body_speed);
  pair_speeds(world, grid, dq);
  if (probe)
    grid.runs.assign(
        {{0, first_step, scene_runs, all_self}, {first_step, steps, scene_runs, all_self}});
  else
    grid.runs.assign(1, {0, steps, scene_runs, all_self});
  for (std::size_t head = 0; head < grid.runs.size(); ++head) {
    const GridCheckState::Run run = grid.runs[head];
    if (run.b - run.a < 2 || !(run.scene || run.self)) continue;
    const int middle = (run.a + run.b) / 2;
    grid.q.noalias() = q0 + dq * (static_cast<double>(middle) / steps);
    update_poses(world, state, grid.q);
    SlotMask scene = run.scene, roots = run.roots;  // not proven yet; root proofs worth trying
    SlotMask self = run.self;
    if (run.b - run.a >= kMinProvenRun) {
      const double reach =
          static_cast<double>(std::max(middle - run.a - 1, run.b - 1 - middle)) / steps;
      // Each body on its own: the ones proven clear of the scene leave the halves, so the states
      // checked there test only the bodies near an obstacle (in clutter, one or two of a dozen).
      scene = 0;
      for (std::size_t m = 0; m < grid.body_speed.size(); ++m) {
        const SlotMask bit = slot_bit(m);
        if (!(run.scene & bit)) continue;
        const double extra = grid.body_speed[m] * reach + margin;
        if (extra <= kMaxSceneProofPadding || !has_obstacles) {
          if (slot_near_scene(world, state, m, scene_padding + extra,
                              world.options.refinement_margin, options.covers_decide))
            scene |= bit;
        } else if (run.roots & bit) {
          double gap = 0.0;
          if (!slot_root_clear(world, state, m, scene_padding, extra, gap)) {
            scene |= bit;
            if (!(gap > 0.0)) roots &= ~bit;
          }
        } else {
          scene |= bit;
        }
      }
      // Pairs with a table of their distance are proven along the run itself, not from its
      // middle state under a run-wide padding (which the wrist's ever-close pairs always failed).
      if (self) self &= ~pairs_clear_along(world, q0, dq, run, steps, self_padding + margin);
      if (self) {
        for (std::size_t k = 0; k < grid.self_speed.size(); ++k)
          grid.self_extra[k] = grid.self_speed[k] * reach + margin;
        for (std::size_t i = 0; i < grid.part_speed.size(); ++i)
          grid.part_extra[i] = grid.part_speed[i] * reach + kRoundingSlack;
        // The halves check only the pairs this proof leaves open. It stops at the first pair it
        // cannot prove (proving the rest there cost more than the halves' proofs save).
        self_in_collision(world, state, self_padding, grid.self_extra.data(),
                          grid.part_extra.data(), /*proof_only=*/true, self, &self);
      }
      if (!scene && !self) continue;
    }
    if ((scene && scene_in_collision(world, state, scene_padding, nullptr, options.exact, scene,
                                     options.covers_decide)) ||
        (self && self_in_collision(world, state, self_padding, nullptr, nullptr, false, self,
                                   nullptr, options.exact))) {
      grid.blocked_step = middle;
      return false;
    }
    grid.runs.push_back({run.a, middle, scene, self, roots});
    grid.runs.push_back({middle, run.b, scene, self, roots});
  }
  return true;
}

}  // namespace kinetic
