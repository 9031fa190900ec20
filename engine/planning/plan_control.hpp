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

// Deadline, cancellation and throttled progress in one place, polled by every planner loop (once
// per iteration). An iteration limit, where given, ends the search's turn after that many polls
// too: a turn counted in the search's own work lasts as long on any machine, stalls included.
class SearchClock {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr long kNoIterationLimit = -1;
  SearchClock(double timeout_ms, const PlanControl& control,
              long iteration_limit = kNoIterationLimit);

  double elapsed_ms() const;
  // The deadline passed, or the iteration limit's iterations all ran.
  bool expired() const {
    return (iteration_limit_ != kNoIterationLimit && polls_ > iteration_limit_) ||
           Clock::now() >= deadline_;
  }
  // expired() for a loop that asks once per iteration: the clock is read only every few calls,
  // aiming at about every 50 µs of the loop's time (a read cost 2% of a cage search on a VM's
  // clock). The deadline is seen late by at most the calls since the last read: up to 64 where
  // iterations have been quick, one where they take over 100 µs.
  bool expired_in_loop();
  // Throws Error(Cancelled) when the caller asked to stop; reports progress about every ms.
  void poll(const char* phase, int iterations, int tree_size);
  Clock::time_point deadline() const { return deadline_; }

 private:
  Clock::time_point start_, deadline_, next_report_;
  const PlanControl& control_;
  long iteration_limit_;
  long polls_ = 0;
  Clock::time_point last_read_;  // expired_in_loop's
  int read_stride_ = 1, calls_to_read_ = 1;
};

}  // namespace kinetic
