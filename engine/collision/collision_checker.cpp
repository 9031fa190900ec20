#include "engine/collision/collision_checker.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

#include "engine/collision/leaf_exact.hpp"
#include "engine/collision/primitive_distance.hpp"
#include "engine/collision/rotation_speed.hpp"
#include "engine/core/error.hpp"
#include "engine/core/printable_text.hpp"

namespace kinetic {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// The motion checks keep, for every pair of robot links checked against each other, a bound per
// joint on how fast the pair closes (pairs × joints, twice): beyond this many terms a robot is
// refused with what to do rather than run out of memory (2,000 links on one base: 2 million pairs
// × 2,000 joints, 32 GB a table). PR2 or a dual-arm TIAGo needs under 200,000.
constexpr std::size_t kMaxPairJointTerms = 16'000'000;
// Up to this many bounded obstacles the flat sphere test beats the tree walk (measured on the
// Panda: 100 obstacles, 11 links).
constexpr std::size_t kFlatBroadPhase = 512;

// Whether `near` holds for some obstacle whose bounds come within `radius` + `padding` of `center`
// (the scene checks' broad phase): the flat sphere test for up to kFlatBroadPhase bounded
// obstacles, else the tree, then every unbounded one (half-spaces).
template <class Near>
bool any_obstacle_near(const SphereSet& spheres, const ObstacleTree& tree, const std::vector<int>& unbounded,
                       const Vector3& center, double radius, double padding, const Near& near) {
  const bool flat = spheres.size() <= kFlatBroadPhase && spheres.usable() &&
                    center.cwiseAbs().maxCoeff() <= SphereSet::kMaxCoordinate;
  if (flat ? spheres.any_near(center, radius + padding, near) : tree.any_near(center, radius, padding, near))
    return true;
  for (const int o : unbounded)
    if (near(o)) return true;
  return false;
}

std::shared_ptr<const CollisionBody> link_body(const Link& link, SphereResolution resolution) {
  std::vector<std::pair<Shape, Pose>> shapes;
  for (const auto& collision : link.collisions)
    shapes.emplace_back(shape_from_geometry(collision.geometry), collision.origin);
  return make_collision_body(link.name, shapes, resolution);
}

}  // namespace

CollisionChecker::CollisionChecker(RobotModelPtr model, CollisionCheckerOptions options)
    : model_(std::move(model)), options_(options) {
  if (!model_) throw Error(ErrorCode::InvalidModel, "collision checker: no robot model");
  if (!(options_.refinement_margin >= 0.0))
    throw Error(ErrorCode::InvalidValue, "collision checker: refinement margin must be >= 0");
  fk_ = std::make_shared<ForwardKinematics>(*model_);
  robot_acm_ = default_allowed_collisions(*model_);
  robot_padding_ = model_->config().collision.padding;
  for (const auto& link : model_->links())
    bodies_.push_back({link_body(link, options_.resolution), link.index, Pose::Identity()});
  link_poses_.assign(model_->links().size(), Pose::Identity());
  set_scene(PlanningScene{});
  update(model_->zero_configuration());
}

void CollisionChecker::set_robot_acm(const AllowedCollisionMatrix& acm) {
  for (const auto& link : model_->links())
    if (acm.find(link.name) < 0)
      throw Error(ErrorCode::MissingLink, "allowed collision matrix lacks link '" + link.name + "'");
  robot_acm_ = acm;
  set_scene(PlanningScene(scene_));
}

namespace {
// A body made of exactly this box, cylinder, sphere or half-space (meshes are read from files
// that may have changed, so they are always rebuilt).
bool same_primitive(const CollisionBody& body, const Shape& shape) {
  if (body.parts.size() != 1 || shape.type == Shape::Type::Mesh) return false;
  const FclPart& part = body.parts.front();
  const Shape& had = part.shape;
  return part.pose.matrix() == Pose::Identity().matrix() && had.type == shape.type && had.box_size == shape.box_size &&
         had.radius == shape.radius && had.length == shape.length && had.normal == shape.normal &&
         had.offset == shape.offset;
}
}  // namespace

