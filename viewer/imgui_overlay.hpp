#pragma once
// The Dear ImGui overlay drawn inside the viewer's render pass (widgets cannot sit over a native
// Vulkan child window): stats, keyboard help, labels at 3D points, warnings. Deterministic: fixed
// time step, built-in font, no input state unless the host feeds it.
#include <vulkan/vulkan.h>

#include <cstdint>

#include "viewer/camera.hpp"
#include "viewer/render_scene.hpp"

struct ImGuiContext;

namespace kinetic::viewer {

class VulkanContext;

struct FrameStats {
  uint64_t triangles = 0;
  uint32_t draw_calls = 0;
  uint32_t instances = 0;
};

class ImGuiOverlay {
 public:
  ImGuiOverlay(const VulkanContext& context, VkRenderPass pass, VkSampleCountFlagBits samples,
               uint32_t frames_in_flight);
  ~ImGuiOverlay();
  ImGuiOverlay(const ImGuiOverlay&) = delete;
  ImGuiOverlay& operator=(const ImGuiOverlay&) = delete;

  // Builds this frame's draw lists for a width x height window drawn at pixel_scale target pixels
  // per window pixel; returns false when there is nothing to draw.
  bool build(const OverlayContent& content, const Camera& camera, float width, float height,
             const FrameStats& stats, float pixel_scale = 1.0f);
  void record(VkCommandBuffer cmd);

 private:
  void layout(const OverlayContent& content, const Camera& camera, float width, float height,
              const FrameStats& stats);
  const VulkanContext& context_;
  ImGuiContext* imgui_ = nullptr;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  bool has_draw_data_ = false;
};

}  // namespace kinetic::viewer
