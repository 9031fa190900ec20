#include "viewer/offscreen_target.hpp"

#include <cstring>
#include <string>

#include "viewer/vk_check.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

OffscreenTarget::OffscreenTarget(const VulkanContext& context, uint32_t width, uint32_t height,
                                 VkSampleCountFlagBits samples)
    : context_(context), width_(width), height_(height) {
  if (width == 0 || height == 0 || width > 16384 || height > 16384)
    throw Error("offscreen image size " + std::to_string(width) + "x" + std::to_string(height) +
                " is invalid (each side must be 1..16384 pixels)");
  format_.color = VK_FORMAT_R8G8B8A8_UNORM;
  format_.depth = context.depth_stencil_format();
  format_.samples = context.usable_samples(samples);
  const bool multisampled = format_.samples != VK_SAMPLE_COUNT_1_BIT;
  const VkDevice device = context.device();
  try {
    render_pass_ = create_render_pass(context, format_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    color_ =
        GpuImage(context, {width, height, format_.color,
                           multisampled ? VkImageUsageFlags(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                                            VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT)
                                        : VkImageUsageFlags(VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
                                                            VK_IMAGE_USAGE_TRANSFER_SRC_BIT),
                           format_.samples, VK_IMAGE_ASPECT_COLOR_BIT});
    depth_ = GpuImage(context,
                      {width, height, format_.depth, VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT,
                       format_.samples, VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT});
    if (multisampled)
      resolve_ =
          GpuImage(context, {width, height, format_.color,
                             VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT,
                             VK_SAMPLE_COUNT_1_BIT, VK_IMAGE_ASPECT_COLOR_BIT});
    VkImageView views[3] = {color_.view(), depth_.view(),
                            multisampled ? resolve_.view() : VK_NULL_HANDLE};
    VkFramebufferCreateInfo fb{VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO};
    fb.renderPass = render_pass_;
    fb.attachmentCount = multisampled ? 3 : 2;
    fb.pAttachments = views;
    fb.width = width;
    fb.height = height;
    fb.layers = 1;
    vk_check(vkCreateFramebuffer(device, &fb, nullptr, &framebuffer_), "vkCreateFramebuffer");

    readback_ = GpuBuffer::host_visible(context, VkDeviceSize{width} * height * 4,
                                        VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = context.queue_family();
    vk_check(vkCreateCommandPool(device, &pool, nullptr, &pool_), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    alloc.commandPool = pool_;
    alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    alloc.commandBufferCount = 1;
    vk_check(vkAllocateCommandBuffers(device, &alloc, &cmd_), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fence{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vk_check(vkCreateFence(device, &fence, nullptr, &fence_), "vkCreateFence");
  } catch (...) {
    release();
    throw;
  }
}

OffscreenTarget::~OffscreenTarget() {
  release();
}

void OffscreenTarget::release() {
  const VkDevice device = context_.device();
  if (fence_) vkDestroyFence(device, fence_, nullptr);
  if (pool_) vkDestroyCommandPool(device, pool_, nullptr);
  if (framebuffer_) vkDestroyFramebuffer(device, framebuffer_, nullptr);
  if (render_pass_) vkDestroyRenderPass(device, render_pass_, nullptr);
  fence_ = VK_NULL_HANDLE;
  pool_ = VK_NULL_HANDLE;
  framebuffer_ = VK_NULL_HANDLE;
  render_pass_ = VK_NULL_HANDLE;
}

void OffscreenTarget::render(const std::array<float, 4>& clear,
                             const std::function<void(VkCommandBuffer)>& draw) {
  record_and_submit(clear, draw, true);
}

void OffscreenTarget::draw(const std::array<float, 4>& clear,
                           const std::function<void(VkCommandBuffer)>& draw) {
  record_and_submit(clear, draw, false);
}

void OffscreenTarget::record_and_submit(const std::array<float, 4>& clear,
                                        const std::function<void(VkCommandBuffer)>& draw,
                                        bool read_back) {
  vk_check(vkResetCommandBuffer(cmd_, 0), "vkResetCommandBuffer");
  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk_check(vkBeginCommandBuffer(cmd_, &begin), "vkBeginCommandBuffer");

  VkClearValue clears[3]{};
  std::memcpy(clears[0].color.float32, clear.data(), sizeof(float) * 4);
  clears[1].depthStencil = {1.0f, 0};
  clears[2] = clears[0];
  VkRenderPassBeginInfo pass{VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO};
  pass.renderPass = render_pass_;
  pass.framebuffer = framebuffer_;
  pass.renderArea = {{0, 0}, {width_, height_}};
  pass.clearValueCount = format_.samples != VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
  pass.pClearValues = clears;
  vkCmdBeginRenderPass(cmd_, &pass, VK_SUBPASS_CONTENTS_INLINE);
  if (draw) draw(cmd_);
  vkCmdEndRenderPass(cmd_);

  // The pass leaves the single-sample image in TRANSFER_SRC_OPTIMAL.
  if (read_back) {
    const VkImage source =
        format_.samples != VK_SAMPLE_COUNT_1_BIT ? resolve_.handle() : color_.handle();
    VkBufferImageCopy region{};
    region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    region.imageExtent = {width_, height_, 1};
    vkCmdCopyImageToBuffer(cmd_, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback_.handle(),
                           1, &region);
    VkBufferMemoryBarrier to_host{VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    to_host.buffer = readback_.handle();
    to_host.size = VK_WHOLE_SIZE;
    vkCmdPipelineBarrier(cmd_, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0,
                         nullptr, 1, &to_host, 0, nullptr);
  }
  vk_check(vkEndCommandBuffer(cmd_), "vkEndCommandBuffer");

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd_;
  vk_check(vkQueueSubmit(context_.queue(), 1, &submit, fence_), "vkQueueSubmit");
  vk_check(vkWaitForFences(context_.device(), 1, &fence_, VK_TRUE, UINT64_MAX), "vkWaitForFences");
  vk_check(vkResetFences(context_.device(), 1, &fence_), "vkResetFences");
}

RgbaImage OffscreenTarget::read_back() const {
  RgbaImage image(width_, height_);
  std::memcpy(image.data(), readback_.mapped(), image.byte_size());
  return image;
}

}  // namespace kinetic::viewer