void CollisionChecker::set_scene(const PlanningScene& scene) {
  // Pairs are allowed or checked by name: an object named like a link would share the link's row
  // of the matrix (and leave the matrix one entry short of the bodies), silently dropping checks.
  std::set<std::string> seen;
  const auto refuse_link_name = [&](const std::string& name) {
    if (model_->find_link(name) >= 0)
      throw Error(ErrorCode::InvalidValue,
                  "scene object '" + printable(name) + "' has the name of a link of robot '" + model_->name() + "'",
                  "rename the object: scene objects and robot links need different names");
    if (!seen.insert(name).second)  // (PlanningScene keeps its names unique)
      throw Error(ErrorCode::InvalidValue, "two scene objects are named '" + printable(name) + "'",
                  "give every scene object its own name");
  };
  for (const auto& object : scene.attached_objects()) refuse_link_name(object.name);
  for (const auto& obstacle : scene.obstacles()) refuse_link_name(obstacle.name);
  scene_ = scene;
  ++scene_generation_;
  const int links = robot_body_count();
  // Bodies of the last scene, by name: an object whose primitive shape is unchanged (moved,
  // attached, released) keeps its sphere tree, which is most of what a scene change costs.
  std::map<std::string, std::shared_ptr<const CollisionBody>> previous;
  for (std::size_t i = static_cast<std::size_t>(links); i < bodies_.size(); ++i)
    previous.emplace(bodies_[i].body->name, bodies_[i].body);
  const auto body_for = [&](const std::string& name, const Shape& shape) {
    const auto found = previous.find(name);
    if (found != previous.end() && same_primitive(*found->second, shape)) return found->second;
    return make_collision_body(name, {{shape, Pose::Identity()}}, options_.resolution);
  };
  bodies_.resize(links);
  attached_begin_ = links;
  for (const auto& object : scene.attached_objects()) {
    const int link = model_->link_index(object.link);  // throws MissingLink with close names
    bodies_.push_back({body_for(object.name, object.shape), link, object.pose});
  }
  obstacle_begin_ = static_cast<int>(bodies_.size());
  for (const auto& obstacle : scene.obstacles())
    bodies_.push_back({body_for(obstacle.name, obstacle.shape), -1, obstacle.pose});

  std::vector<std::string> body_names;
  body_names.reserve(bodies_.size());
  for (const auto& slot : bodies_) body_names.push_back(slot.body->name);
  acm_ = AllowedCollisionMatrix(std::move(body_names));
  for (int a = 0; a < links; ++a)
    for (int b = a + 1; b < links; ++b) acm_.set_allowed(a, b, robot_acm_.allowed(robot_acm_.find(model_->links()[a].name), robot_acm_.find(model_->links()[b].name)));
  for (std::size_t i = 0; i < scene.attached_objects().size(); ++i) {
    const auto& object = scene.attached_objects()[i];
    const int index = attached_begin_ + static_cast<int>(i);
    acm_.set_allowed(index, bodies_[index].link, true);
    for (const auto& touch : object.touch_links) acm_.set_allowed(index, model_->link_index(touch), true);
  }
  for (const auto& [names, allow] : scene.overrides()) {
    const int a = acm_.find(names.first), b = acm_.find(names.second);
    if (a >= 0 && b >= 0) acm_.set_allowed(a, b, allow);  // objects not in the scene yet: ignored
  }

  body_poses_.assign(bodies_.size(), Pose::Identity());
  local_root_centers_.assign(bodies_.size(), Vector3::Zero());
  root_radii_.assign(bodies_.size(), 0.0);
  for (int i = 0; i < body_count(); ++i)
    if (!bodies_[i].body->tree.empty()) {
      local_root_centers_[i] = bodies_[i].body->tree.root().center;
      root_radii_[i] = bodies_[i].body->tree.root().radius;
    }
  bound_centers_.assign(bodies_.size(), Vector3::Zero());
  for (int i = obstacle_begin_; i < body_count(); ++i) {
    body_poses_[i] = bodies_[i].offset;
    if (!bodies_[i].body->tree.empty()) bound_centers_[i] = pose(i) * bodies_[i].body->tree.root().center;
  }
  obstacle_frames_.assign(bodies_.size() - obstacle_begin_, {});
  for (int i = obstacle_begin_; i < body_count(); ++i) {
    const CollisionBody& body = *bodies_[i].body;
    if (!body.single_primitive) continue;
    const Pose world = pose(i) * body.parts.front().pose;
    ObstacleFrame& frame = obstacle_frames_[i - obstacle_begin_];
    frame.to_local = world.linear().transpose();
    frame.origin = world.translation();
    frame.shape = &body.parts.front().shape;
  }
  std::vector<ObstacleTree::Entry> bounded;
  unbounded_obstacles_.clear();
  for (int i = obstacle_begin_; i < body_count(); ++i) {
    const SphereTree& tree = bodies_[i].body->tree;
    if (tree.empty()) unbounded_obstacles_.push_back(i);  // half-spaces
    else bounded.push_back({i, bound_centers_[i], tree.root().radius});
  }
  obstacle_spheres_.build(bounded);
  obstacle_tree_.build(std::move(bounded));
  rebuild_pairs();
  update_body_poses();
}

