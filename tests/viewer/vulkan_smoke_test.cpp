// Proves the Vulkan stack: a device is created (lavapipe in CI), an offscreen image is cleared to a
// known colour, read back and checked; teardown is validation-clean.
#include <gtest/gtest.h>

#include <vulkan/vulkan.h>

#include "viewer/error.hpp"
#include "viewer/offscreen_target.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {
namespace {

VulkanContextOptions validated() {
  VulkanContextOptions options;
  options.enable_validation = true;  // used when the Khronos layer is installed
  return options;
}

TEST(VulkanSmoke, CreatesADevice) {
  VulkanContext context(validated());
  EXPECT_NE(context.device(), VK_NULL_HANDLE);
  EXPECT_FALSE(context.device_name().empty());
  EXPECT_NE(context.depth_stencil_format(), VK_FORMAT_UNDEFINED);
  EXPECT_EQ(context.validation_errors(), 0);
}

TEST(VulkanSmoke, ClearsAnOffscreenImageAndReadsItBack) {
  VulkanContext context(validated());
  for (VkSampleCountFlagBits samples : {VK_SAMPLE_COUNT_1_BIT, VK_SAMPLE_COUNT_4_BIT}) {
    OffscreenTarget target(context, 64, 48, samples);
    target.render({0.2f, 0.4f, 0.6f, 1.0f}, nullptr);
    const RgbaImage image = target.read_back();
    ASSERT_EQ(image.width(), 64u);
    ASSERT_EQ(image.height(), 48u);
    const Rgba8 expected{51, 102, 153, 255};
    for (uint32_t y = 0; y < image.height(); y += 7)
      for (uint32_t x = 0; x < image.width(); x += 5)
        ASSERT_EQ(image.at(x, y), expected) << x << "," << y;
    // A second frame with another colour proves the readback is fresh, not stale memory.
    target.render({1.0f, 0.0f, 0.0f, 1.0f}, nullptr);
    EXPECT_EQ(target.read_back().at(63, 47), (Rgba8{255, 0, 0, 255}));
  }
  EXPECT_EQ(context.validation_errors(), 0);
}

TEST(VulkanSmoke, ReleasesEveryAllocation) {
  VulkanContext context(validated());
  {
    OffscreenTarget target(context, 32, 32);
    target.render({0, 0, 0, 1}, nullptr);
    EXPECT_GT(context.live_allocations(), 0);
  }
  EXPECT_EQ(context.live_allocations(), 0);
}

TEST(VulkanSmoke, InvalidSizeIsAClearError) {
  VulkanContext context;
  try {
    OffscreenTarget target(context, 0, 10);
    FAIL() << "a zero-sized target was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("0x10"), std::string::npos) << e.what();
  }
}

TEST(VulkanSmoke, SurfaceExtensionsCanBeRequested) {
  VulkanContextOptions options;
  options.enable_surface_extensions = true;
  VulkanContext context(options);
  EXPECT_NE(context.instance(), VK_NULL_HANDLE);
  EXPECT_TRUE(context.supports_swapchain());
}

}  // namespace
}  // namespace kinetic::viewer
