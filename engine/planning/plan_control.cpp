#include "engine/planning/plan_control.hpp"

#include "engine/core/error.hpp"

namespace kinetic {

SearchClock::SearchClock(double timeout_ms, const PlanControl& control, long iteration_limit)
    : start_(Clock::now()),
      deadline_(start_ + std::chrono::duration_cast<Clock::duration>(
                             std::chrono::duration<double, std::milli>(timeout_ms))),
      next_report_(start_),
      control_(control),
      iteration_limit_(iteration_limit) {}

double SearchClock::elapsed_ms() const {
  return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
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