void CollisionChecker::rebuild_pairs() {
  moving_bodies_.clear();
  for (int i = 0; i < obstacle_begin_; ++i)
    if (!bodies_[i].body->empty()) moving_bodies_.push_back(i);
  self_pairs_.clear();
  for (std::size_t x = 0; x < moving_bodies_.size(); ++x)
    for (std::size_t y = x + 1; y < moving_bodies_.size(); ++y)
      if (!acm_.allowed(moving_bodies_[x], moving_bodies_[y]))
        self_pairs_.emplace_back(moving_bodies_[x], moving_bodies_[y]);
  const std::size_t joints = static_cast<std::size_t>(std::max(model_->dof(), 1));
  if (self_pairs_.size() > kMaxPairJointTerms / joints)
    throw Error(ErrorCode::InvalidModel,
                "robot '" + model_->name() + "' has " + std::to_string(moving_bodies_.size()) + " links with collision "
                    "geometry: " + std::to_string(self_pairs_.size()) + " pairs of them to check against each other, "
                    "each over " + std::to_string(joints) + " joints, more than the collision checker holds (" +
                    std::to_string(kMaxPairJointTerms) + " pair-joint terms)",
                "list the link pairs that can never touch as SRDF disable_collisions or kinetic.toml [collision] "
                "skip_pairs, or check that this is the robot you meant to open");
  self_hull_hint_.assign(self_pairs_.size(), HullHint{});
  self_first_.clear();
  self_second_.clear();
  self_reach_.clear();
  for (const auto& [a, b] : self_pairs_) {
    self_first_.push_back(a);
    self_second_.push_back(b);
    self_reach_.push_back(root_radii_[a] + root_radii_[b]);
  }
  scene_allowed_.assign(moving_bodies_.size(), {});
  for (std::size_t m = 0; m < moving_bodies_.size(); ++m)
    for (int o = obstacle_begin_; o < body_count(); ++o)
      scene_allowed_[m].push_back(acm_.allowed(moving_bodies_[m], o) ? 1 : 0);
  candidates_.reserve(self_pairs_.size() + moving_bodies_.size() * (body_count() - obstacle_begin_));
  compute_speed_terms();
  path_pairs_.clear();
  path_speed_coefficients_.clear();
  for (const auto& [a, b] : self_pairs_) add_path_pairs(a, b);
  const auto dof = static_cast<std::size_t>(model_->dof());
  body_speed_table_.assign(moving_bodies_.size() * dof, 0.0);
  for (std::size_t m = 0; m < moving_bodies_.size(); ++m)
    add_pair_speeds(moving_bodies_[m], -1, -1, -1, false, body_speed_table_.data() + m * dof);
  self_speed_table_.assign(self_pairs_.size() * dof, 0.0);
  for (std::size_t k = 0; k < self_pairs_.size(); ++k)
    add_pair_speeds(self_pairs_[k].first, -1, self_pairs_[k].second, -1, true, self_speed_table_.data() + k * dof);
  build_solid_plans();
}

