// The CollisionChecker facade: one shared world, this thread's query states, and the argument
// checks every public query makes before it reaches them.
#include "engine/collision/collision_checker.hpp"

#include <algorithm>
#include <cmath>

#include "engine/collision/self_pair_table.hpp"
#include "engine/core/error.hpp"

namespace kinetic {
namespace {

// The end of a one-segment continuous check (its start is checked by path_begin; a failing start
// must not hide a bad end).
void check_segment_end(const JointVector& q0, const JointVector& q1, const char* check) {
  if (q1.size() != q0.size())
    throw Error(ErrorCode::DimensionMismatch,
                std::string(check) + ": the segment's ends differ in size");
  if (!q1.allFinite())
    throw Error(ErrorCode::InvalidValue,
                std::string(check) + ": joint values must be finite numbers");
}

}  // namespace

CollisionChecker::CollisionChecker(RobotModelPtr model, CollisionCheckerOptions options) {
  if (!model) throw Error(ErrorCode::InvalidModel, "collision checker: no robot model");
  const AllowedCollisionMatrix robot_acm = default_allowed_collisions(*model);
  use_world(build_collision_world(std::move(model), options, robot_acm, PlanningScene{}));
}

CollisionChecker::CollisionChecker(std::shared_ptr<const CollisionWorld> world) {
  if (!world) throw Error(ErrorCode::InvalidModel, "collision checker: no collision world");
  use_world(std::move(world));
}

void CollisionChecker::use_world(std::shared_ptr<const CollisionWorld> world) {
  world_ = std::move(world);
  state_.reset(*world_);
  update(world_->model->zero_configuration());
}

void CollisionChecker::set_robot_acm(const AllowedCollisionMatrix& acm) {
  use_world(
      build_collision_world(world_->model, world_->options, acm, world_->scene, world_.get()));
}

void CollisionChecker::set_scene(const PlanningScene& scene) {
  use_world(build_collision_world(world_->model, world_->options, world_->robot_acm, scene,
                                  world_.get()));
}

void CollisionChecker::update(const JointVector& q) {
  update_poses(*world_, state_, q);
}

bool CollisionChecker::pair_in_collision(int a, int b, double padding) const {
  return kinetic::pair_in_collision(*world_, state_, a, b, padding);
}

bool CollisionChecker::pair_in_collision(int a, int b, double padding, double margin) const {
  return kinetic::pair_in_collision(*world_, state_, a, b, padding, margin);
}

bool CollisionChecker::in_collision(const JointVector& q, const CheckOptions& options) {
  return kinetic::in_collision(*world_, state_, q, options);
}

std::vector<Contact> CollisionChecker::contacts(const JointVector& q, const CheckOptions& options) {
  update(q);
  return contacts_at_poses(*world_, state_, options);
}

DistanceResult CollisionChecker::min_distance(const JointVector& q,
                                              const DistanceOptions& options) {
  update(q);
  return min_distance_at_poses(*world_, state_, distance_, options);
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
  check_segment_end(q0, q1, "continuous motion check");
  return path_begin(q0, options, tolerance) && path_advance(q1);
}

void CollisionChecker::measure_tables_ahead() const {
  for (const auto& table : world_->self_tables)
    if (table) table->measure_ahead();
}

bool CollisionChecker::grid_motion_free(const JointVector& q0, const JointVector& q1, int steps,
                                        const CheckOptions& options, int first_step,
                                        bool with_ends) {
  return kinetic::grid_motion_free(*world_, state_, grid_, q0, q1, steps, options, first_step,
                                   with_ends);
}

bool CollisionChecker::self_motion_valid_continuous(const JointVector& q0, const JointVector& q1,
                                                    const CheckOptions& options, double tolerance) {
  check_segment_end(q0, q1, "continuous self-collision check");
  return self_path_begin(q0, options, tolerance) && self_path_advance(q1);
}

bool CollisionChecker::path_begin(const JointVector& q, const CheckOptions& options,
                                  double tolerance) {
  return kinetic::path_begin(*world_, state_, path_, q, options, tolerance);
}

bool CollisionChecker::path_advance(const JointVector& q) {
  return kinetic::path_advance(*world_, state_, path_, q);
}

bool CollisionChecker::self_path_begin(const JointVector& q, const CheckOptions& options,
                                       double tolerance) {
  CheckOptions self_only = options;
  self_only.self = true;
  self_only.scene = false;
  return path_begin(q, self_only, tolerance);
}

}  // namespace kinetic
