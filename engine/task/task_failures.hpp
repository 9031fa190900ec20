#pragma once
// Why the candidates of a pick and place failed, gathered for the message when none succeeds:
// per stage how many candidates it stopped and its most frequent reason, and what to change.
#include <map>
#include <string>
#include <vector>

#include "engine/task/stage_chain.hpp"

namespace kinetic::task_detail {

class FailureTally {
 public:
  // One failure that stopped `candidates` candidates (a grasp without IK stops all its places).
  void add(const StageFailure& failure, int candidates);
  int total() const { return total_; }
  // The stage that failed most often (the first seen on a tie).
  std::string most_common() const;
  // "most often the transfer failed (6 of 8): <reason>; the approach failed for 2: <reason>"
  std::string summary() const;

 private:
  struct Entry {
    int count = 0;
    std::map<std::string, int> reasons;
  };
  std::map<std::string, Entry> stages_;
  std::vector<std::string> order_;  // stages as first seen
  int total_ = 0;
};

// What the user can change when `stage` is what failed most often.
std::string hint_for_stage(const std::string& stage);

}  // namespace kinetic::task_detail
