#include "viewer/vulkan_context.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "viewer/vk_check.hpp"

namespace kinetic::viewer {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

bool has_layer(const char* name) {
  uint32_t count = 0;
  vkEnumerateInstanceLayerProperties(&count, nullptr);
  std::vector<VkLayerProperties> layers(count);
  vkEnumerateInstanceLayerProperties(&count, layers.data());
  return std::any_of(layers.begin(), layers.end(),
                     [&](const auto& l) { return std::strcmp(l.layerName, name) == 0; });
}

std::vector<std::string> instance_extensions() {
  uint32_t count = 0;
  vkEnumerateInstanceExtensionProperties(nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> props(count);
  vkEnumerateInstanceExtensionProperties(nullptr, &count, props.data());
  std::vector<std::string> names;
  for (const auto& p : props) names.emplace_back(p.extensionName);
  return names;
}

bool device_has_extension(VkPhysicalDevice device, const char* name) {
  uint32_t count = 0;
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr);
  std::vector<VkExtensionProperties> props(count);
  vkEnumerateDeviceExtensionProperties(device, nullptr, &count, props.data());
  return std::any_of(props.begin(), props.end(),
                     [&](const auto& p) { return std::strcmp(p.extensionName, name) == 0; });
}

int graphics_queue_family(VkPhysicalDevice device) {
  uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (uint32_t i = 0; i < count; ++i)
    if (families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) return static_cast<int>(i);
  return -1;
}

int device_type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
      return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
      return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU:
      return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU:
      return 1;
    default:
      return 0;
  }
}

}  // namespace

const char* vk_result_name(VkResult result) {
  switch (result) {
    case VK_SUCCESS:
      return "VK_SUCCESS";
    case VK_NOT_READY:
      return "VK_NOT_READY";
    case VK_TIMEOUT:
      return "VK_TIMEOUT";
    case VK_SUBOPTIMAL_KHR:
      return "VK_SUBOPTIMAL_KHR";
    case VK_ERROR_OUT_OF_HOST_MEMORY:
      return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY:
      return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED:
      return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST:
      return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED:
      return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT:
      return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT:
      return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT:
      return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER:
      return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_FORMAT_NOT_SUPPORTED:
      return "VK_ERROR_FORMAT_NOT_SUPPORTED";
    case VK_ERROR_SURFACE_LOST_KHR:
      return "VK_ERROR_SURFACE_LOST_KHR";
    case VK_ERROR_OUT_OF_DATE_KHR:
      return "VK_ERROR_OUT_OF_DATE_KHR";
    default:
      return "VkResult error";
  }
}

namespace {

// Written just before each tracked host block: its size and where the underlying allocation starts.
struct HostBlockHeader {
  size_t size;
  size_t offset;
};

HostBlockHeader& header_of(void* memory) {
  return *(static_cast<HostBlockHeader*>(memory) - 1);
}

}  // namespace

void* VulkanContext::host_allocate(void* user, size_t size, size_t alignment,
                                   VkSystemAllocationScope) {
  alignment = std::max(alignment, alignof(std::max_align_t));
  const size_t offset = (sizeof(HostBlockHeader) + alignment - 1) / alignment * alignment;
  const size_t total = (offset + size + alignment - 1) / alignment * alignment;
  auto* base = static_cast<char*>(std::aligned_alloc(alignment, total));
  if (!base) return nullptr;
  void* memory = base + offset;
  header_of(memory) = {size, offset};
  auto& host = static_cast<VulkanContext*>(user)->host_;
  ++host.live;
  host.bytes += static_cast<int64_t>(size);
  return memory;
}

void* VulkanContext::host_reallocate(void* user, void* original, size_t size, size_t alignment,
                                     VkSystemAllocationScope scope) {
  if (!original) return host_allocate(user, size, alignment, scope);
  if (size == 0) {
    host_free(user, original);
    return nullptr;
  }
  void* memory = host_allocate(user, size, alignment, scope);
  if (!memory) return nullptr;
  std::memcpy(memory, original, std::min(size, header_of(original).size));
  host_free(user, original);
  return memory;
}

void VulkanContext::host_free(void* user, void* memory) {
  if (!memory) return;
  const HostBlockHeader header = header_of(memory);
  auto& host = static_cast<VulkanContext*>(user)->host_;
  --host.live;
  host.bytes -= static_cast<int64_t>(header.size);
  std::free(static_cast<char*>(memory) - header.offset);
}

VulkanContext::VulkanContext(const VulkanContextOptions& options) {
  host_callbacks_.pUserData = this;
  host_callbacks_.pfnAllocation = &host_allocate;
  host_callbacks_.pfnReallocation = &host_reallocate;
  host_callbacks_.pfnFree = &host_free;
  try {
    create_instance(options);
    pick_physical_device();
    create_device();
  } catch (...) {
    destroy();
    throw;
  }
}

