#include "viewer/gpu_resources.hpp"

#include <cstring>
#include <utility>

#include "viewer/vk_check.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

GpuBuffer::GpuBuffer(const VulkanContext& context, VkDeviceSize size, VkBufferUsageFlags usage,
                     VkMemoryPropertyFlags memory)
    : context_(&context), size_(size) {
  VkBufferCreateInfo info{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  vk_check(vkCreateBuffer(context.device(), &info, nullptr, &buffer_), "vkCreateBuffer");
  try {
    VkMemoryRequirements requirements;
    vkGetBufferMemoryRequirements(context.device(), buffer_, &requirements);
    memory_ = context.allocate(requirements, memory);
    vk_check(vkBindBufferMemory(context.device(), buffer_, memory_, 0), "vkBindBufferMemory");
    if (memory & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT)
      vk_check(vkMapMemory(context.device(), memory_, 0, VK_WHOLE_SIZE, 0, &mapped_),
               "vkMapMemory");
  } catch (...) {
    reset();
    throw;
  }
}

GpuBuffer GpuBuffer::host_visible(const VulkanContext& context, VkDeviceSize size,
                                  VkBufferUsageFlags usage) {
  return GpuBuffer(context, size, usage,
                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
}

GpuBuffer GpuBuffer::device_local(const VulkanContext& context, const void* data, VkDeviceSize size,
                                  VkBufferUsageFlags usage) {
  GpuBuffer staging = host_visible(context, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  std::memcpy(staging.mapped(), data, size);
  GpuBuffer buffer(context, size, usage | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                   VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  context.submit_and_wait([&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, size};
    vkCmdCopyBuffer(cmd, staging.handle(), buffer.handle(), 1, &region);
  });
  return buffer;
}

void GpuBuffer::reset() {
  if (!context_) return;
  if (mapped_) vkUnmapMemory(context_->device(), memory_);
  if (buffer_) vkDestroyBuffer(context_->device(), buffer_, nullptr);
  context_->free(memory_);
  context_ = nullptr;
  buffer_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
  mapped_ = nullptr;
  size_ = 0;
}

void GpuBuffer::swap(GpuBuffer& other) noexcept {
  std::swap(context_, other.context_);
  std::swap(buffer_, other.buffer_);
  std::swap(memory_, other.memory_);
  std::swap(size_, other.size_);
  std::swap(mapped_, other.mapped_);
}

GpuImage::GpuImage(const VulkanContext& context, const GpuImageDesc& desc)
    : context_(&context), desc_(desc) {
  VkImageCreateInfo info{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = desc.format;
  info.extent = {desc.width, desc.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = desc.samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = desc.usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  vk_check(vkCreateImage(context.device(), &info, nullptr, &image_), "vkCreateImage");
  try {
    VkMemoryRequirements requirements;
    vkGetImageMemoryRequirements(context.device(), image_, &requirements);
    memory_ = context.allocate(requirements, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    vk_check(vkBindImageMemory(context.device(), image_, memory_, 0), "vkBindImageMemory");
    VkImageViewCreateInfo view{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    view.image = image_;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = desc.format;
    view.subresourceRange = {desc.aspect, 0, 1, 0, 1};
    vk_check(vkCreateImageView(context.device(), &view, nullptr, &view_), "vkCreateImageView");
  } catch (...) {
    reset();
    throw;
  }
}

void GpuImage::reset() {
  if (!context_) return;
  if (view_) vkDestroyImageView(context_->device(), view_, nullptr);
  if (image_) vkDestroyImage(context_->device(), image_, nullptr);
  context_->free(memory_);
  context_ = nullptr;
  view_ = VK_NULL_HANDLE;
  image_ = VK_NULL_HANDLE;
  memory_ = VK_NULL_HANDLE;
}

void GpuImage::swap(GpuImage& other) noexcept {
  std::swap(context_, other.context_);
  std::swap(desc_, other.desc_);
  std::swap(image_, other.image_);
  std::swap(view_, other.view_);
  std::swap(memory_, other.memory_);
}

}  // namespace kinetic::viewer
