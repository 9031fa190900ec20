#include "viewer/headless.hpp"

namespace kinetic::viewer {

HeadlessRenderer::HeadlessRenderer(uint32_t width, uint32_t height, VkSampleCountFlagBits samples)
    : HeadlessRenderer(std::make_shared<VulkanContext>(), width, height, samples) {}

HeadlessRenderer::HeadlessRenderer(std::shared_ptr<VulkanContext> context, uint32_t width,
                                   uint32_t height, VkSampleCountFlagBits samples)
    : context_(std::move(context)),
      target_(std::make_unique<OffscreenTarget>(*context_, width, height, samples)),
      renderer_(std::make_unique<Renderer>(*context_, target_->format(), target_->render_pass())) {}

void HeadlessRenderer::draw(const RenderScene& scene, const Camera& camera) {
  renderer_->prepare(0, scene, camera, {target_->width(), target_->height()});
  target_->draw(Renderer::clear_color(scene),
                [&](VkCommandBuffer cmd) { renderer_->record(cmd, 0); });
}

RgbaImage HeadlessRenderer::render(const RenderScene& scene, const Camera& camera) {
  renderer_->prepare(0, scene, camera, {target_->width(), target_->height()});
  target_->render(Renderer::clear_color(scene),
                  [&](VkCommandBuffer cmd) { renderer_->record(cmd, 0); });
  return target_->read_back();
}

void HeadlessRenderer::render_png(const RenderScene& scene, const Camera& camera,
                                  const std::filesystem::path& path) {
  write_png(render(scene, camera), path);
}

}  // namespace kinetic::viewer