VulkanContext::~VulkanContext() {
  destroy();
}

void VulkanContext::destroy() {
  if (device_ != VK_NULL_HANDLE) {
    vkDeviceWaitIdle(device_);
    if (one_shot_pool_ != VK_NULL_HANDLE) vkDestroyCommandPool(device_, one_shot_pool_, nullptr);
    vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (messenger_ != VK_NULL_HANDLE) {
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy_messenger) destroy_messenger(instance_, messenger_, nullptr);
    messenger_ = VK_NULL_HANDLE;
  }
  if (instance_ != VK_NULL_HANDLE) {
    vkDestroyInstance(instance_, &host_callbacks_);
    instance_ = VK_NULL_HANDLE;
  }
}

VKAPI_ATTR VkBool32 VKAPI_CALL VulkanContext::on_validation_message(
    VkDebugUtilsMessageSeverityFlagBitsEXT severity, VkDebugUtilsMessageTypeFlagsEXT /*type*/,
    const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* self = static_cast<VulkanContext*>(user);
  if (severity >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ++self->validation_errors_;
  std::fprintf(stderr, "[vulkan validation] %s\n", data->pMessage ? data->pMessage : "");
  return VK_FALSE;
}

void VulkanContext::create_instance(const VulkanContextOptions& options) {
  const auto available = instance_extensions();
  const auto available_has = [&](const char* name) {
    return std::find(available.begin(), available.end(), name) != available.end();
  };
  std::vector<const char*> extensions;
  if (options.enable_surface_extensions) {
    if (!available_has(VK_KHR_SURFACE_EXTENSION_NAME))
      throw Error(
          "Vulkan: no driver offers VK_KHR_surface, so a window cannot be drawn into; install a "
          "Vulkan "
          "driver (Debian: mesa-vulkan-drivers provides lavapipe, a software one) or use "
          "--headless");
    extensions.push_back(VK_KHR_SURFACE_EXTENSION_NAME);
    for (const char* platform : {"VK_KHR_xcb_surface", "VK_KHR_xlib_surface"})
      if (available_has(platform)) extensions.push_back(platform);
    // Wayland only in a Wayland session: its WSI complains on stderr elsewhere.
    if (std::getenv("WAYLAND_DISPLAY") && available_has("VK_KHR_wayland_surface"))
      extensions.push_back("VK_KHR_wayland_surface");
    surface_extensions_ = true;
  }
  std::vector<const char*> layers;
  const bool validation = options.enable_validation && has_layer(kValidationLayer) &&
                          available_has(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  if (validation) {
    layers.push_back(kValidationLayer);
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
  }

  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = options.application_name.c_str();
  app.pEngineName = "kinetic-viewer";
  app.apiVersion = VK_API_VERSION_1_1;

  VkDebugUtilsMessengerCreateInfoEXT messenger_info{
      VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messenger_info.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                                   VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messenger_info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                               VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messenger_info.pfnUserCallback = &VulkanContext::on_validation_message;
  messenger_info.pUserData = this;

  VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  info.pApplicationInfo = &app;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  info.enabledLayerCount = static_cast<uint32_t>(layers.size());
  info.ppEnabledLayerNames = layers.data();
  if (validation)
    info.pNext = &messenger_info;  // also reports problems in vkCreate/DestroyInstance

  const VkResult result = vkCreateInstance(&info, &host_callbacks_, &instance_);
  if (result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED)
    throw Error(std::string("Vulkan: no Vulkan driver could be loaded (") + vk_result_name(result) +
                "); install a GPU driver or Mesa's lavapipe (Debian: mesa-vulkan-drivers)");
  vk_check(result, "vkCreateInstance");

  if (validation) {
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance_, "vkCreateDebugUtilsMessengerEXT"));
    if (create_messenger)
      vk_check(create_messenger(instance_, &messenger_info, nullptr, &messenger_),
               "vkCreateDebugUtilsMessengerEXT");
  }
}

void VulkanContext::pick_physical_device() {
  uint32_t count = 0;
  vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  std::vector<VkPhysicalDevice> devices(count);
  vkEnumeratePhysicalDevices(instance_, &count, devices.data());

  const char* wanted = std::getenv("KINETIC_VULKAN_DEVICE");
  const std::string wanted_name = wanted ? wanted : "";
  int best_rank = -1;
  for (VkPhysicalDevice device : devices) {
    if (graphics_queue_family(device) < 0) continue;
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(device, &props);
    int rank = device_type_rank(props.deviceType);
    if (wanted_name == "cpu")
      rank = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 10 : 0;
    else if (!wanted_name.empty() &&
             std::string(props.deviceName).find(wanted_name) != std::string::npos)
      rank = 10;
    if (rank > best_rank) {
      best_rank = rank;
      physical_device_ = device;
    }
  }
  if (physical_device_ == VK_NULL_HANDLE)
    throw Error(
        "Vulkan: no Vulkan device with graphics support was found; install a GPU driver or Mesa's "
        "lavapipe (Debian: mesa-vulkan-drivers), or check `vulkaninfo --summary`");

  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physical_device_, &props);
  device_name_ = props.deviceName;
  software_device_ = props.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  limits_ = props.limits;
  vkGetPhysicalDeviceMemoryProperties(physical_device_, &memory_properties_);
  queue_family_ = static_cast<uint32_t>(graphics_queue_family(physical_device_));

  for (VkFormat format : {VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT}) {
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(physical_device_, format, &fp);
    if (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) {
      depth_format_ = format;
      break;
    }
  }
  if (depth_format_ == VK_FORMAT_UNDEFINED)
    throw Error("Vulkan: the device '" + device_name_ + "' offers no depth-stencil format");
}

