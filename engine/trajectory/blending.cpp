#include "engine/trajectory/blending.hpp"

#include "engine/core/error.hpp"

namespace kinetic {

JointPath join_paths(const std::vector<JointPath>& paths, const TrajectoryLimits& limits,
                     double tolerance) {
  if (paths.empty()) throw Error(ErrorCode::InvalidValue, "nothing to blend: no paths given");
  JointPath joined;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    check_path(paths[i], limits);
    if (!joined.empty()) {
      const double gap = (paths[i].front() - joined.back()).cwiseAbs().maxCoeff();
      if (gap > tolerance)
        throw Error(ErrorCode::InvalidValue,
                    "cannot blend: path " + std::to_string(i) + " starts " + std::to_string(gap) +
                        " away from where path " + std::to_string(i - 1) + " ends",
                    "plan each motion from the previous motion's goal");
    }
    joined.insert(joined.end(), paths[i].begin() + (joined.empty() ? 0 : 1), paths[i].end());
  }
  return joined;
}

Trajectory blend_paths(const std::vector<JointPath>& paths, const TrajectoryLimits& limits,
                       const TimeOptimalOptions& options, double tolerance) {
  return time_optimal(join_paths(paths, limits, tolerance), limits, options);
}

JointPath join_trajectories(const std::vector<Trajectory>& trajectories,
                            const TrajectoryLimits& limits, double tolerance) {
  std::vector<JointPath> paths;
  for (std::size_t i = 0; i < trajectories.size(); ++i) {
    const Trajectory& t = trajectories[i];
    if (t.empty())
      throw Error(ErrorCode::InvalidValue,
                  "cannot blend: trajectory " + std::to_string(i) + " is empty");
    JointPath path;
    if (t.waypoint_times().empty()) {
      path = {t.samples().front().position, t.samples().back().position};
    } else {
      for (double time : t.waypoint_times()) path.push_back(t.sample(time).position);
      path.front() = t.samples().front().position;
      path.back() = t.samples().back().position;
    }
    paths.push_back(std::move(path));
  }
  return join_paths(paths, limits, tolerance);
}

Trajectory blend_trajectories(const std::vector<Trajectory>& trajectories,
                              const TrajectoryLimits& limits, const TimeOptimalOptions& options,
                              double tolerance) {
  return time_optimal(join_trajectories(trajectories, limits, tolerance), limits, options);
}

}  // namespace kinetic
