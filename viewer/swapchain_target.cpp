#include "viewer/swapchain_target.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "viewer/vk_check.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

SwapchainTarget::SwapchainTarget(const VulkanContext& context, VkSurfaceKHR surface, uint32_t width,
                                 uint32_t height, VkSampleCountFlagBits samples,
                                 uint32_t frames_in_flight, float fast_scale)
    : context_(context), surface_(surface), requested_width_(width), requested_height_(height) {
  if (!context.supports_swapchain())
    throw Error(
        "viewer: the Vulkan context was created without surface extensions or the device '" +
        context.device_name() +
        "' cannot present; create it with enable_surface_extensions = true");
  if (surface == VK_NULL_HANDLE) throw Error("viewer: no window surface was supplied");
  VkBool32 supported = VK_FALSE;
  vkGetPhysicalDeviceSurfaceSupportKHR(context.physical_device(), context.queue_family(), surface,
                                       &supported);
  if (!supported)
    throw Error("viewer: the device '" + context.device_name() + "' cannot present to this window");

  uint32_t count = 0;
  vkGetPhysicalDeviceSurfaceFormatsKHR(context.physical_device(), surface, &count, nullptr);
  std::vector<VkSurfaceFormatKHR> formats(count);
  vkGetPhysicalDeviceSurfaceFormatsKHR(context.physical_device(), surface, &count, formats.data());
  if (formats.empty()) throw Error("viewer: the window surface offers no pixel format");
  // UNORM: the shaders write sRGB-encoded values themselves (as for the offscreen image).
  VkSurfaceFormatKHR chosen = formats.front();
  for (const auto& f : formats)
    if ((f.format == VK_FORMAT_B8G8R8A8_UNORM || f.format == VK_FORMAT_R8G8B8A8_UNORM) &&
        f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) {
      chosen = f;
      break;
    }
  color_space_ = chosen.colorSpace;
  RenderTargetFormat full{chosen.format, context.depth_stencil_format(),
                          context.usable_samples(samples)};
  passes_.resize(full.samples != VK_SAMPLE_COUNT_1_BIT ? 2 : 1);
  passes_[0].format = full;
  if (passes_.size() > 1) {
    passes_[1].format = {full.color, full.depth, VK_SAMPLE_COUNT_1_BIT};
    VkSurfaceCapabilitiesKHR caps;
    vk_check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context.physical_device(), surface, &caps),
             "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
    if (fast_scale > 0.0f && fast_scale < 1.0f && can_blit(full.color, caps))
      passes_[1].scale = fast_scale;
  }
  // A scaled pass ends with its image ready to blit from; the pipelines do not see the difference
  // (render passes that differ only in layouts are compatible).
  for (PassSet& set : passes_)
    set.render_pass = create_render_pass(
        context, set.format,
        set.scale < 1.0f ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_PRESENT_SRC_KHR);

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool.queueFamilyIndex = context.queue_family();
  vk_check(vkCreateCommandPool(context.device(), &pool, nullptr, &pool_), "vkCreateCommandPool");
  frames_.resize(std::max(frames_in_flight, 1u));
  for (auto& frame : frames_) {
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    vk_check(vkAllocateCommandBuffers(context.device(), &alloc, &frame.cmd),
             "vkAllocateCommandBuffers");
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    vk_check(vkCreateSemaphore(context.device(), &semaphore, nullptr, &frame.image_available),
             "vkCreateSemaphore");
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;
    vk_check(vkCreateFence(context.device(), &fence, nullptr, &frame.in_flight), "vkCreateFence");
  }
  create_swapchain();
}

SwapchainTarget::~SwapchainTarget() {
  const VkDevice device = context_.device();
  vkDeviceWaitIdle(device);
  destroy_swapchain();
  if (swapchain_) vkDestroySwapchainKHR(device, swapchain_, nullptr);
  for (auto& frame : frames_) {
    vkDestroySemaphore(device, frame.image_available, nullptr);
    vkDestroyFence(device, frame.in_flight, nullptr);
  }
  vkDestroyCommandPool(device, pool_, nullptr);
  for (PassSet& set : passes_) vkDestroyRenderPass(device, set.render_pass, nullptr);
}

