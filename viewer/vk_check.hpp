#pragma once
// Turns a failed Vulkan call into a viewer Error naming the call and the result code.
#include <vulkan/vulkan.h>

#include <string>

#include "viewer/error.hpp"

namespace kinetic::viewer {

const char* vk_result_name(VkResult result);

inline void vk_check(VkResult result, const char* what) {
  if (result != VK_SUCCESS)
    throw Error(std::string("Vulkan: ") + what + " failed (" + vk_result_name(result) + ")");
}

}  // namespace kinetic::viewer