void CollisionChecker::compute_speed_terms() {
  const auto& joints = model_->joints();
  const auto& links = model_->links();
  speed_terms_.assign(bodies_.size(), {});
  for (int b : moving_bodies_) {
    const auto& slot = bodies_[b];
    const auto& root = slot.body->tree.root();
    // Reach: bound on the distance from the current frame origin to any point of the body.
    double reach = (slot.offset * root.center).norm() + root.radius;
    for (int joint = links[slot.link].parent_joint; joint >= 0;) {
      const Joint& j = joints[joint];
      const int variable = j.is_active() ? j.variable_index : j.mimic_source_variable;
      const double multiplier = j.is_active() ? 1.0 : (j.mimic ? std::abs(j.mimic->multiplier) : 0.0);
      double travel = 0.0;
      if (variable >= 0) {
        if (j.type == JointType::Prismatic) {
          speed_terms_[b].push_back({joint, variable, multiplier});
          travel = std::max(std::abs(j.limits.lower), std::abs(j.limits.upper)) * multiplier;
        } else if (j.type == JointType::Revolute || j.type == JointType::Continuous) {
          speed_terms_[b].push_back({joint, variable, multiplier * reach});
          if (const std::optional<Pose> in_joint = fixed_offset(slot.link, j.child_link))
            speed_terms_[b].back().own_turn =
                rotation_speed(*slot.body, -1, *in_joint * slot.offset, Vector3::Zero(), j.axis.normalized());
        }
      }
      reach += j.origin.translation().norm() + travel;
      joint = links[j.parent_link].parent_joint;
    }
  }
}

void CollisionChecker::update(const JointVector& q) {
  fk_->compute(q, link_poses_);
  update_body_poses();
}

// Robot links read their poses straight from the FK buffer (pose()); only attached objects get
// a pose of their own. Root-sphere centres are kept flat to keep this loop free of indirections.
void CollisionChecker::update_body_poses() {
  for (int i = attached_begin_; i < obstacle_begin_; ++i)
    body_poses_[i] = link_poses_[bodies_[i].link] * bodies_[i].offset;
  for (int i : moving_bodies_) {
    const Pose& p = pose(i);
    bound_centers_[i].noalias() = p.linear() * local_root_centers_[i] + p.translation();
  }
}

double CollisionChecker::padding_for(bool self_pair, const CheckOptions& options) const {
  if (!self_pair) return robot_padding_ + options.padding;
  return 2.0 * (robot_padding_ + (options.pad_self ? options.padding : 0.0));
}

bool CollisionChecker::pair_in_collision(int a, int b, double padding, double margin) const {
  if (a > b) std::swap(a, b);
  if (b < obstacle_begin_ && margin == options_.refinement_margin) return pair_in_collision(a, b, padding);
  return kinetic::pair_in_collision(*bodies_[a].body, pose(a), *bodies_[b].body, pose(b), padding, margin);
}

bool CollisionChecker::pair_in_collision(int a, int b, double padding) const {
  if (a > b) std::swap(a, b);
  if (b < obstacle_begin_)
    if (const int k = self_pair_of_[static_cast<std::size_t>(a * obstacle_begin_ + b)]; k >= 0)
      return self_pair_in_collision(static_cast<std::size_t>(k), padding);
  return kinetic::pair_in_collision(*bodies_[a].body, pose(a), *bodies_[b].body,
                                    pose(b), padding, options_.refinement_margin);
}

bool CollisionChecker::self_pair_in_collision(std::size_t k, double padding, double extra,
                                              const double* part_extra, bool proof_only) const {
  const auto [a, b] = self_pairs_[k];
  if (proof_only && solid_plans_[k].empty() && hull_proof_applies(*bodies_[a].body, *bodies_[b].body)) {
    // Not apart by the hulls: not proven (a sphere walk under a run-wide padding reaches its
    // leaves and proves little more, and cost a third of the planning time).
    return !hulls_apart(*bodies_[a].body, pose(a), *bodies_[b].body, pose(b), padding + extra, &self_hull_hint_[k]);
  }
  if (!solid_plans_[k].empty()) {
    if (part_extra)  // each part pair's own extra, tighter than the whole bodies'
      return solid_parts_collision(*bodies_[a].body, pose(a), *bodies_[b].body, pose(b), padding, solid_plans_[k],
                                   part_extra + solid_part_begin_[k]);
    return solid_parts_collision(*bodies_[a].body, pose(a), *bodies_[b].body, pose(b), padding + extra,
                                 solid_plans_[k]);
  }
  return pair_in_collision_hulls_first(*bodies_[a].body, pose(a), *bodies_[b].body, pose(b), padding + extra,
                                       options_.refinement_margin, &self_hull_hint_[k]);
}