bool SwapchainTarget::can_blit(VkFormat format, const VkSurfaceCapabilitiesKHR& caps) const {
  if (!(caps.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_DST_BIT)) return false;
  VkFormatProperties properties;
  vkGetPhysicalDeviceFormatProperties(context_.physical_device(), format, &properties);
  const VkFormatFeatureFlags needed = VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                      VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                      VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;
  return (properties.optimalTilingFeatures & needed) == needed;
}

VkExtent2D SwapchainTarget::draw_extent(FrameQuality quality) const {
  return pass(quality).extent;
}

void SwapchainTarget::resize(uint32_t width, uint32_t height) {
  requested_width_ = width;
  requested_height_ = height;
  needs_rebuild_ = true;
}

void SwapchainTarget::destroy_swapchain() {
  const VkDevice device = context_.device();
  for (PassSet& set : passes_) {
    for (auto fb : set.framebuffers) vkDestroyFramebuffer(device, fb, nullptr);
    set.framebuffers.clear();
    set.color.reset();
    set.depth.reset();
  }
  for (auto view : views_) vkDestroyImageView(device, view, nullptr);
  for (auto s : render_finished_) vkDestroySemaphore(device, s, nullptr);
  views_.clear();
  render_finished_.clear();
  images_.clear();
}

void SwapchainTarget::create_swapchain() {
  const VkDevice device = context_.device();
  vkDeviceWaitIdle(device);
  destroy_swapchain();
  needs_rebuild_ = false;

  VkSurfaceCapabilitiesKHR caps;
  vk_check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context_.physical_device(), surface_, &caps),
           "vkGetPhysicalDeviceSurfaceCapabilitiesKHR");
  VkExtent2D extent = caps.currentExtent;
  if (extent.width == UINT32_MAX) {
    extent.width =
        std::clamp(requested_width_, caps.minImageExtent.width, caps.maxImageExtent.width);
    extent.height =
        std::clamp(requested_height_, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  extent_ = extent;
  if (extent.width == 0 || extent.height == 0) return;  // minimised: rebuilt when it reappears

  uint32_t image_count = caps.minImageCount + 1;
  if (caps.maxImageCount > 0) image_count = std::min(image_count, caps.maxImageCount);
  VkSwapchainCreateInfoKHR info{VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR};
  info.surface = surface_;
  info.minImageCount = image_count;
  info.imageFormat = passes_[0].format.color;
  info.imageColorSpace = color_space_;
  info.imageExtent = extent;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  const bool blits = std::any_of(passes_.begin(), passes_.end(),
                                 [](const PassSet& set) { return set.scale < 1.0f; });
  if (blits) info.imageUsage |= VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = caps.currentTransform;
  info.compositeAlpha = (caps.supportedCompositeAlpha & VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR)
                            ? VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
                            : static_cast<VkCompositeAlphaFlagBitsKHR>(
                                  caps.supportedCompositeAlpha & -caps.supportedCompositeAlpha);
  info.presentMode = VK_PRESENT_MODE_FIFO_KHR;  // always available; paced by the display
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain_;
  VkSwapchainKHR created = VK_NULL_HANDLE;
  vk_check(vkCreateSwapchainKHR(device, &info, nullptr, &created), "vkCreateSwapchainKHR");
  if (swapchain_) vkDestroySwapchainKHR(device, swapchain_, nullptr);
  swapchain_ = created;

  uint32_t count = 0;
  vkGetSwapchainImagesKHR(device, swapchain_, &count, nullptr);
  images_.resize(count);
  vkGetSwapchainImagesKHR(device, swapchain_, &count, images_.data());

  for (PassSet& set : passes_) {
    set.extent = extent;
    if (set.scale < 1.0f) {
      const auto scaled = [&](uint32_t size) {
        return std::max(1u,
                        static_cast<uint32_t>(std::lround(static_cast<float>(size) * set.scale)));
      };
      set.extent = {scaled(extent.width), scaled(extent.height)};
      set.color =
          GpuImage(context_, {set.extent.width, set.extent.height, set.format.color,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                              set.format.samples, VK_IMAGE_ASPECT_COLOR_BIT});
    } else if (set.format.samples != VK_SAMPLE_COUNT_1_BIT) {
      set.color = GpuImage(
          context_, {extent.width, extent.height, set.format.color,
                     VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT,
                     set.format.samples, VK_IMAGE_ASPECT_COLOR_BIT});
    }
    set.depth = GpuImage(context_, {set.extent.width, set.extent.height, set.format.depth,
                                    VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, set.format.samples,
                                    VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT});
  }
  for (VkImage image : images_) {
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = passes_[0].format.color;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView handle = VK_NULL_HANDLE;
    vk_check(vkCreateImageView(device, &view, nullptr, &handle), "vkCreateImageView");
    views_.push_back(handle);
    for (PassSet& set : passes_) {
      const bool multisampled = set.format.samples != VK_SAMPLE_COUNT_1_BIT;
      // A scaled pass draws into its own image whichever swapchain image it is blitted to.
      VkImageView attachments[3] = {multisampled || set.scale < 1.0f ? set.color.view() : handle,
                                    set.depth.view(), handle};
      VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
      fb.renderPass = set.render_pass;
      fb.attachmentCount = multisampled ? 3 : 2;
      fb.pAttachments = attachments;
      fb.width = set.extent.width;
      fb.height = set.extent.height;
      fb.layers = 1;
      VkFramebuffer framebuffer = VK_NULL_HANDLE;
      vk_check(vkCreateFramebuffer(device, &fb, nullptr, &framebuffer), "vkCreateFramebuffer");
      set.framebuffers.push_back(framebuffer);
    }
    VkSemaphoreCreateInfo semaphore{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
    VkSemaphore finished = VK_NULL_HANDLE;
    vk_check(vkCreateSemaphore(device, &semaphore, nullptr, &finished), "vkCreateSemaphore");
    render_finished_.push_back(finished);
  }
}

bool SwapchainTarget::draw_frame(const std::array<float, 4>& clear,
                                 const std::function<void(uint32_t, VkExtent2D)>& prepare,
                                 const std::function<void(VkCommandBuffer, uint32_t)>& draw,
                                 FrameQuality quality) {
  if (needs_rebuild_ || extent_.width == 0 || extent_.height == 0) create_swapchain();
  if (extent_.width == 0 || extent_.height == 0) return false;
  const VkDevice device = context_.device();
  const uint32_t slot = frame_;
  Frame& frame = frames_[slot];
  vk_check(vkWaitForFences(device, 1, &frame.in_flight, VK_TRUE, UINT64_MAX), "vkWaitForFences");

  uint32_t image = 0;
  VkResult acquired = vkAcquireNextImageKHR(device, swapchain_, UINT64_MAX, frame.image_available,
                                            VK_NULL_HANDLE, &image);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    create_swapchain();
    return false;
  }
  if (acquired != VK_SUBOPTIMAL_KHR) vk_check(acquired, "vkAcquireNextImageKHR");
  vk_check(vkResetFences(device, 1, &frame.in_flight), "vkResetFences");

  const PassSet& set = pass(quality);
  if (prepare) prepare(slot, set.extent);
  vk_check(vkResetCommandBuffer(frame.cmd, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk_check(vkBeginCommandBuffer(frame.cmd, &begin), "vkBeginCommandBuffer");
  VkClearValue clears[3]{};
  std::memcpy(clears[0].color.float32, clear.data(), sizeof(float) * 4);
  clears[1].depthStencil = {1.0f, 0};
  clears[2] = clears[0];
  VkRenderPassBeginInfo begin_pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  begin_pass.renderPass = set.render_pass;
  begin_pass.framebuffer = set.framebuffers[image];
  begin_pass.renderArea = {{0, 0}, set.extent};
  begin_pass.clearValueCount = set.format.samples != VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
  begin_pass.pClearValues = clears;
  vkCmdBeginRenderPass(frame.cmd, &begin_pass, VK_SUBPASS_CONTENTS_INLINE);
  if (draw) draw(frame.cmd, slot);
  vkCmdEndRenderPass(frame.cmd);
  if (set.scale < 1.0f) record_blit(frame.cmd, set, image);
  vk_check(vkEndCommandBuffer(frame.cmd), "vkEndCommandBuffer");

  // The blit writes the acquired image in the transfer stage: it waits for the image there too.
  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                          (set.scale < 1.0f ? VK_PIPELINE_STAGE_TRANSFER_BIT : 0);
  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &frame.image_available;
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &frame.cmd;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &render_finished_[image];
  vk_check(vkQueueSubmit(context_.queue(), 1, &submit, frame.in_flight), "vkQueueSubmit");

  VkPresentInfoKHR present{VK_STRUCTURE_TYPE_PRESENT_INFO_KHR};
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &render_finished_[image];
  present.swapchainCount = 1;
  present.pSwapchains = &swapchain_;
  present.pImageIndices = &image;
  const VkResult presented = vkQueuePresentKHR(context_.queue(), &present);
  frame_ = (frame_ + 1) % static_cast<uint32_t>(frames_.size());
  if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR ||
      acquired == VK_SUBOPTIMAL_KHR) {
    needs_rebuild_ = true;
    return presented != VK_ERROR_OUT_OF_DATE_KHR;
  }
  vk_check(presented, "vkQueuePresentKHR");
  return true;
}

void SwapchainTarget::record_blit(VkCommandBuffer cmd, const PassSet& set, uint32_t image) const {
  VkImageMemoryBarrier barrier{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  barrier.srcAccessMask = 0;
  barrier.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;  // every pixel is written
  barrier.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  barrier.image = images_[image];
  barrier.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                       nullptr, 0, nullptr, 1, &barrier);
  VkImageBlit region{};
  region.srcSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.srcOffsets[1] = {static_cast<int32_t>(set.extent.width),
                          static_cast<int32_t>(set.extent.height), 1};
  region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.dstOffsets[1] = {static_cast<int32_t>(extent_.width), static_cast<int32_t>(extent_.height),
                          1};
  vkCmdBlitImage(cmd, set.color.handle(), VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, images_[image],
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region, VK_FILTER_LINEAR);
  barrier.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  barrier.dstAccessMask = 0;
  barrier.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  barrier.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, 0,
                       0, nullptr, 0, nullptr, 1, &barrier);
}

WindowRenderer::WindowRenderer(const VulkanContext& context, VkSurfaceKHR surface, uint32_t width,
                               uint32_t height, std::shared_ptr<MeshLibrary> meshes,
                               VkSampleCountFlagBits samples, float fast_scale)
    : context_(context),
      target_(std::make_unique<SwapchainTarget>(context, surface, width, height, samples, 2,
                                                fast_scale)),
      renderer_(std::make_unique<Renderer>(context, target_->format(), target_->render_pass(),
                                           std::move(meshes), target_->frames_in_flight())) {}

void WindowRenderer::prepare_fast_quality() {
  if (fast_renderer_ || !target_->has_fast_pass()) return;
  fast_renderer_ = std::make_unique<Renderer>(
      context_, target_->format(FrameQuality::Fast), target_->render_pass(FrameQuality::Fast),
      renderer_->shared_meshes(), target_->frames_in_flight());
}

bool WindowRenderer::render(const RenderScene& scene, const Camera& camera, FrameQuality quality) {
  if (quality == FrameQuality::Fast && !target_->has_fast_pass()) quality = FrameQuality::Full;
  if (quality == FrameQuality::Fast) prepare_fast_quality();
  Renderer& renderer = quality == FrameQuality::Fast ? *fast_renderer_ : *renderer_;
  const bool drawn = target_->draw_frame(
      Renderer::clear_color(scene),
      [&](uint32_t slot, VkExtent2D extent) {
        const VkExtent2D window = target_->extent();
        const float pixel_scale = window.height > 0 ? static_cast<float>(extent.height) /
                                                          static_cast<float>(window.height)
                                                    : 1.0f;
        renderer.prepare(slot, scene, camera, extent, pixel_scale);
      },
      [&](VkCommandBuffer cmd, uint32_t slot) { renderer.record(cmd, slot); }, quality);
  last_stats_ = renderer.last_stats();
  return drawn;
}

}  // namespace kinetic::viewer
