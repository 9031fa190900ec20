#pragma once
// What a caller hands a running planner besides the problem: a cancel flag and a progress
// callback; and what every planner reports back about its own work.
#include <atomic>
#include <chrono>
#include <functional>
#include <string>

namespace kinetic {

struct PlanProgress {
  const char* phase = "";  // "planning", "shortcutting", "smoothing", "validating"
  int iterations = 0;
  int tree_size = 0;  // nodes in all trees / roadmap
  double elapsed_ms = 0.0;
};

struct PlanControl {
  const std::atomic<bool>* cancel = nullptr;          // set to true to stop (Error(Cancelled))
  std::function<void(const PlanProgress&)> progress;  // called from the planning thread, ~every ms
};

// Statistics of the search itself.
struct SearchStats {
  int iterations = 0;
  int tree_size = 0;
  double time_ms = 0.0;
};

// Deadline, cancellation and throttled progress in one place, polled by every planner loop.
class SearchClock {
 public:
  using Clock = std::chrono::steady_clock;
  SearchClock(double timeout_ms, const PlanControl& control);

  double elapsed_ms() const;
  bool expired() const { return Clock::now() >= deadline_; }
  // Throws Error(Cancelled) when the caller asked to stop; reports progress about every ms.
  void poll(const char* phase, int iterations, int tree_size);
  Clock::time_point deadline() const { return deadline_; }

 private:
  Clock::time_point start_, deadline_, next_report_;
  const PlanControl& control_;
};

}  // namespace kinetic
