#include "app/viewport/frame_quality_policy.hpp"

namespace kinetic::app {

viewer::FrameQuality FrameQualityPolicy::choose(double now_ms) const {
  const bool in_motion = now_ms - last_end_ms_ < motion_gap_ms_;
  return in_motion && full_cost_ms_ > budget_ms_ ? viewer::FrameQuality::Fast
                                                 : viewer::FrameQuality::Full;
}

void FrameQualityPolicy::drawn(viewer::FrameQuality quality, double cost_ms, double end_ms) {
  if (quality == viewer::FrameQuality::Full) full_cost_ms_ = cost_ms;
  owes_settle_ = quality == viewer::FrameQuality::Fast;
  last_end_ms_ = end_ms;
}

}  // namespace kinetic::app
