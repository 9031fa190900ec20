#pragma once
// FrameQualityPolicy: picks each viewport frame's quality. While the view keeps changing (a frame
// starts within `motion_gap_ms` of the previous one: a camera drag, a gizmo drag with IK answers,
// playback) on a device whose full-quality (multisampled) frames cost more than `budget_ms`, frames
// are drawn Fast (single-sample, at a reduced resolution stretched to the window: see
// viewer::FrameQuality) so they keep up; once the motion stops the host draws one full-quality
// "settle" frame, so every still picture is multisampled at full resolution. On a fast GPU every
// frame stays Full.
#include "viewer/swapchain_target.hpp"

namespace kinetic::app {

class FrameQualityPolicy {
 public:
  explicit FrameQualityPolicy(double budget_ms = 33.0, double motion_gap_ms = 150.0)
      : budget_ms_(budget_ms), motion_gap_ms_(motion_gap_ms) {}

  // Quality for a frame that starts at now_ms (any steady clock in milliseconds).
  viewer::FrameQuality choose(double now_ms) const;
  // Records a presented frame: its quality, its cost and when it ended.
  void drawn(viewer::FrameQuality quality, double cost_ms, double end_ms);
  // True after a Fast frame: the host owes a Full frame once `motion_gap_ms` pass without frames.
  bool owes_settle_frame() const { return owes_settle_; }
  double motion_gap_ms() const { return motion_gap_ms_; }
  double full_frame_cost_ms() const { return full_cost_ms_; }

 private:
  double budget_ms_;
  double motion_gap_ms_;
  double full_cost_ms_ = 0.0;  // the latest Full frame's cost
  double last_end_ms_ = -1e300;
  bool owes_settle_ = false;
};

}  // namespace kinetic::app
