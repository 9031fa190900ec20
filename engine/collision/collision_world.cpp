// Builds a CollisionWorld: the robot's link bodies (reused from a previous world of the same
// robot), the scene's objects (an unchanged primitive keeps its sphere tree), the matrix of
// allowed pairs, the obstacles' broad phase, the pairs checked, and the motion tables
// (pair_motion.cpp).
#include "engine/collision/collision_world.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <set>

#include "engine/collision/lane_check.hpp"
#include "engine/collision/pair_motion.hpp"
#include "engine/collision/self_pair_table.hpp"
#include "engine/collision/slot_reach.hpp"
#include "engine/collision/witness_check.hpp"
#include "engine/core/error.hpp"
#include "engine/core/printable_text.hpp"

namespace kinetic {
namespace {

// The motion checks keep, for every pair of robot links checked against each other, a bound per
// joint on how fast the pair closes (pairs × joints, twice): beyond this many terms a robot is
// refused with what to do rather than run out of memory (2,000 links on one base: 2 million pairs
// × 2,000 joints, 32 GB a table). PR2 or a dual-arm TIAGo needs under 200,000.
constexpr std::size_t kMaxPairJointTerms = 16'000'000;

std::shared_ptr<const CollisionBody> link_body(const Link& link, SphereResolution resolution) {
  std::vector<std::pair<Shape, Pose>> shapes;
  for (const auto& collision : link.collisions)
    shapes.emplace_back(shape_from_geometry(collision.geometry), collision.origin);
  return make_collision_body(link.name, shapes, resolution, /*with_cover=*/true);
}

// A body made of exactly this box, cylinder, sphere or half-space (meshes are read from files
// that may have changed, so they are always rebuilt).
bool same_primitive(const CollisionBody& body, const Shape& shape) {
  if (body.parts.size() != 1 || shape.type == Shape::Type::Mesh) return false;
  const FclPart& part = body.parts.front();
  const Shape& had = part.shape;
  return part.pose.matrix() == Pose::Identity().matrix() && had.type == shape.type &&
         had.box_size == shape.box_size && had.radius == shape.radius &&
         had.length == shape.length && had.normal == shape.normal && had.offset == shape.offset;
}

// An object named like a link would share the link's row of the matrix (and leave the matrix one
// entry short of the bodies), silently dropping checks: pairs are allowed or checked by name.
void refuse_duplicate_names(const RobotModel& model, const PlanningScene& scene) {
  std::set<std::string> seen;
  const auto refuse = [&](const std::string& name) {
    if (model.find_link(name) >= 0)
      throw Error(ErrorCode::InvalidValue,
                  "scene object '" + printable(name) + "' has the name of a link of robot '" +
                      model.name() + "'",
                  "rename the object: scene objects and robot links need different names");
    if (!seen.insert(name).second)  // (PlanningScene keeps its names unique)
      throw Error(ErrorCode::InvalidValue, "two scene objects are named '" + printable(name) + "'",
                  "give every scene object its own name");
  };
  for (const auto& object : scene.attached_objects()) refuse(object.name);
  for (const auto& obstacle : scene.obstacles()) refuse(obstacle.name);
}

// The scene's objects after the links. Bodies of the previous world, by name: an object whose
// primitive shape is unchanged (moved, attached, released) keeps its sphere tree, which is most of
// what a scene change costs.
void add_scene_bodies(CollisionWorld& world, const PlanningScene& scene,
                      const CollisionWorld* previous) {
  std::map<std::string, std::shared_ptr<const CollisionBody>> had;
  if (previous)
    for (std::size_t i = static_cast<std::size_t>(previous->robot_body_count());
         i < previous->bodies.size(); ++i)
      had.emplace(previous->bodies[i].body->name, previous->bodies[i].body);
  const auto body_for = [&](const std::string& name, const Shape& shape) {
    const auto found = had.find(name);
    if (found != had.end() && same_primitive(*found->second, shape)) return found->second;
    return make_collision_body(name, {{shape, Pose::Identity()}}, world.options.resolution);
  };
  world.attached_begin = world.robot_body_count();
  for (const auto& object : scene.attached_objects()) {
    const int link = world.model->link_index(object.link);  // throws MissingLink with close names
    world.bodies.push_back({body_for(object.name, object.shape), link, object.pose});
  }
  world.obstacle_begin = world.body_count();
  for (const auto& obstacle : scene.obstacles())
    world.bodies.push_back({body_for(obstacle.name, obstacle.shape), -1, obstacle.pose});
}

// Every body by name: the robot's matrix among the links, attached objects allowed against their
// link and touch links, then the scene's overrides.
void build_allowed_matrix(CollisionWorld& world, const PlanningScene& scene) {
  std::vector<std::string> body_names;
  body_names.reserve(world.bodies.size());
  for (const auto& slot : world.bodies) body_names.push_back(slot.body->name);
  world.acm = AllowedCollisionMatrix(std::move(body_names));
  const int links = world.robot_body_count();
  const auto& robot = world.robot_acm;
  for (int a = 0; a < links; ++a)
    for (int b = a + 1; b < links; ++b)
      world.acm.set_allowed(a, b,
                            robot.allowed(robot.find(world.model->links()[a].name),
                                          robot.find(world.model->links()[b].name)));
  for (std::size_t i = 0; i < scene.attached_objects().size(); ++i) {
    const auto& object = scene.attached_objects()[i];
    const int index = world.attached_begin + static_cast<int>(i);
    world.acm.set_allowed(index, world.bodies[index].link, true);
    for (const auto& touch : object.touch_links)
      world.acm.set_allowed(index, world.model->link_index(touch), true);
  }
  for (const auto& [names, allow] : scene.overrides()) {
    const int a = world.acm.find(names.first), b = world.acm.find(names.second);
    if (a >= 0 && b >= 0)
      world.acm.set_allowed(a, b, allow);  // objects not in the scene yet: ignored
  }
}

// Root spheres, the obstacles' fixed poses and primitive frames, and the broad phase over them.
void place_obstacles(CollisionWorld& world) {
  const std::size_t count = world.bodies.size();
  world.local_root_centers.assign(count, Vector3::Zero());
  world.root_radii.assign(count, 0.0);
  world.has_root.assign(count, 0);
  for (std::size_t i = 0; i < count; ++i)
    if (!world.bodies[i].body->tree.empty()) {
      world.has_root[i] = 1;
      world.local_root_centers[i] = world.bodies[i].body->tree.root().center;
      world.root_radii[i] = world.bodies[i].body->tree.root().radius;
    }
  world.fixed_poses.assign(count, Pose::Identity());
  world.fixed_bound_centers.assign(count, Vector3::Zero());
  world.obstacle_frames.assign(count - static_cast<std::size_t>(world.obstacle_begin), {});
  std::vector<ObstacleTree::Entry> bounded;
  std::vector<std::optional<SphereSet::Solid>> solids;  // per bounded entry: its box or cylinder
  for (int i = world.obstacle_begin; i < world.body_count(); ++i) {
    const CollisionBody& body = *world.bodies[i].body;
    world.fixed_poses[i] = world.bodies[i].offset;
    if (body.tree.empty()) {
      world.unbounded_obstacles.push_back(i);  // half-spaces
    } else {
      world.fixed_bound_centers[i] = world.fixed_poses[i] * body.tree.root().center;
      bounded.push_back({i, world.fixed_bound_centers[i], body.tree.root().radius});
      solids.emplace_back();
    }
    if (!body.single_primitive) continue;
    const Pose placed = world.fixed_poses[i] * body.parts.front().pose;
    CollisionWorld::ObstacleFrame& frame = world.obstacle_frames[i - world.obstacle_begin];
    frame.to_local = placed.linear().transpose();
    frame.origin = placed.translation();
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 3; ++r) frame.local_columns[c][r] = frame.to_local(r, c);
    const Vector3 local_origin = frame.to_local * frame.origin;
    for (int r = 0; r < 3; ++r) frame.local_origin[r] = local_origin[r];
    frame.shape = &body.parts.front().shape;
    frame.enclosing_radius = bounding_radius(*frame.shape);
    if (body.tree.empty() || !placed.matrix().allFinite()) continue;  // (SphereSet skips these)
    frame.culled_as_solid =
        frame.shape->type == Shape::Type::Box || frame.shape->type == Shape::Type::Cylinder;
    if (frame.shape->type == Shape::Type::Box)
      solids.back() =
          SphereSet::Solid{frame.to_local, frame.origin, frame.shape->box_size / 2.0, 0.0};
    else if (frame.shape->type == Shape::Type::Cylinder)
      solids.back() =
          SphereSet::Solid{frame.to_local, frame.origin,
                           Vector3(0.0, 0.0, frame.shape->length / 2.0), frame.shape->radius};
  }
  world.obstacle_spheres.build(bounded, &solids);
  world.obstacle_tree.build(std::move(bounded));
}

// The bodies that move, the self pairs checked among them, and which obstacles each may touch.
void choose_pairs(CollisionWorld& world) {
  for (int i = 0; i < world.obstacle_begin; ++i)
    if (!world.bodies[i].body->empty()) world.moving_bodies.push_back(i);
  for (std::size_t x = 0; x < world.moving_bodies.size(); ++x)
    for (std::size_t y = x + 1; y < world.moving_bodies.size(); ++y)
      if (!world.acm.allowed(world.moving_bodies[x], world.moving_bodies[y]))
        world.self_pairs.emplace_back(world.moving_bodies[x], world.moving_bodies[y]);
  const std::size_t joints = static_cast<std::size_t>(std::max(world.model->dof(), 1));
  if (world.self_pairs.size() > kMaxPairJointTerms / joints)
    throw Error(ErrorCode::InvalidModel,
                "robot '" + world.model->name() + "' has " +
                    std::to_string(world.moving_bodies.size()) +
                    " links with collision "
                    "geometry: " +
                    std::to_string(world.self_pairs.size()) +
                    " pairs of them to check against each other, "
                    "each over " +
                    std::to_string(joints) + " joints, more than the collision checker holds (" +
                    std::to_string(kMaxPairJointTerms) + " pair-joint terms)",
                "list the link pairs that can never touch as SRDF disable_collisions or "
                "kinetic.toml [collision] "
                "skip_pairs, or check that this is the robot you meant to open");
  for (const auto& [a, b] : world.self_pairs) {
    world.self_first.push_back(a);
    world.self_second.push_back(b);
    world.self_reach.push_back(world.root_radii[a] + world.root_radii[b]);
  }
  world.scene_allowed.assign(world.moving_bodies.size(), {});
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
    for (int o = world.obstacle_begin; o < world.body_count(); ++o)
      world.scene_allowed[m].push_back(world.acm.allowed(world.moving_bodies[m], o) ? 1 : 0);
  world.slot_of_body.assign(world.bodies.size(), -1);
  for (std::size_t m = 0; m < world.moving_bodies.size(); ++m)
    world.slot_of_body[world.moving_bodies[m]] = static_cast<int>(m);
}

// The moving bodies' sphere covers, flat in single precision. The slack covers the rounding of
// placing and comparing them in single precision within kMaxCoverCoordinate of the origin
// (cover_check.cpp): a few micrometres there.
void flatten_covers(CollisionWorld& world) {
  constexpr double kCoverSlack = 2e-5;  // m
  world.cover_begin.assign(1, 0);
  for (const int b : world.moving_bodies) {
    const SphereCover& cover = world.bodies[b].body->cover;
    const Pose& offset = world.bodies[b].offset;
    for (std::size_t i = 0; i < cover.size(); ++i) {
      const Vector3 c = offset * cover.centers[i];
      world.cover_x.push_back(static_cast<float>(c.x()));
      world.cover_y.push_back(static_cast<float>(c.y()));
      world.cover_z.push_back(static_cast<float>(c.z()));
      world.cover_r.push_back(static_cast<float>(cover.radii[i] + kCoverSlack));
    }
    world.cover_begin.push_back(world.cover_x.size());
  }
  // Padding for the cover tests' last eight-sphere loads (cover_check.cpp).
  for (std::vector<float>* column :
       {&world.cover_x, &world.cover_y, &world.cover_z, &world.cover_r})
    column->resize(column->size() + kLanes, 0.0f);
}

}  // namespace

