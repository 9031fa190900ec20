#pragma once
// HeadlessRenderer: the one-call offscreen path used by `kinetic-studio --headless` and the golden
// tests: scene + camera + size -> RgbaImage / PNG. Deterministic on lavapipe (no time-dependent
// effects). The viewer is engine-free: the app turns robot + joint values into link poses (engine
// FK) and fills the RenderScene with one Instance per visual, meshes from meshes().load(path).
//
//   HeadlessRenderer headless(1280, 720);
//   RenderScene scene;  scene.instances.push_back({headless.meshes().load("link0.dae"), pose,
//   ...}); Camera camera;      camera.fit(min, max, 1280.0f / 720.0f); headless.render_png(scene,
//   camera, "shot.png");
#include <filesystem>
#include <memory>

#include "viewer/camera.hpp"
#include "viewer/image.hpp"
#include "viewer/offscreen_target.hpp"
#include "viewer/render_scene.hpp"
#include "viewer/renderer.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

class HeadlessRenderer {
 public:
  // Creates its own Vulkan context (no surface); throws viewer::Error when there is no device.
  HeadlessRenderer(uint32_t width, uint32_t height,
                   VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT);
  HeadlessRenderer(std::shared_ptr<VulkanContext> context, uint32_t width, uint32_t height,
                   VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_4_BIT);

  MeshLibrary& meshes() { return renderer_->meshes(); }
  VulkanContext& context() { return *context_; }
  uint32_t width() const { return target_->width(); }
  uint32_t height() const { return target_->height(); }
  float aspect() const { return static_cast<float>(width()) / static_cast<float>(height()); }

  // Renders one frame and waits for it (no readback).
  void draw(const RenderScene& scene, const Camera& camera);
  RgbaImage render(const RenderScene& scene, const Camera& camera);
  void render_png(const RenderScene& scene, const Camera& camera,
                  const std::filesystem::path& path);
  const FrameStats& last_stats() const { return renderer_->last_stats(); }

 private:
  std::shared_ptr<VulkanContext> context_;
  std::unique_ptr<OffscreenTarget> target_;
  std::unique_ptr<Renderer> renderer_;
};

}  // namespace kinetic::viewer
