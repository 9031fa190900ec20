#include "engine/trajectory/join_at_rest.hpp"

namespace kinetic {

Trajectory join_at_rest(const std::vector<Trajectory>& runs) {
  if (runs.empty()) return {};
  if (runs.size() == 1) return runs.front();
  std::vector<double> times, values, waypoints;
  for (size_t r = 0; r < runs.size(); ++r) {
    const Trajectory& run = runs[r];
    const double shift = r == 0 ? 0.0 : times.back() - run.start_time();
    for (const TrajectorySampleRef sample : run.samples()) {
      times.push_back(sample.t + shift);
      for (const auto* part : {&sample.position, &sample.velocity, &sample.acceleration})
        values.insert(values.end(), part->data(), part->data() + part->size());
    }
    // The junction waypoint is the previous run's last one.
    for (size_t w = r == 0 ? 0 : 1; w < run.waypoint_times().size(); ++w)
      waypoints.push_back(run.waypoint_times()[w] + shift);
  }
  const Trajectory& first = runs.front();
  return Trajectory::from_storage(first.robot(), first.joint_names(), first.units(),
                                  std::move(times), std::move(values), std::move(waypoints));
}

}  // namespace kinetic
