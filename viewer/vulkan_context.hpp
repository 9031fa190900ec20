#pragma once
// VulkanContext: instance, physical device and logical device shared by every render target.
//
// Host API (how the Qt app uses it):
//   VulkanContextOptions options;
//   options.enable_surface_extensions = true;        // VK_KHR_surface + xcb/xlib/wayland when
//   present VulkanContext context(options);                   // throws viewer::Error when no
//   Vulkan device exists QVulkanInstance qt_instance;
//   qt_instance.setVkInstance(context.instance());    // Qt wraps our instance; it does not own it
//   qt_instance.create();
//   VkSurfaceKHR surface = QVulkanInstance::surfaceForWindow(window);  // owned by Qt
//   SwapchainTarget target(context, surface, width, height);  // see swapchain_target.hpp
// Headless use needs no surface: OffscreenTarget (offscreen_target.hpp) or render_png
// (headless.hpp).
//
// Device choice: a discrete or integrated GPU when present, otherwise a CPU device (Mesa lavapipe).
// The environment variable KINETIC_VULKAN_DEVICE=cpu forces the software device (deterministic
// images); KINETIC_VULKAN_DEVICE=<substring> picks the first device whose name contains it.
#include <vulkan/vulkan.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

namespace kinetic::viewer {

struct VulkanContextOptions {
  std::string application_name = "Kinetic Studio";
  // Khronos validation layer, when installed. Defaults to on in builds without NDEBUG.
#ifdef NDEBUG
  bool enable_validation = false;
#else
  bool enable_validation = true;
#endif
  // Instance extensions needed to present to a window surface supplied by the host.
  bool enable_surface_extensions = false;
};

class VulkanContext {
 public:
  explicit VulkanContext(const VulkanContextOptions& options = {});
  ~VulkanContext();
  VulkanContext(const VulkanContext&) = delete;
  VulkanContext& operator=(const VulkanContext&) = delete;

  VkInstance instance() const { return instance_; }
  VkPhysicalDevice physical_device() const { return physical_device_; }
  VkDevice device() const { return device_; }
  VkQueue queue() const { return queue_; }
  uint32_t queue_family() const { return queue_family_; }
  const std::string& device_name() const { return device_name_; }
  bool is_software_device() const { return software_device_; }
  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }
  // True when created with surface extensions on a device that can present (VK_KHR_swapchain).
  bool supports_swapchain() const { return swapchain_enabled_; }
  bool supports_wireframe() const { return wireframe_supported_; }
  bool supports_wide_lines() const { return wide_lines_supported_; }
  const VkPhysicalDeviceLimits& limits() const { return limits_; }

  // Largest sample count usable for both colour and depth attachments, capped at `wanted`.
  VkSampleCountFlagBits usable_samples(VkSampleCountFlagBits wanted) const;
  VkFormat depth_stencil_format() const { return depth_format_; }

  uint32_t find_memory_type(uint32_t type_bits, VkMemoryPropertyFlags properties) const;
  // Tracked allocation, so tests and benchmarks can check that frames do not leak device memory.
  VkDeviceMemory allocate(const VkMemoryRequirements& requirements,
                          VkMemoryPropertyFlags properties) const;
  void free(VkDeviceMemory memory) const;
  int64_t live_allocations() const { return live_allocations_.load(); }
  // Host memory blocks the driver and loader hold for this instance (every Vulkan object, command
  // buffer and pipeline lives in some): a soak checks that frames do not grow it.
  int64_t live_host_allocations() const { return host_.live.load(); }
  int64_t live_host_bytes() const { return host_.bytes.load(); }

  // Records commands into a one-shot command buffer, submits it and waits for completion.
  void submit_and_wait(const std::function<void(VkCommandBuffer)>& record) const;

  // Number of validation errors reported so far (0 when validation is off).
  int validation_errors() const { return validation_errors_.load(); }

 private:
  static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(
      VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT type,
      const VkDebugUtilsMessengerCallbackDataEXT* data, void* user);
  struct HostTracking {
    std::atomic<int64_t> live{0};
    std::atomic<int64_t> bytes{0};
  };
  static VKAPI_ATTR void* VKAPI_CALL host_allocate(void* user, size_t size, size_t alignment,
                                                   VkSystemAllocationScope);
  static VKAPI_ATTR void* VKAPI_CALL host_reallocate(void* user, void* original, size_t size,
                                                     size_t alignment,
                                                     VkSystemAllocationScope scope);
  static VKAPI_ATTR void VKAPI_CALL host_free(void* user, void* memory);
  void create_instance(const VulkanContextOptions& options);
  void pick_physical_device();
  void create_device();
  void destroy();

  VkInstance instance_ = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkCommandPool one_shot_pool_ = VK_NULL_HANDLE;
  std::string device_name_;
  bool software_device_ = false;
  bool surface_extensions_ = false;
  bool swapchain_enabled_ = false;
  bool wireframe_supported_ = false;
  bool wide_lines_supported_ = false;
  VkPhysicalDeviceLimits limits_{};
  VkPhysicalDeviceMemoryProperties memory_properties_{};
  VkFormat depth_format_ = VK_FORMAT_UNDEFINED;
  mutable std::atomic<int64_t> live_allocations_{0};
  HostTracking host_;
  VkAllocationCallbacks
      host_callbacks_{};  // passed to the instance; its device and objects inherit them
  std::atomic<int> validation_errors_{0};
};

}  // namespace kinetic::viewer