bool CollisionChecker::self_in_collision(double padding, const double* extra, const double* part_extra,
                                         bool proof_only, std::uint64_t pairs, std::uint64_t* unproven) const {
  if (unproven) *unproven = 0;
  // Root spheres first, 64 pairs at a time into a bit mask (no branch per pair: in a free state
  // nearly every pair is culled here, and a data-dependent branch per pair mispredicts), then
  // the pairs whose roots overlap, in order.
  const Vector3* centers = bound_centers_.data();
  const int* first = self_first_.data();
  const int* second = self_second_.data();
  const double* reach = self_reach_.data();
  const std::size_t count = self_reach_.size();
  for (std::size_t base = 0; base < count; base += 64) {
    const std::size_t end = std::min(count, base + 64);
    std::uint64_t near = 0;
    for (std::size_t k = base; k < end; ++k) {
      const double limit = reach[k] + padding + (extra ? extra[k] : 0.0);
      const bool overlap = !((centers[first[k]] - centers[second[k]]).squaredNorm() > limit * limit);
      near |= static_cast<std::uint64_t>(overlap) << (k - base);
    }
    for (; near != 0; near &= near - 1) {
      const std::size_t k = base + static_cast<std::size_t>(std::countr_zero(near));
      if (!(pairs & slot_bit(k))) continue;
      if (self_pair_in_collision(k, padding, extra ? extra[k] : 0.0, part_extra, proof_only)) {
        // This pair and the ones not looked at yet stay open; those proven before it do not.
        if (unproven) *unproven = pairs & (kAllSlots << std::min<std::size_t>(k, 63));
        return true;
      }
    }
  }
  return false;
}

bool CollisionChecker::slot_near_scene(std::size_t m, double padding, double margin) const {
  const int b = moving_bodies_[m];
  const Vector3& center = bound_centers_[b];
  const double radius = root_radii_[b];
  const bool has_root = !bodies_[b].body->tree.empty();
  const unsigned char* allowed = scene_allowed_[m].data();
  const auto collides = [&](int o) {
    const int k = o - obstacle_begin_;
    if (allowed[k]) return false;
    // The root sphere against the primitive itself (the broad phase only knew its bounding
    // sphere): most near misses end here, before any traversal is set up.
    const ObstacleFrame& frame = obstacle_frames_[k];
    if (has_root && frame.shape &&
        solid_point_distance(*frame.shape, frame.to_local * (center - frame.origin)) - radius > padding)
      return false;
    return pair_in_collision(b, o, padding, margin);
  };
  return any_obstacle_near(obstacle_spheres_, obstacle_tree_, unbounded_obstacles_, center, radius, padding, collides);
}

bool CollisionChecker::slot_root_clear(std::size_t m, double base_padding, double extra, double& gap) const {
  const double padding = base_padding + extra;
  const int b = moving_bodies_[m];
  gap = -kInf;
  if (bodies_[b].body->tree.empty()) return false;
  const Vector3& center = bound_centers_[b];
  const double radius = root_radii_[b];
  const unsigned char* allowed = scene_allowed_[m].data();
  const auto near = [&](int o) {
    const int k = o - obstacle_begin_;
    if (allowed[k]) return false;
    const ObstacleFrame& frame = obstacle_frames_[k];
    if (!frame.shape) return true;
    const double clearance = solid_point_distance(*frame.shape, frame.to_local * (center - frame.origin)) - radius;
    if (clearance > padding) return false;
    gap = clearance - base_padding;
    return true;
  };
  return !any_obstacle_near(obstacle_spheres_, obstacle_tree_, unbounded_obstacles_, center, radius, padding, near);
}

bool CollisionChecker::scene_in_collision(double base_padding, const double* extra_padding, bool exact,
                                          SlotMask slots) const {
  const double margin = exact ? 0.0 : options_.refinement_margin;
  for (std::size_t m = 0; m < moving_bodies_.size(); ++m)
    if ((slots & slot_bit(m)) && slot_near_scene(m, base_padding + (extra_padding ? extra_padding[m] : 0.0), margin))
      return true;
  return false;
}

