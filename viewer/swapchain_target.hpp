#pragma once
// SwapchainTarget: the window target. The host supplies a VkSurfaceKHR made from the context's
// instance (Qt: QVulkanInstance::setVkInstance(context.instance()) then surfaceForWindow(window));
// the surface stays owned by the host and must outlive this object. Handles resize and
// out-of-date/suboptimal swapchains by recreating them; a zero-sized (minimised) window draws
// nothing.
//
// WindowRenderer (below) bundles it with a Renderer:
//   WindowRenderer view(context, surface, width, height);   // context made with surface extensions
//   view.meshes().load(...);
//   on expose/timer: view.render(scene, camera);             // false: skipped (minimised/out of
//   date) on resize:       view.resize(new_width, new_height);
//
// Frame quality: a multisampled target also keeps a single-sample pass, so a host can draw the
// frames of a camera drag or gizmo drag with FrameQuality::Fast on a slow (CPU) device and the
// still frame that follows with FrameQuality::Full. The Full pass draws into the swapchain images
// at the window's size. The Fast pass draws at `fast_scale` of it (kFastScale by default: about
// half the pixels, which a CPU rasterizer pays for per fragment) into an image of its own, which is
// then stretched onto the swapchain image with a linear blit; at scale 1, or where the surface or
// format cannot blit, it draws straight into the swapchain image.
#include <vulkan/vulkan.h>

#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "viewer/gpu_resources.hpp"
#include "viewer/render_pass.hpp"
#include "viewer/renderer.hpp"

namespace kinetic::viewer {

class VulkanContext;

enum class FrameQuality { Full, Fast };  // Fast: single-sample (no MSAA), at a reduced resolution

// The Fast pass's share of the window's width and height. 0.7 keeps 49 % of the pixels: lavapipe's
// raster threads, most of a Panda drag frame's CPU time at 1600x1000, do about half the work.
inline constexpr float kFastScale = 0.7f;

class SwapchainTarget {
 public:
  SwapchainTarget(const VulkanContext& context, VkSurfaceKHR surface, uint32_t width,
                  uint32_t height, VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT,
                  uint32_t frames_in_flight = 2, float fast_scale = kFastScale);
  ~SwapchainTarget();
  SwapchainTarget(const SwapchainTarget&) = delete;
  SwapchainTarget& operator=(const SwapchainTarget&) = delete;

  const RenderTargetFormat& format(FrameQuality quality = FrameQuality::Full) const {
    return pass(quality).format;
  }
  VkRenderPass render_pass(FrameQuality quality = FrameQuality::Full) const {
    return pass(quality).render_pass;
  }
  // False when Full is already single-sample (then Fast draws exactly as Full).
  bool has_fast_pass() const { return passes_.size() > 1; }
  uint32_t frames_in_flight() const { return static_cast<uint32_t>(frames_.size()); }
  VkExtent2D extent() const { return extent_; }
  // The extent a frame of this quality is drawn at (the Fast pass's may be smaller than extent()).
  VkExtent2D draw_extent(FrameQuality quality) const;

  // Call when the window size changes; the swapchain is rebuilt before the next frame.
  void resize(uint32_t width, uint32_t height);

  // One frame: waits for the slot, `prepare(slot, extent)` writes per-frame data (extent: the
  // draw_extent), `draw(cmd, slot)` records inside the pass; then submit and present. Returns false
  // when nothing was presented.
  bool draw_frame(const std::array<float, 4>& clear,
                  const std::function<void(uint32_t, VkExtent2D)>& prepare,
                  const std::function<void(VkCommandBuffer, uint32_t)>& draw,
                  FrameQuality quality = FrameQuality::Full);

 private:
  struct Frame {
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    VkSemaphore image_available = VK_NULL_HANDLE;
    VkFence in_flight = VK_NULL_HANDLE;
  };
  // One render pass with its own attachments and a framebuffer per swapchain image.
  struct PassSet {
    RenderTargetFormat format;
    VkRenderPass render_pass = VK_NULL_HANDLE;
    float scale =
        1.0f;  // < 1: draws into `color` at this share of the extent, blitted to the swapchain
    GpuImage color;  // multisampled colour resolved into the swapchain image, or the scaled image
    GpuImage depth;
    VkExtent2D extent{0, 0};
    std::vector<VkFramebuffer> framebuffers;
  };
  const PassSet& pass(FrameQuality quality) const {
    return passes_[quality == FrameQuality::Fast && passes_.size() > 1 ? 1 : 0];
  }
  void create_swapchain();
  void destroy_swapchain();
  bool can_blit(VkFormat format, const VkSurfaceCapabilitiesKHR& caps) const;
  // Stretches the scaled pass's image onto swapchain image `image` and leaves it ready to present.
  void record_blit(VkCommandBuffer cmd, const PassSet& set, uint32_t image) const;

  const VulkanContext& context_;
  VkSurfaceKHR surface_;
  uint32_t requested_width_, requested_height_;
  VkColorSpaceKHR color_space_ = VK_COLOR_SPACE_SRGB_NONLINEAR_KHR;
  std::vector<PassSet> passes_;  // [0] Full, [1] Fast when Full is multisampled
  VkSwapchainKHR swapchain_ = VK_NULL_HANDLE;
  VkExtent2D extent_{0, 0};
  std::vector<VkImage> images_;
  std::vector<VkImageView> views_;
  std::vector<VkSemaphore> render_finished_;  // per swapchain image
  VkCommandPool pool_ = VK_NULL_HANDLE;
  std::vector<Frame> frames_;
  uint32_t frame_ = 0;
  bool needs_rebuild_ = false;
};

class WindowRenderer {
 public:
  WindowRenderer(const VulkanContext& context, VkSurfaceKHR surface, uint32_t width,
                 uint32_t height, std::shared_ptr<MeshLibrary> meshes = nullptr,
                 VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT,
                 float fast_scale = kFastScale);
  MeshLibrary& meshes() { return renderer_->meshes(); }
  void resize(uint32_t width, uint32_t height) { target_->resize(width, height); }
  bool render(const RenderScene& scene, const Camera& camera,
              FrameQuality quality = FrameQuality::Full);
  const FrameStats& last_stats() const { return last_stats_; }
  bool has_fast_quality() const { return target_->has_fast_pass(); }
  // Builds the Fast pass's pipelines now (e.g. when the host is idle after its first frame), so the
  // first Fast frame does not pay for them; otherwise they are built on first use.
  void prepare_fast_quality();

 private:
  const VulkanContext& context_;
  std::unique_ptr<SwapchainTarget> target_;
  std::unique_ptr<Renderer> renderer_;  // for the Full pass
  std::unique_ptr<Renderer>
      fast_renderer_;  // for the Fast pass, made on first use; shares the meshes
  FrameStats last_stats_;
};

}  // namespace kinetic::viewer