void VulkanContext::create_device() {
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;

  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(physical_device_, &supported);
  VkPhysicalDeviceFeatures enabled{};
  enabled.fillModeNonSolid = supported.fillModeNonSolid;
  enabled.wideLines = supported.wideLines;
  wireframe_supported_ = supported.fillModeNonSolid == VK_TRUE;
  wide_lines_supported_ = supported.wideLines == VK_TRUE;

  std::vector<const char*> extensions;
  if (surface_extensions_ &&
      device_has_extension(physical_device_, VK_KHR_SWAPCHAIN_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
    swapchain_enabled_ = true;
  }

  VkDeviceCreateInfo info{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queue_info;
  info.pEnabledFeatures = &enabled;
  info.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  vk_check(vkCreateDevice(physical_device_, &info, nullptr, &device_), "vkCreateDevice");
  vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pool.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT;
  pool.queueFamilyIndex = queue_family_;
  vk_check(vkCreateCommandPool(device_, &pool, nullptr, &one_shot_pool_), "vkCreateCommandPool");
}

VkSampleCountFlagBits VulkanContext::usable_samples(VkSampleCountFlagBits wanted) const {
  const VkSampleCountFlags counts =
      limits_.framebufferColorSampleCounts & limits_.framebufferDepthSampleCounts;
  for (VkSampleCountFlagBits s :
       {VK_SAMPLE_COUNT_8_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_2_BIT})
    if (s <= wanted && (counts & s)) return s;
  return VK_SAMPLE_COUNT_1_BIT;
}

uint32_t VulkanContext::find_memory_type(uint32_t type_bits,
                                         VkMemoryPropertyFlags properties) const {
  for (uint32_t i = 0; i < memory_properties_.memoryTypeCount; ++i)
    if ((type_bits & (1u << i)) &&
        (memory_properties_.memoryTypes[i].propertyFlags & properties) == properties)
      return i;
  throw Error("Vulkan: the device '" + device_name_ +
              "' has no memory type with the needed properties");
}

VkDeviceMemory VulkanContext::allocate(const VkMemoryRequirements& requirements,
                                       VkMemoryPropertyFlags properties) const {
  VkMemoryAllocateInfo info{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  info.allocationSize = requirements.size;
  info.memoryTypeIndex = find_memory_type(requirements.memoryTypeBits, properties);
  VkDeviceMemory memory = VK_NULL_HANDLE;
  vk_check(vkAllocateMemory(device_, &info, nullptr, &memory), "vkAllocateMemory");
  ++live_allocations_;
  return memory;
}

void VulkanContext::free(VkDeviceMemory memory) const {
  if (memory == VK_NULL_HANDLE) return;
  vkFreeMemory(device_, memory, nullptr);
  --live_allocations_;
}

void VulkanContext::submit_and_wait(const std::function<void(VkCommandBuffer)>& record) const {
  VkCommandBufferAllocateInfo alloc{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  alloc.commandPool = one_shot_pool_;
  alloc.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  alloc.commandBufferCount = 1;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  vk_check(vkAllocateCommandBuffers(device_, &alloc, &cmd), "vkAllocateCommandBuffers");
  struct Release {
    const VulkanContext* self;
    VkCommandBuffer cmd;
    ~Release() { vkFreeCommandBuffers(self->device_, self->one_shot_pool_, 1, &cmd); }
  } release{this, cmd};

  VkCommandBufferBeginInfo begin{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vk_check(vkBeginCommandBuffer(cmd, &begin), "vkBeginCommandBuffer");
  record(cmd);
  vk_check(vkEndCommandBuffer(cmd), "vkEndCommandBuffer");

  VkSubmitInfo submit{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cmd;
  vk_check(vkQueueSubmit(queue_, 1, &submit, VK_NULL_HANDLE), "vkQueueSubmit");
  vk_check(vkQueueWaitIdle(queue_), "vkQueueWaitIdle");
}

}  // namespace kinetic::viewer
