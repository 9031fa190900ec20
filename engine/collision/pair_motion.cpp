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

#include "engine/collision/pair_motion.hpp"
#include "engine/collision/rotation_speed.hpp"
#include "engine/geometry/convex_distance.hpp"

namespace kinetic {
namespace {
// A part pair whose coefficients all stay below this (m per rad or m per m) counts as fixed:
// over any motion within joint limits its distance changes by far less than a nanometre.
constexpr double kFixedPair = 1e-12;

// Bound on the part's distance from its link origin (-1: the whole body).
double part_reach(const CollisionWorld& world, int body, int part) {
  const CollisionWorld::BodySlot& slot = world.bodies[body];
  if (part < 0) {
    const SphereNode& root = slot.body->tree.root();
    return (slot.offset * root.center).norm() + root.radius;
  }
  const FclPart& p = slot.body->parts[static_cast<std::size_t>(part)];
  return (slot.offset * p.pose.translation()).norm() + bounding_radius(p.shape);
}

// Pose of `link`'s frame in `ancestor`'s frame when only fixed joints lie between them.
std::optional<Pose> fixed_offset(const CollisionWorld& world, int link, int ancestor) {
  Pose offset = Pose::Identity();
  for (int at = link; at != ancestor;) {
    const int joint = world.model->links()[at].parent_joint;
    if (joint < 0) return std::nullopt;
    const Joint& j = world.model->joints()[joint];
    if (j.is_moving()) return std::nullopt;
    offset = j.origin * offset;
    at = j.parent_link;
  }
  return offset;
}

// Bound on how fast turning `joint` (which moves `body` but not `other`, -1: a fixed obstacle)
// changes the distance between a part of each (-1: the whole body), per unit of the joint's
// motion, from rotation_speed(): the joint's axis is fixed in the frame of the link it moves
// and of its parent link. Infinite when neither body is rigidly fixed to either link.
double turning_speed(const CollisionWorld& world, const CollisionWorld::SpeedTerm& term, int body,
                     int part, int other, int other_part) {
  const Joint& j = world.model->joints()[term.joint];
  const Vector3 axis = j.axis.normalized();
  // The body turns about an axis fixed in its own frame: through the joint frame's origin
  // (the whole body's bound is kept with the term).
  double speed = term.own_turn;
  const CollisionWorld::BodySlot& mover = world.bodies[body];
  if (part >= 0)
    if (const std::optional<Pose> in_joint = fixed_offset(world, mover.link, j.child_link))
      speed = rotation_speed(*mover.body, part, *in_joint * mover.offset, Vector3::Zero(), axis);
  // Or, as seen from the other body, that body turns the other way about the same line, fixed in
  // the joint's parent link: the slower of the two bounds holds. An obstacle is fixed to the root
  // link (link poses are in its frame), so this covers joints whose axis is fixed in the world.
  if (other >= 0) {
    const CollisionWorld::BodySlot& still = world.bodies[other];
    const int still_link = still.moving() ? still.link : world.model->root_link();
    std::optional<Pose> in_parent = fixed_offset(world, still_link, j.parent_link);
    if (!in_parent)
      if (const std::optional<Pose> above = fixed_offset(world, j.parent_link, still_link))
        in_parent = above->inverse();
    if (in_parent)
      speed = std::min(speed, rotation_speed(*still.body, other_part, *in_parent * still.offset,
                                             j.origin.translation(), j.origin.linear() * axis));
  }
  return speed;
}

}  // namespace

void add_pair_speeds(const CollisionWorld& world, int a, int part_a, int b, int part_b, bool self,
                     double* coefficients) {
  const auto& joints = world.model->joints();
  // A part's speed about a revolute joint: the body's bound with the part's own reach in place
  // of the whole body's (speed terms are multiplier * (body reach + distance up the chain)), or
  // less where the joint's axis is fixed in the frame of either part (turning_speed). Joints that
  // move both bodies move the pair rigidly: they do not count.
  const auto add = [&](int body, int part, int other, int other_part) {
    const double reach_delta = part_reach(world, body, -1) - part_reach(world, body, part);
    for (const auto& term : world.speed_terms[body]) {
      bool shared = false;
      if (other >= 0)
        for (const auto& o : world.speed_terms[other]) shared |= o.joint == term.joint;
      if (shared) continue;
      const Joint& j = joints[term.joint];
      const double multiplier =
          j.is_active() ? 1.0 : (j.mimic ? std::abs(j.mimic->multiplier) : 0.0);
      coefficients[term.variable] +=
          j.type == JointType::Prismatic
              ? term.factor
              : std::min(std::max(0.0, term.factor - multiplier * reach_delta),
                         multiplier * turning_speed(world, term, body, part, other, other_part));
    }
  };
  add(a, part_a, b, part_b);
  if (self) add(b, part_b, a, part_a);
}

namespace {

// Self pairs of solid bodies part against part, with the distance of part pairs no joint moves.
void build_solid_plans(CollisionWorld& world) {
  const int robot_bodies = world.obstacle_begin;
  world.self_pair_of.assign(static_cast<std::size_t>(robot_bodies * robot_bodies), -1);
  world.solid_plans.assign(world.self_pairs.size(), {});
  world.solid_part_begin.assign(world.self_pairs.size() + 1, 0);
  world.solid_part_speed_table.clear();
  // Fixed pairs are measured at any configuration: the zero one.
  std::vector<Pose> links(world.model->links().size(), Pose::Identity());
  world.fk->compute(world.model->zero_configuration(), links);
  const auto placed = [&](int body, int part) {
    return links[static_cast<std::size_t>(world.bodies[body].link)] * world.bodies[body].offset *
           world.bodies[body].body->parts[static_cast<std::size_t>(part)].pose;
  };
  std::vector<double> coefficients(static_cast<std::size_t>(world.model->dof()));
  const std::size_t row =
      std::max<std::size_t>(1, coefficients.size());  // (a robot may have no joints)
  for (std::size_t k = 0; k < world.self_pairs.size(); ++k) {
    world.solid_part_begin[k] = world.solid_part_speed_table.size() / row;
    const auto [a, b] = world.self_pairs[k];
    world.self_pair_of[static_cast<std::size_t>(a * robot_bodies + b)] = static_cast<int>(k);
    const CollisionBody& body_a = *world.bodies[a].body;
    const CollisionBody& body_b = *world.bodies[b].body;
    if (!all_simple_primitives(body_a) || !all_simple_primitives(body_b) ||
        body_a.parts.size() * body_b.parts.size() > CollisionWorld::kMaxSolidPlanPairs)
      continue;
    for (int p = 0; p < static_cast<int>(body_a.parts.size()); ++p)
      for (int q = 0; q < static_cast<int>(body_b.parts.size()); ++q) {
        SolidPartPair pair{p, q,
                           bounding_radius(body_a.parts[static_cast<std::size_t>(p)].shape) +
                               bounding_radius(body_b.parts[static_cast<std::size_t>(q)].shape)};
        std::fill(coefficients.begin(), coefficients.end(), 0.0);
        add_pair_speeds(world, a, p, b, q, true, coefficients.data());
        world.solid_part_speed_table.insert(world.solid_part_speed_table.end(),
                                            coefficients.begin(), coefficients.end());
        if (*std::max_element(coefficients.begin(), coefficients.end()) <= kFixedPair)
          pair.constant_distance =
              primitive_distance(body_a.parts[static_cast<std::size_t>(p)].shape, placed(a, p),
                                 body_b.parts[static_cast<std::size_t>(q)].shape, placed(b, q))
                  .distance;
        world.solid_plans[k].push_back(pair);
      }
  }
  world.solid_part_begin.back() = world.solid_part_speed_table.size() / row;
  world.self_pairs_solid = std::all_of(world.solid_plans.begin(), world.solid_plans.end(),
                                       [](const auto& plan) { return !plan.empty(); });
}

// Per moving body and joint above it: how fast the joint can move a point of the body.
void compute_speed_terms(CollisionWorld& world) {
  const auto& joints = world.model->joints();
  const auto& links = world.model->links();
  world.speed_terms.assign(world.bodies.size(), {});
  for (int b : world.moving_bodies) {
    const auto& slot = world.bodies[b];
    const auto& root = slot.body->tree.root();
    // Reach: bound on the distance from the current frame origin to any point of the body.
    double reach = (slot.offset * root.center).norm() + root.radius;
    for (int joint = links[slot.link].parent_joint; joint >= 0;) {
      const Joint& j = joints[joint];
      const int variable = j.is_active() ? j.variable_index : j.mimic_source_variable;
      const double multiplier =
          j.is_active() ? 1.0 : (j.mimic ? std::abs(j.mimic->multiplier) : 0.0);
      double travel = 0.0;
      if (variable >= 0) {
        if (j.type == JointType::Prismatic) {
          world.speed_terms[b].push_back({joint, variable, multiplier});
          travel = std::max(std::abs(j.limits.lower), std::abs(j.limits.upper)) * multiplier;
        } else if (j.type == JointType::Revolute || j.type == JointType::Continuous) {
          world.speed_terms[b].push_back({joint, variable, multiplier * reach});
          if (const std::optional<Pose> in_joint = fixed_offset(world, slot.link, j.child_link))
            world.speed_terms[b].back().own_turn = rotation_speed(
                *slot.body, -1, *in_joint * slot.offset, Vector3::Zero(), j.axis.normalized());
        }
      }
      reach += j.origin.translation().norm() + travel;
      joint = links[j.parent_link].parent_joint;
    }
  }
}

// Appends self pair (a, b) to the pairs the continuous path check watches.
void add_path_pairs(CollisionWorld& world, int a, int b) {
  const CollisionBody& body_a = *world.bodies[a].body;
  const CollisionBody& body_b = *world.bodies[b].body;
  const bool split =
      all_simple_primitives(body_a) && all_simple_primitives(body_b) &&
      (body_a.parts.size() > 1 || body_b.parts.size() > 1) &&
      body_a.parts.size() * body_b.parts.size() <= CollisionWorld::kMaxSplitPartPairs;
  const int parts_a = split ? static_cast<int>(body_a.parts.size()) : 1;
  const int parts_b = split ? static_cast<int>(body_b.parts.size()) : 1;
  const int dof = world.model->dof();
  for (int p = 0; p < parts_a; ++p)
    for (int q = 0; q < parts_b; ++q) {
      world.path_pairs.push_back({a, b, split ? p : -1, split ? q : -1,
                                  all_simple_primitives(body_a) && all_simple_primitives(body_b)});
      world.path_speed_coefficients.resize(world.path_pairs.size() * static_cast<std::size_t>(dof),
                                           0.0);
      double* coefficients = world.path_speed_coefficients.data() +
                             (world.path_pairs.size() - 1) * static_cast<std::size_t>(dof);
      add_pair_speeds(world, a, split ? p : -1, b, split ? q : -1, true, coefficients);
    }
}

}  // namespace

void build_motion_tables(CollisionWorld& world) {
  compute_speed_terms(world);
  for (const auto& [a, b] : world.self_pairs) add_path_pairs(world, a, b);
  const auto dof = static_cast<std::size_t>(world.model->dof());
  world.body_speed_table.assign(world.moving_bodies.size() * dof, 0.0);
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
    add_pair_speeds(world, world.moving_bodies[m], -1, -1, -1, false,
                    world.body_speed_table.data() + m * dof);
  world.self_speed_table.assign(world.self_pairs.size() * dof, 0.0);
  for (std::size_t k = 0; k < world.self_pairs.size(); ++k)
    add_pair_speeds(world, world.self_pairs[k].first, -1, world.self_pairs[k].second, -1, true,
                    world.self_speed_table.data() + k * dof);
  build_solid_plans(world);
}

}  // namespace kinetic