bool CollisionChecker::in_collision(const JointVector& q, const CheckOptions& options) {
  update(q);
  // Obstacles first: in a cluttered scene they decide most states, and the broad phase makes a
  // clear scene cheap to rule out.
  if (options.scene && scene_in_collision(padding_for(false, options))) return true;
  return options.self && self_in_collision(padding_for(true, options));
}

std::vector<Contact> CollisionChecker::contacts(const JointVector& q, const CheckOptions& options) {
  update(q);
  std::vector<Contact> out;
  auto consider = [&](int a, int b, double padding) {
    const auto verdict = classify_pair(*bodies_[a].body, pose(a), *bodies_[b].body,
                                       pose(b), padding, padding);
    if (verdict == PairVerdict::Free) return;
    const auto depth = exact_pair_penetration(*bodies_[a].body, pose(a), *bodies_[b].body,
                                              pose(b), padding);
    if (depth || verdict == PairVerdict::Colliding)
      out.push_back({body_name(a), body_name(b), depth.value_or(0.0)});
  };
  if (options.self)
    for (const auto& [a, b] : self_pairs_) consider(a, b, padding_for(true, options));
  if (options.scene)
    for (std::size_t m = 0; m < moving_bodies_.size(); ++m)
      for (int o = obstacle_begin_; o < body_count(); ++o)
        if (!scene_allowed_[m][o - obstacle_begin_])
          consider(moving_bodies_[m], o, padding_for(false, options));
  std::sort(out.begin(), out.end(), [](const Contact& x, const Contact& y) { return x.depth > y.depth; });
  return out;
}

