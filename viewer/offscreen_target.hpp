#pragma once
// OffscreenTarget: renders into a VkImage and reads it back to an RgbaImage (RGBA8, sRGB-encoded
// values as written by the shaders). Used for headless screenshots, golden tests and benchmarks.
#include <vulkan/vulkan.h>

#include <array>
#include <functional>

#include "viewer/gpu_resources.hpp"
#include "viewer/image.hpp"
#include "viewer/render_pass.hpp"

namespace kinetic::viewer {

class VulkanContext;

class OffscreenTarget {
 public:
  // samples is capped at what the device supports; throws viewer::Error for a zero size.
  OffscreenTarget(const VulkanContext& context, uint32_t width, uint32_t height,
                  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT);
  ~OffscreenTarget();
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  const RenderTargetFormat& format() const { return format_; }
  VkRenderPass render_pass() const { return render_pass_; }

  // One frame: begin the pass clearing to `clear` (linear RGBA, written as is), let `draw` record
  // inside the pass, resolve, and copy to the readback buffer; submits and waits.
  void render(const std::array<float, 4>& clear, const std::function<void(VkCommandBuffer)>& draw);
  // The same frame without the copy to the readback buffer (frames nobody reads back: benchmarks,
  // warm-up); read_back() then still returns the last render()'s pixels.
  void draw(const std::array<float, 4>& clear, const std::function<void(VkCommandBuffer)>& draw);
  // The pixels of the last render().
  RgbaImage read_back() const;

 private:
  void release();
  void record_and_submit(const std::array<float, 4>& clear,
                         const std::function<void(VkCommandBuffer)>& draw, bool read_back);
  const VulkanContext& context_;
  uint32_t width_;
  uint32_t height_;
  RenderTargetFormat format_;
  VkRenderPass render_pass_ = VK_NULL_HANDLE;
  GpuImage color_;
  GpuImage depth_;
  GpuImage resolve_;
  VkFramebuffer framebuffer_ = VK_NULL_HANDLE;
  GpuBuffer readback_;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer cmd_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

}  // namespace kinetic::viewer
