#pragma once
// Renderer: draws a RenderScene with a Camera into any target with a given RenderTargetFormat
// (OffscreenTarget or SwapchainTarget) — the same code for the window and for headless images.
//
// Per frame:   renderer.prepare(slot, scene, camera, extent);   // writes this slot's GPU buffers
//              ... begin the target's render pass ...
//              renderer.record(cmd, slot);                      // draws
// `slot` < frames_in_flight; the caller must have waited for the slot's previous frame.
// Instance records are uniforms bound per draw at a dynamic offset; the closed shells each mesh
// starts with are drawn with back faces culled (closed_shells.hpp), the rest two-sided.
// Draw order: background, opaque meshes (stencil marks selection), wireframes, grid, depth-tested
// lines, ghosts (depth pre-pass, then colour: one clean translucent surface), selection outline,
// overlay meshes and lines (gizmo, on top), ImGui.
#include <vulkan/vulkan.h>

#include <memory>
#include <vector>

#include "viewer/camera.hpp"
#include "viewer/gpu_resources.hpp"
#include "viewer/imgui_overlay.hpp"
#include "viewer/mesh_library.hpp"
#include "viewer/render_pass.hpp"
#include "viewer/render_scene.hpp"

namespace kinetic::viewer {

class VulkanContext;

class Renderer {
 public:
  Renderer(const VulkanContext& context, const RenderTargetFormat& format, VkRenderPass pass,
           std::shared_ptr<MeshLibrary> meshes = nullptr, uint32_t frames_in_flight = 1);
  ~Renderer();
  Renderer(const Renderer&) = delete;
  Renderer& operator=(const Renderer&) = delete;

  MeshLibrary& meshes() { return *meshes_; }
  const std::shared_ptr<MeshLibrary>& shared_meshes() const { return meshes_; }
  uint32_t frames_in_flight() const { return static_cast<uint32_t>(slots_.size()); }

  // pixel_scale: the target's pixels per window pixel (< 1 for a window frame drawn at a reduced
  // resolution and stretched); pixel sizes (outline, line width, overlay text) keep their size on
  // screen.
  void prepare(uint32_t slot, const RenderScene& scene, const Camera& camera, VkExtent2D extent,
               float pixel_scale = 1.0f);
  void record(VkCommandBuffer cmd, uint32_t slot);
  // The colour the target should clear to (the background's top colour).
  static std::array<float, 4> clear_color(const RenderScene& scene);
  const FrameStats& last_stats() const { return stats_; }

 private:
  enum class Pass { Opaque, Wireframe, GhostDepth, Ghost, Outline, Overlay };
  struct Draw {
    Pass pass;
    MeshId mesh;
    uint32_t first_instance;
    uint32_t instance_count;
    uint32_t stencil;
  };
  struct Slot {
    GpuBuffer frame;
    GpuBuffer instances;
    GpuBuffer lines;
    VkDescriptorSet set = VK_NULL_HANDLE;
    std::vector<Draw> draws;
    uint32_t depth_line_count = 0;  // vertices
    uint32_t overlay_line_count = 0;
  };

  void release();
  void create_layouts();
  void create_pipelines(VkRenderPass pass);
  void ensure_capacity(Slot& slot, size_t instances, size_t line_vertices);
  size_t instance_stride() const;  // bytes between instance records (uniform offset alignment)
  void write_descriptors(Slot& slot);

  const VulkanContext& context_;
  RenderTargetFormat format_;
  std::shared_ptr<MeshLibrary> meshes_;
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  // *_cull_: the same with back faces culled, for the closed shells each mesh starts with.
  VkPipeline opaque_cull_ = VK_NULL_HANDLE, ghost_depth_cull_ = VK_NULL_HANDLE,
             ghost_cull_ = VK_NULL_HANDLE;
  VkPipeline background_ = VK_NULL_HANDLE, opaque_ = VK_NULL_HANDLE, wireframe_ = VK_NULL_HANDLE,
             ghost_depth_ = VK_NULL_HANDLE, ghost_ = VK_NULL_HANDLE, outline_ = VK_NULL_HANDLE,
             grid_ = VK_NULL_HANDLE, lines_ = VK_NULL_HANDLE, overlay_lines_ = VK_NULL_HANDLE,
             overlay_mesh_ = VK_NULL_HANDLE;
  std::vector<Slot> slots_;
  std::unique_ptr<ImGuiOverlay> overlay_;
  // Per-frame values the recording needs.
  VkExtent2D extent_{};
  Color background_top_, background_bottom_, outline_color_;
  float outline_width_ = 2;
  float line_width_ = 1;
  bool grid_visible_ = true;
  FrameStats stats_;
};

}  // namespace kinetic::viewer
