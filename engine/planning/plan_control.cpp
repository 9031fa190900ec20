#include "engine/planning/plan_control.hpp"

#include <algorithm>

#include "engine/core/error.hpp"

namespace kinetic {

SearchClock::SearchClock(double timeout_ms, const PlanControl& control, long iteration_limit)
    : start_(Clock::now()),
      deadline_(start_ + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double, std::milli>(timeout_ms))),
      next_report_(start_),
      control_(control),
      iteration_limit_(iteration_limit),
      last_read_(start_) {}

double SearchClock::elapsed_ms() const {
  return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
}

bool SearchClock::expired_in_loop() {
  if (iteration_limit_ != kNoIterationLimit && polls_ > iteration_limit_) return true;
  if (--calls_to_read_ > 0) return false;
  const auto now = Clock::now();
  const auto since = now - last_read_;
  last_read_ = now;
  // The stride doubles while reads come within 25 µs of each other and halves beyond 100 µs.
  constexpr int kMostCallsPerRead = 64;
  if (since < std::chrono::microseconds(25))
    read_stride_ = std::min(2 * read_stride_, kMostCallsPerRead);
  else if (since > std::chrono::microseconds(100))
    read_stride_ = std::max(read_stride_ / 2, 1);
  calls_to_read_ = read_stride_;
  return now >= deadline_;
}

void SearchClock::poll(const char* phase, int iterations, int tree_size) {
  ++polls_;
  if (control_.cancel && control_.cancel->load(std::memory_order_relaxed))
    throw Error(ErrorCode::Cancelled, std::string("planning cancelled during ") + phase);
  if (!control_.progress) return;
  const auto now = Clock::now();
  if (now < next_report_) return;
  next_report_ = now + std::chrono::milliseconds(1);
  control_.progress({phase, iterations, tree_size, elapsed_ms()});
}

}  // namespace kinetic