double CollisionWorld::padding_for(bool self_pair, const CheckOptions& check) const {
  if (!self_pair) return robot_padding + check.padding;
  return 2.0 * (robot_padding + (check.pad_self ? check.padding : 0.0));
}

void CollisionWorld::speeds_along(const std::vector<double>& table, std::size_t rows,
                                  const JointVector& dq, std::vector<double>& out) const {
  const auto dof = static_cast<std::size_t>(model->dof());
  // |dq| once, not once per row: every motion check and continuous segment asks this of three
  // tables (the built-in Panda among 20 boxes: 3.5% of a plan's instructions). The same sums in
  // the same order as a row at a time.
  constexpr std::size_t kOnStack = 32;
  std::array<double, kOnStack> on_stack;
  thread_local std::vector<double> on_heap;
  double* speed = on_stack.data();
  if (dof > kOnStack) {
    on_heap.resize(dof);
    speed = on_heap.data();
  }
  for (std::size_t v = 0; v < dof; ++v) speed[v] = std::abs(dq[static_cast<Eigen::Index>(v)]);
  out.resize(rows);
  const double* row = table.data();
  for (std::size_t r = 0; r < rows; ++r, row += dof) {
    double sum = 0.0;
    for (std::size_t v = 0; v < dof; ++v) sum += row[v] * speed[v];
    out[r] = sum;
  }
}

