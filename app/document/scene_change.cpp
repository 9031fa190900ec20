#include "app/document/scene_change.hpp"

#include <algorithm>

#include "engine/trajectory/trajectory_limits.hpp"

namespace kinetic::app {

int scene_change_index(const std::vector<SceneChange>& changes, double t) {
  if (changes.empty()) return -1;
  const auto after =
      std::upper_bound(changes.begin(), changes.end(), t,
                       [](double time, const SceneChange& change) { return time < change.time; });
  return after == changes.begin() ? 0 : static_cast<int>(after - changes.begin()) - 1;
}

std::vector<SceneChange> retime_scene_changes(const std::vector<SceneChange>& changes,
                                              const Trajectory& before, const Trajectory& after) {
  if (changes.empty() || before.empty() || after.empty()) return changes;
  // The waypoints the re-timing went through, as trajectory_waypoints() picks them.
  std::vector<double> times = before.waypoint_times();
  if (times.empty())
    for (const auto& sample : before.samples()) times.push_back(sample.t);
  JointPath path;
  for (double t : times) path.push_back(before.sample(t).position);
  std::vector<std::size_t> kept_index;
  const JointPath kept = remove_duplicate_waypoints(path, &kept_index, 1e-9);
  const bool corresponds = after.waypoint_times().size() == kept.size();
  std::vector<SceneChange> out = changes;
  for (SceneChange& change : out) {
    if (corresponds) {
      constexpr double kSameInstant = 1e-9;
      const auto next = std::upper_bound(times.begin(), times.end(), change.time + kSameInstant);
      const std::size_t i =
          next == times.begin() ? 0 : static_cast<std::size_t>(next - times.begin()) - 1;
      change.time = after.waypoint_times()[kept_index[i]];
    } else {
      const double fraction =
          before.duration() > 0 ? (change.time - before.start_time()) / before.duration() : 0.0;
      change.time = after.start_time() + fraction * after.duration();
    }
  }
  return out;
}

}  // namespace kinetic::app
