#include "app/trajectories/trajectory_check.hpp"

#include <algorithm>
#include <memory>
#include <string>

#include "app/trajectories/trajectory_timing.hpp"
#include "engine/collision/collision_checker.hpp"
#include "engine/planning/state_diagnostics.hpp"

namespace kinetic::app {

namespace {

constexpr double kSameInstant = 1e-9;  // s: a sample this close to a change happens with it

// The samples of `trajectory` in [from, to): one stretch between two scene changes.
std::vector<TrajectorySample> samples_between(const Trajectory& trajectory, double from,
                                              double to) {
  std::vector<TrajectorySample> samples;
  for (const TrajectorySample& sample : trajectory.samples())
    if (sample.t >= from - kSameInstant && sample.t < to - kSameInstant) samples.push_back(sample);
  return samples;
}

// The scene a stretch is checked in: the change's, where the gripper may already touch what the
// next change grasps (the approach ends in that contact; the task planner allowed it the same way,
// engine/task/stage_chain.cpp). Releasing needs nothing: the release's scene allows it itself.
PlanningScene stretch_scene(const std::vector<SceneChange>& changes, std::size_t i) {
  PlanningScene scene = changes[i].scene;
  if (i + 1 >= changes.size()) return scene;
  for (const AttachedObject& grasped : changes[i + 1].scene.attached_objects()) {
    if (scene.has_attached(grasped.name) || !scene.has_obstacle(grasped.name)) continue;
    scene.allow(grasped.name, grasped.link);
    for (const std::string& link : grasped.touch_links) scene.allow(grasped.name, link);
  }
  return scene;
}

// Collisions only (the limits are checked once over the whole motion).
TrajectoryValidationOptions collisions_only(const TrajectoryCollisionCheck& check) {
  TrajectoryValidationOptions options;
  options.check_position = options.check_velocity = options.check_acceleration =
      options.check_jerk = false;
  options.max_position_jump = -1.0;
  options.in_collision = check.in_collision;
  options.collision_names = check.collision_names;
  return options;
}

}  // namespace

TrajectoryCollisionCheck trajectory_collision_check(const RobotModelPtr& robot,
                                                    const PlanningScene& scene,
                                                    const std::vector<std::string>& joint_names,
                                                    const JointVector& base) {
  std::vector<int> map;
  for (const std::string& name : joint_names) map.push_back(robot->variable_index(name));
  auto checker = std::make_shared<CollisionChecker>(robot);
  checker->set_scene(scene);
  // The trajectory's positions as a full model configuration.
  const auto to_model = [map, base](const JointVector& q) {
    JointVector full = base;
    for (std::size_t i = 0; i < map.size(); ++i)
      if (map[i] >= 0) full[map[i]] = q[static_cast<int>(i)];
    return full;
  };
  return {[checker, to_model](const JointVector& q) { return checker->in_collision(to_model(q)); },
          [checker, to_model](const JointVector& q) {
            return describe_contacts(checker->contacts(to_model(q)));
          }};
}

TrajectoryValidationReport validate_in_scenes(const RobotModelPtr& robot,
                                              const Trajectory& trajectory,
                                              const PlanningScene& scene,
                                              const std::vector<SceneChange>& scene_changes,
                                              const JointVector& base) {
  const TrajectoryLimits limits = limits_for(*robot, trajectory.joint_names());
  if (scene_changes.empty()) {
    const TrajectoryCollisionCheck check =
        trajectory_collision_check(robot, scene, trajectory.joint_names(), base);
    TrajectoryValidationOptions options;
    options.in_collision = check.in_collision;
    options.collision_names = check.collision_names;
    return validate_trajectory(trajectory, limits, options);
  }
  TrajectoryValidationOptions limits_only;
  TrajectoryValidationReport report = validate_trajectory(trajectory, limits, limits_only);
  for (std::size_t i = 0; i < scene_changes.size(); ++i) {
    // The first change holds from the start, as playback has it (scene_change_index()).
    const double from = i == 0 ? trajectory.start_time() : scene_changes[i].time;
    const double to =
        i + 1 < scene_changes.size() ? scene_changes[i + 1].time : trajectory.end_time() + 1.0;
    const std::vector<TrajectorySample> samples = samples_between(trajectory, from, to);
    if (samples.empty()) continue;
    const TrajectoryCollisionCheck check = trajectory_collision_check(
        robot, stretch_scene(scene_changes, i), trajectory.joint_names(), base);
    if (samples.size() == 1) {  // a stretch of one instant: that state alone
      ++report.states_checked;
      if (check.in_collision(samples.front().position)) {
        TrajectoryViolation v;
        v.kind = ViolationKind::Collision;
        v.time = v.start_time = v.end_time = samples.front().t;
        v.value = 1.0;
        v.detail = check.collision_names(samples.front().position);
        v.message = "collision at t = " + std::to_string(v.time) + " s (" + v.detail + ")";
        report.violations.push_back(std::move(v));
      }
      continue;
    }
    const Trajectory stretch(trajectory.robot(), trajectory.joint_names(), trajectory.units(),
                             samples);
    TrajectoryValidationReport part = validate_trajectory(stretch, limits, collisions_only(check));
    report.states_checked += part.states_checked;
    for (TrajectoryViolation& v : part.violations) report.violations.push_back(std::move(v));
  }
  std::stable_sort(
      report.violations.begin(), report.violations.end(),
      [](const TrajectoryViolation& a, const TrajectoryViolation& b) { return a.time < b.time; });
  return report;
}

}  // namespace kinetic::app
