// Contacts and the minimum distance at one configuration: pairs ordered by their root-sphere gaps,
// then measured exactly, nearest first, with probes that give the exact searches a tight bound
// early.
#include "engine/collision/distance_query.hpp"

#include <algorithm>
#include <limits>

#include "engine/collision/leaf_exact.hpp"
#include "engine/core/infinity.hpp"

namespace kinetic {
namespace {}  // namespace

std::vector<Contact> contacts_at_poses(const CollisionWorld& world, const CollisionState& state,
                                       const CheckOptions& options) {
  std::vector<Contact> out;
  auto consider = [&](int a, int b, double padding) {
    const auto verdict = classify_pair(*world.bodies[a].body, state.pose(a), *world.bodies[b].body,
                                       state.pose(b), padding, padding);
    if (verdict == PairVerdict::Free) return;
    const auto depth = exact_pair_penetration(*world.bodies[a].body, state.pose(a),
                                              *world.bodies[b].body, state.pose(b), padding);
    if (depth || verdict == PairVerdict::Colliding)
      out.push_back({world.body_name(a), world.body_name(b), depth.value_or(0.0)});
  };
  if (options.self)
    for (const auto& [a, b] : world.self_pairs) consider(a, b, world.padding_for(true, options));
  if (options.scene)
    for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
      for (int o = world.obstacle_begin; o < world.body_count(); ++o)
        if (!world.scene_allowed[m][o - world.obstacle_begin])
          consider(world.moving_bodies[m], o, world.padding_for(false, options));
  std::sort(out.begin(), out.end(),
            [](const Contact& x, const Contact& y) { return x.depth > y.depth; });
  return out;
}

DistanceResult min_distance_at_poses(const CollisionWorld& world, const CollisionState& state,
                                     DistanceState& buffers, const DistanceOptions& options) {
  buffers.candidates.clear();
  // Root-sphere gaps order the pairs; the exact pass stops at the first pair whose gap is no
  // smaller than the best distance found (a half-space has no root sphere: it goes first).
  // The root anchors also give an attained bound: some pair of geometry points lies within
  // centre distance + anchor_a + anchor_b, so no pair whose gap exceeds the smallest such bound can
  // hold the minimum.
  double attained = kInf;
  auto consider = [&](int a, int b) {
    const CollisionBody& body_a = *world.bodies[a].body;
    const CollisionBody& body_b = *world.bodies[b].body;
    double gap = -kInf;
    if (!body_a.tree.empty() && !body_b.tree.empty()) {
      const SphereNode& root_a = body_a.tree.root();
      const SphereNode& root_b = body_b.tree.root();
      const double centres = (state.bound_centers[a] - state.bound_centers[b]).norm();
      gap = centres - root_a.radius - root_b.radius;
      attained = std::min(attained, centres + root_a.anchor + root_b.anchor);
    }
    buffers.candidates.push_back({gap, a, b});
  };
  if (options.self)
    for (const auto& [a, b] : world.self_pairs) consider(a, b);
  if (options.scene)
    for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
      for (int o = world.obstacle_begin; o < world.body_count(); ++o)
        if (!world.scene_allowed[m][o - world.obstacle_begin]) consider(world.moving_bodies[m], o);

  DistanceResult result;
  if (buffers.candidates.empty()) return result;
  if (options.exact)  // (sphere-only answers keep every pair: their bounds are not distances)
    buffers.candidates.erase(
        std::remove_if(buffers.candidates.begin(), buffers.candidates.end(),
                       [&](const DistanceState::Candidate& c) { return c.lower > attained; }),
        buffers.candidates.end());
  std::sort(buffers.candidates.begin(), buffers.candidates.end(),
            [](const DistanceState::Candidate& x, const DistanceState::Candidate& y) {
              return x.lower < y.lower;
            });
  result.found = true;
  result.distance = kInf;
  if (!options.exact) {
    // Sphere lower bounds only: the smallest over the pairs.
    for (const DistanceState::Candidate& c : buffers.candidates) {
      if (c.lower >= result.distance) break;
      const DistanceBounds bounds =
          pair_distance_bounds(*world.bodies[c.a].body, state.pose(c.a), *world.bodies[c.b].body,
                               state.pose(c.b), result.distance);
      if (bounds.lower < result.distance) {
        result.distance = bounds.lower;
        result.body_a = world.body_name(c.a);
        result.body_b = world.body_name(c.b);
        result.point_a = state.bound_centers[c.a];
        result.point_b = state.bound_centers[c.b];
      }
    }
    result.exact = false;
    return result;
  }
  // Touching pairs: a distance search that has not found the contact yet measures every nearby
  // piece pair at the probes' loose bound (milliseconds for two meshes that cross). The yes/no
  // test finds a contact quickly (only pairs whose root spheres overlap can touch); the searches
  // below then run with a bound of 0, which still lets a pair that reports penetration win.
  constexpr double kTouching = 1e-9;
  for (const DistanceState::Candidate& c : buffers.candidates) {
    if (c.lower > 0.0) break;
    if (!pair_in_collision(world, state, c.a, c.b, 0.0)) continue;
    const PairDistance d = exact_pair_distance(*world.bodies[c.a].body, state.pose(c.a),
                                               *world.bodies[c.b].body, state.pose(c.b), kTouching);
    if (d.distance >= kTouching) continue;  // (the tiers disagree within rounding: search on)
    result.distance = d.distance;
    result.point_a = d.point_a;
    result.point_b = d.point_b;
    result.body_a = world.body_name(c.a);
    result.body_b = world.body_name(c.b);
    break;
  }
  // A quick attained distance per mesh pair first: the exact searches then start with a bound
  // close to the answer and skip most of the geometry. Probing stops once a few probes in a row
  // no longer improve the bound (the pairs are in gap order: later ones rarely do, and each probe
  // costs about as much as the exact search it was meant to speed up).
  constexpr int kFruitlessProbes = 2;
  int fruitless = result.distance <= 0.0 ? kFruitlessProbes : 0;
  for (const DistanceState::Candidate& c : buffers.candidates) {
    // A probe pays when it can cut the bound by half or more; nearer to the bound, the exact
    // search of the pair costs about what a probe does.
    if (c.lower >= 0.5 * result.distance || fruitless >= kFruitlessProbes) break;
    const CollisionBody& body_a = *world.bodies[c.a].body;
    const CollisionBody& body_b = *world.bodies[c.b].body;
    if (!leaf_exact_supported(body_a, body_b)) continue;
    const LeafDistance probe = leaf_exact_distance(body_a, state.pose(c.a), body_b, state.pose(c.b),
                                                   result.distance, true);
    fruitless = probe.found ? 0 : fruitless + 1;
    if (probe.found) {
      result.distance = probe.pair.distance;
      result.point_a = probe.pair.point_a;
      result.point_b = probe.pair.point_b;
      result.body_a = world.body_name(c.a);
      result.body_b = world.body_name(c.b);
    }
  }
  for (const DistanceState::Candidate& c : buffers.candidates) {
    if (c.lower >= result.distance) break;
    // At contact only a pair that reports penetration (FCL's) can be nearer; the leaf searches
    // never go below 0.
    if (result.distance <= 0.0 &&
        leaf_exact_supported(*world.bodies[c.a].body, *world.bodies[c.b].body))
      continue;
    const PairDistance d =
        exact_pair_distance(*world.bodies[c.a].body, state.pose(c.a), *world.bodies[c.b].body,
                            state.pose(c.b), result.distance);
    if (d.distance < result.distance) {
      result.distance = d.distance;
      result.point_a = d.point_a;
      result.point_b = d.point_b;
      result.body_a = world.body_name(c.a);
      result.body_b = world.body_name(c.b);
    }
  }
  return result;
}

}  // namespace kinetic