std::shared_ptr<const CollisionWorld> build_collision_world(RobotModelPtr model,
                                                            const CollisionCheckerOptions& options,
                                                            const AllowedCollisionMatrix& robot_acm,
                                                            const PlanningScene& scene,
                                                            const CollisionWorld* previous) {
  if (!model) throw Error(ErrorCode::InvalidModel, "collision checker: no robot model");
  if (!(options.refinement_margin >= 0.0))
    throw Error(ErrorCode::InvalidValue, "collision checker: refinement margin must be >= 0");
  for (const auto& link : model->links())
    if (robot_acm.find(link.name) < 0)
      throw Error(ErrorCode::MissingLink,
                  "allowed collision matrix lacks link '" + link.name + "'");
  refuse_duplicate_names(*model, scene);
  static std::atomic<std::uint64_t> next_id{1};
  auto world = std::make_shared<CollisionWorld>();
  world->id = next_id.fetch_add(1, std::memory_order_relaxed);
  world->options = options;
  world->robot_acm = robot_acm;
  world->scene = scene;
  world->robot_padding = model->config().collision.padding;
  const bool same_robot =
      previous && previous->model == model && previous->options.resolution == options.resolution;
  world->fk = same_robot ? previous->fk : std::make_shared<ForwardKinematics>(*model);
  if (same_robot)
    world->bodies.assign(previous->bodies.begin(),
                         previous->bodies.begin() + previous->robot_body_count());
  else
    for (const auto& link : model->links())
      world->bodies.push_back({link_body(link, options.resolution), link.index, Pose::Identity()});
  world->model = std::move(model);
  add_scene_bodies(*world, scene, same_robot ? previous : nullptr);
  build_allowed_matrix(*world, scene);
  place_obstacles(*world);
  choose_pairs(*world);
  world->scene_reach_gap = slot_scene_reach_gaps(*world);
  flatten_covers(*world);
  choose_witnesses(*world);
  world->lanes = lane_model_for(*world);
  build_motion_tables(*world);
  world->self_tables.resize(world->self_pairs.size());
  for (std::size_t k = 0; k < world->self_pairs.size(); ++k)
    if (world->solid_plans[k].empty())  // solid pairs are measured part by part already
      world->self_tables[k] = SelfPairTable::of_pair(*world, k);
  return world;
}

}  // namespace kinetic
