#pragma once
// Move-only owners of Vulkan buffers and images with their memory (one allocation each: the viewer
// holds few, long-lived resources, so a sub-allocator would buy nothing).
#include <vulkan/vulkan.h>

#include <cstddef>

namespace kinetic::viewer {

class VulkanContext;

class GpuBuffer {
 public:
  GpuBuffer() = default;
  // Host-visible buffers are mapped for their whole life.
  GpuBuffer(const VulkanContext& context, VkDeviceSize size, VkBufferUsageFlags usage,
            VkMemoryPropertyFlags memory);
  ~GpuBuffer() { reset(); }
  GpuBuffer(GpuBuffer&& other) noexcept { swap(other); }
  GpuBuffer& operator=(GpuBuffer&& other) noexcept {
    GpuBuffer moved(static_cast<GpuBuffer&&>(other));
    swap(moved);
    return *this;
  }
  GpuBuffer(const GpuBuffer&) = delete;
  GpuBuffer& operator=(const GpuBuffer&) = delete;

  // A device-local buffer filled through a staging copy.
  static GpuBuffer device_local(const VulkanContext& context, const void* data, VkDeviceSize size,
                                VkBufferUsageFlags usage);
  // A host-visible, host-coherent buffer, mapped.
  static GpuBuffer host_visible(const VulkanContext& context, VkDeviceSize size,
                                VkBufferUsageFlags usage);

  VkBuffer handle() const { return buffer_; }
  VkDeviceSize size() const { return size_; }
  void* mapped() const { return mapped_; }
  explicit operator bool() const { return buffer_ != VK_NULL_HANDLE; }
  void reset();

 private:
  void swap(GpuBuffer& other) noexcept;
  const VulkanContext* context_ = nullptr;
  VkBuffer buffer_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
  VkDeviceSize size_ = 0;
  void* mapped_ = nullptr;
};

struct GpuImageDesc {
  uint32_t width = 1;
  uint32_t height = 1;
  VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkImageUsageFlags usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
};

class GpuImage {
 public:
  GpuImage() = default;
  GpuImage(const VulkanContext& context, const GpuImageDesc& desc);
  ~GpuImage() { reset(); }
  GpuImage(GpuImage&& other) noexcept { swap(other); }
  GpuImage& operator=(GpuImage&& other) noexcept {
    GpuImage moved(static_cast<GpuImage&&>(other));
    swap(moved);
    return *this;
  }
  GpuImage(const GpuImage&) = delete;
  GpuImage& operator=(const GpuImage&) = delete;

  VkImage handle() const { return image_; }
  VkImageView view() const { return view_; }
  const GpuImageDesc& desc() const { return desc_; }
  explicit operator bool() const { return image_ != VK_NULL_HANDLE; }
  void reset();

 private:
  void swap(GpuImage& other) noexcept;
  const VulkanContext* context_ = nullptr;
  GpuImageDesc desc_{};
  VkImage image_ = VK_NULL_HANDLE;
  VkImageView view_ = VK_NULL_HANDLE;
  VkDeviceMemory memory_ = VK_NULL_HANDLE;
};

}  // namespace kinetic::viewer
