#pragma once
// Rendering a job's screenshots and frame sequences offscreen (viewer::HeadlessRenderer, no window,
// no display): the robot via RobotVisuals, the scene as it is at the instant shown (objects
// attached by then move with their link, released ones stay where they were put) via
// scene_visuals, optional start / goal ghosts and the TCP trail, with a camera framed once per
// output so frames do not jump.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_file.hpp"
#include "app/headless/output_set.hpp"
#include "viewer/camera.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::viewer {
class VulkanContext;
}

namespace kinetic::app::headless {

class JobRenderer {
 public:
  // Creates the Vulkan context; JobFailure(kExitRenderFailed) when there is no usable device.
  JobRenderer();
  ~JobRenderer();
  JobRenderer(const JobRenderer&) = delete;
  JobRenderer& operator=(const JobRenderer&) = delete;

  // Makes the render target for one image size ahead of use (run_job does it on a helper thread
  // while the robot loads and the motion is planned).
  void prepare_target(uint32_t width, uint32_t height);
  // Renders one PNG and writes it to its temporary in `outputs`.
  void screenshot(const Job& job, JobResult& result, const ScreenshotSpec& spec,
                  OutputSet& outputs);
  // Renders every frame to its temporary in `outputs`, in order; stops between frames when
  // interrupted (JobFailure, see interruption.hpp).
  void frames(const Job& job, JobResult& result, const FramesSpec& spec, OutputSet& outputs);
  // What the images show differently from the robot file and the loader did not already say: a
  // visual mesh file that exists but could not be read, drawn as a placeholder box. Once each.
  std::vector<std::string> warnings(const RobotModel& robot) const;

 private:
  struct Target;
  Target& target(uint32_t width, uint32_t height, const JobResult& result);

  std::shared_ptr<viewer::VulkanContext> context_;
  std::vector<std::unique_ptr<Target>> targets_;  // one per image size
};

// The instants (s, from the trajectory's start) a FramesSpec asks for.
std::vector<double> frame_times(const FramesSpec& spec, double duration);
// The pattern's run of '#' replaced by the zero-padded index.
std::string frame_file(const std::string& pattern, size_t index, size_t count);
// A camera placed as the spec says; without an eye, looking from its view (or the studio's) and
// framing the spheres tightly (Camera::fit_tight), then moved closer by its zoom.
viewer::Camera make_camera(const CameraSpec& spec,
                           const std::vector<viewer::BoundingSphere>& framed, float aspect);

}  // namespace kinetic::app::headless