DistanceResult CollisionChecker::min_distance(const JointVector& q, const DistanceOptions& options) {
  update(q);
  candidates_.clear();
  // Root-sphere gaps order the pairs; the exact pass stops at the first pair whose gap is no
  // smaller than the best distance found (a half-space has no root sphere: it goes first).
  // The root anchors also give an attained bound: some pair of geometry points lies within
  // centre distance + anchor_a + anchor_b, so no pair whose gap exceeds the smallest such bound can
  // hold the minimum.
  double attained = kInf;
  auto consider = [&](int a, int b) {
    const CollisionBody& body_a = *bodies_[a].body;
    const CollisionBody& body_b = *bodies_[b].body;
    double gap = -kInf;
    if (!body_a.tree.empty() && !body_b.tree.empty()) {
      const SphereNode& root_a = body_a.tree.root();
      const SphereNode& root_b = body_b.tree.root();
      const double centres = (bound_centers_[a] - bound_centers_[b]).norm();
      gap = centres - root_a.radius - root_b.radius;
      attained = std::min(attained, centres + root_a.anchor + root_b.anchor);
    }
    candidates_.push_back({gap, a, b});
  };
  if (options.self)
    for (const auto& [a, b] : self_pairs_) consider(a, b);
  if (options.scene)
    for (std::size_t m = 0; m < moving_bodies_.size(); ++m)
      for (int o = obstacle_begin_; o < body_count(); ++o)
        if (!scene_allowed_[m][o - obstacle_begin_]) consider(moving_bodies_[m], o);

  DistanceResult result;
  if (candidates_.empty()) return result;
  if (options.exact)  // (sphere-only answers keep every pair: their bounds are not distances)
    candidates_.erase(std::remove_if(candidates_.begin(), candidates_.end(),
                                     [&](const Candidate& c) { return c.lower > attained; }),
                      candidates_.end());
  std::sort(candidates_.begin(), candidates_.end(),
            [](const Candidate& x, const Candidate& y) { return x.lower < y.lower; });
  result.found = true;
  result.distance = kInf;
  if (!options.exact) {
    // Sphere lower bounds only: the smallest over the pairs.
    for (const Candidate& c : candidates_) {
      if (c.lower >= result.distance) break;
      const DistanceBounds bounds = pair_distance_bounds(*bodies_[c.a].body, pose(c.a),
                                                         *bodies_[c.b].body, pose(c.b), result.distance);
      if (bounds.lower < result.distance) {
        result.distance = bounds.lower;
        result.body_a = body_name(c.a);
        result.body_b = body_name(c.b);
        result.point_a = bound_centers_[c.a];
        result.point_b = bound_centers_[c.b];
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
  for (const Candidate& c : candidates_) {
    if (c.lower > 0.0) break;
    if (!pair_in_collision(c.a, c.b, 0.0)) continue;
    const PairDistance d = exact_pair_distance(*bodies_[c.a].body, pose(c.a), *bodies_[c.b].body,
                                               pose(c.b), kTouching);
    if (d.distance >= kTouching) continue;  // (the tiers disagree within rounding: search on)
    result.distance = d.distance;
    result.point_a = d.point_a;
    result.point_b = d.point_b;
    result.body_a = body_name(c.a);
    result.body_b = body_name(c.b);
    break;
  }
  // A quick attained distance per mesh pair first: the exact searches then start with a bound
  // close to the answer and skip most of the geometry. Probing stops once a few probes in a row
  // no longer improve the bound (the pairs are in gap order: later ones rarely do, and each probe
  // costs about as much as the exact search it was meant to speed up).
  constexpr int kFruitlessProbes = 2;
  int fruitless = result.distance <= 0.0 ? kFruitlessProbes : 0;
  for (const Candidate& c : candidates_) {
    // A probe pays when it can cut the bound by half or more; nearer to the bound, the exact
    // search of the pair costs about what a probe does.
    if (c.lower >= 0.5 * result.distance || fruitless >= kFruitlessProbes) break;
    const CollisionBody& body_a = *bodies_[c.a].body;
    const CollisionBody& body_b = *bodies_[c.b].body;
    if (!leaf_exact_supported(body_a, body_b)) continue;
    const LeafDistance probe = leaf_exact_distance(body_a, pose(c.a), body_b, pose(c.b),
                                                   result.distance, true);
    fruitless = probe.found ? 0 : fruitless + 1;
    if (probe.found) {
      result.distance = probe.pair.distance;
      result.point_a = probe.pair.point_a;
      result.point_b = probe.pair.point_b;
      result.body_a = body_name(c.a);
      result.body_b = body_name(c.b);
    }
  }
  for (const Candidate& c : candidates_) {
    if (c.lower >= result.distance) break;
    // At contact only a pair that reports penetration (FCL's) can be nearer; the leaf searches
    // never go below 0.
    if (result.distance <= 0.0 && leaf_exact_supported(*bodies_[c.a].body, *bodies_[c.b].body)) continue;
    const PairDistance d = exact_pair_distance(*bodies_[c.a].body, pose(c.a),
                                               *bodies_[c.b].body, pose(c.b), result.distance);
    if (d.distance < result.distance) {
      result.distance = d.distance;
      result.point_a = d.point_a;
      result.point_b = d.point_b;
      result.body_a = body_name(c.a);
      result.body_b = body_name(c.b);
    }
  }
  return result;
}

bool CollisionChecker::motion_valid_discrete(const JointVector& q0, const JointVector& q1,
                                             double resolution, const CheckOptions& options) {
  if (!(resolution > 0.0))
    throw Error(ErrorCode::InvalidValue, "motion check: resolution must be > 0");
  const JointVector dq = q1 - q0;
  const int steps = std::max(1, static_cast<int>(std::ceil(dq.cwiseAbs().maxCoeff() / resolution)));
  for (int i = 0; i <= steps; ++i)
    if (in_collision(q0 + dq * (static_cast<double>(i) / steps), options)) return false;
  return true;
}

bool CollisionChecker::motion_valid_continuous(const JointVector& q0, const JointVector& q1,
                                               const CheckOptions& options, double tolerance) {
  if (q1.size() != q0.size())
    throw Error(ErrorCode::DimensionMismatch, "continuous motion check: the segment's ends differ in size");
  if (!q1.allFinite())  // (q0 is checked by path_begin; a failing start must not hide a bad end)
    throw Error(ErrorCode::InvalidValue, "continuous motion check: joint values must be finite numbers");
  return path_begin(q0, options, tolerance) && path_advance(q1);
}

}  // namespace kinetic
