#pragma once
// The one render-pass layout every target uses: multisampled colour + depth/stencil, resolved into
// a single-sample image (the swapchain image or the offscreen readback source). Pipelines built for
// a RenderTargetFormat work with every target of that format.
#include <vulkan/vulkan.h>

namespace kinetic::viewer {

class VulkanContext;

struct RenderTargetFormat {
  VkFormat color = VK_FORMAT_R8G8B8A8_UNORM;
  VkFormat depth = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  friend bool operator==(const RenderTargetFormat&, const RenderTargetFormat&) = default;
};

// final_layout: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL (offscreen) or
// VK_IMAGE_LAYOUT_PRESENT_SRC_KHR.
VkRenderPass create_render_pass(const VulkanContext& context, const RenderTargetFormat& format,
                                VkImageLayout final_layout);

}  // namespace kinetic::viewer
