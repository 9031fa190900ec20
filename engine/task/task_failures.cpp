#include "engine/task/task_failures.hpp"

#include <algorithm>

namespace kinetic::task_detail {

void FailureTally::add(const StageFailure& failure, int candidates) {
  auto [it, fresh] = stages_.try_emplace(failure.stage);
  if (fresh) order_.push_back(failure.stage);
  it->second.count += candidates;
  it->second.reasons[failure.reason] += candidates;
  total_ += candidates;
}

std::string FailureTally::most_common() const {
  std::string best;
  for (const std::string& stage : order_)
    if (best.empty() || stages_.at(stage).count > stages_.at(best).count) best = stage;
  return best;
}

std::string FailureTally::summary() const {
  std::vector<std::string> stages = order_;
  std::stable_sort(stages.begin(), stages.end(), [&](const std::string& a, const std::string& b) {
    return stages_.at(a).count > stages_.at(b).count;
  });
  std::string text;
  for (const std::string& stage : stages) {
    const Entry& entry = stages_.at(stage);
    const auto reason =
        std::max_element(entry.reasons.begin(), entry.reasons.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    text += text.empty() ? "most often the " + stage + " failed (" + std::to_string(entry.count) +
                               " of " + std::to_string(total_) + "): " + reason->first
                         : "; the " + stage + " failed for " + std::to_string(entry.count) + ": " +
                               reason->first;
  }
  return text;
}

std::string hint_for_stage(const std::string& stage) {
  if (stage == "grasp pose")
    return "the object may be out of the arm's reach, or every grasp collides there: move the "
           "object or the "
           "robot, or allow more grasps (PickPlaceRequest::max_grasps, GripperSpec::yaw_steps)";
  if (stage == "place pose")
    return "move the place pose within the arm's reach, or allow more rotations of it "
           "(PickPlaceRequest::place_yaw_steps)";
  if (stage == "move to pre-grasp" || stage == "transfer")
    return "give the free-space planner more time (options.timeout_ms, or the offline preset) or "
           "clear the way; "
           "shorter approach_distance / place_distance keep the pre-poses nearer the object";
  return "shorten the straight moves (approach_distance, lift_distance, place_distance, "
         "retreat_distance) or clear "
         "the space around the object and the place pose";
}

}  // namespace kinetic::task_detail
