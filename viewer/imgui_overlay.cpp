#include "viewer/imgui_overlay.hpp"

#include <backends/imgui_impl_vulkan.h>
#include <imgui.h>

#include <cstdio>

#include "viewer/vk_check.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

namespace {

void check_imgui_vk(VkResult result) {
  vk_check(result, "ImGui Vulkan backend");
}

ImU32 to_imgui(const Color& c) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a));
}

const char* const kDefaultHelp[] = {
    "Left drag      orbit",
    "Middle drag    pan",
    "Wheel          zoom",
    "F              focus selection",
    "A              fit all",
    "1/3/7          front/right/top",
    "5              perspective/ortho",
    "W/E            gizmo move/rotate",
    "H              hide this help",
};

constexpr ImGuiWindowFlags kPanelFlags =
    ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
    ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
    ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;

}  // namespace

ImGuiOverlay::ImGuiOverlay(const VulkanContext& context, VkRenderPass pass,
                           VkSampleCountFlagBits samples, uint32_t frames_in_flight)
    : context_(context) {
  ImGuiContext* previous = ImGui::GetCurrentContext();
  imgui_ = ImGui::CreateContext();
  ImGui::SetCurrentContext(imgui_);
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;
  io.LogFilename = nullptr;
  ImGui::StyleColorsDark();
  ImGuiStyle& style = ImGui::GetStyle();
  style.WindowRounding = 5.0f;
  style.WindowBorderSize = 0.0f;
  style.Colors[ImGuiCol_WindowBg].w = 0.72f;

  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4};
  VkDescriptorPoolCreateInfo pool{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool.maxSets = 4;
  pool.poolSizeCount = 1;
  pool.pPoolSizes = &size;
  vk_check(vkCreateDescriptorPool(context.device(), &pool, nullptr, &pool_),
           "vkCreateDescriptorPool");

  ImGui_ImplVulkan_InitInfo info{};
  info.Instance = context.instance();
  info.PhysicalDevice = context.physical_device();
  info.Device = context.device();
  info.QueueFamily = context.queue_family();
  info.Queue = context.queue();
  info.DescriptorPool = pool_;
  info.MinImageCount = frames_in_flight < 2 ? 2 : frames_in_flight;
  info.ImageCount = info.MinImageCount;
  info.MSAASamples = samples;
  info.CheckVkResultFn = &check_imgui_vk;
  ImGui_ImplVulkan_Init(&info, pass);
  context.submit_and_wait([](VkCommandBuffer cmd) { ImGui_ImplVulkan_CreateFontsTexture(cmd); });
  ImGui_ImplVulkan_DestroyFontUploadObjects();
  ImGui::SetCurrentContext(previous);
}

ImGuiOverlay::~ImGuiOverlay() {
  vkDeviceWaitIdle(context_.device());
  ImGuiContext* previous = ImGui::GetCurrentContext();
  ImGui::SetCurrentContext(imgui_);
  ImGui_ImplVulkan_Shutdown();
  ImGui::DestroyContext(imgui_);
  ImGui::SetCurrentContext(previous == imgui_ ? nullptr : previous);
  vkDestroyDescriptorPool(context_.device(), pool_, nullptr);
}

bool ImGuiOverlay::build(const OverlayContent& content, const Camera& camera, float width,
                         float height, const FrameStats& stats, float pixel_scale) {
  has_draw_data_ = false;
  const bool anything = content.show_stats || content.show_help || !content.labels.empty() ||
                        !content.warnings.empty() || !content.legend.empty();
  if (!anything) return false;
  ImGui::SetCurrentContext(imgui_);
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(width, height);
  io.DisplayFramebufferScale = ImVec2(pixel_scale, pixel_scale);  // the same layout in fewer pixels
  io.DeltaTime = 1.0f / 60.0f;  // fixed: headless images must not depend on time
  // Auto-sized windows are measured in their first frame and shown in the next: lay out twice when
  // the content changed shape, so a single headless frame is complete.
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) ImGui::EndFrame();
    ImGui_ImplVulkan_NewFrame();
    ImGui::NewFrame();
    layout(content, camera, width, height, stats);
  }
  ImGui::Render();
  has_draw_data_ = true;
  return true;
}

void ImGuiOverlay::layout(const OverlayContent& content, const Camera& camera, float width,
                          float height, const FrameStats& stats) {
  const float margin = 10.0f;
  float stats_top = margin;
  if (!content.warnings.empty()) {
    ImGui::SetNextWindowPos(ImVec2(margin, margin));
    ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0.55f, 0.08f, 0.06f, 0.85f));
    ImGui::Begin("##warnings", nullptr, kPanelFlags);
    for (const auto& warning : content.warnings) ImGui::TextUnformatted(warning.c_str());
    stats_top += ImGui::GetWindowSize().y + 6.0f;  // stats go below the warnings
    ImGui::End();
    ImGui::PopStyleColor();
  }
  if (content.show_stats) {
    ImGui::SetNextWindowPos(ImVec2(margin, stats_top));
    ImGui::Begin("##stats", nullptr, kPanelFlags);
    if (content.frame_time_ms > 0)
      ImGui::Text("%.2f ms  (%.0f fps)", static_cast<double>(content.frame_time_ms),
                  1000.0 / static_cast<double>(content.frame_time_ms));
    ImGui::Text("%llu triangles", static_cast<unsigned long long>(stats.triangles));
    ImGui::Text("%u draw calls, %u instances", stats.draw_calls, stats.instances);
    for (const auto& line : content.stats_lines) ImGui::TextUnformatted(line.c_str());
    ImGui::End();
  }
  if (content.show_help) {
    ImGui::SetNextWindowPos(ImVec2(width - margin, height - margin), ImGuiCond_Always,
                            ImVec2(1, 1));
    ImGui::Begin("##help", nullptr, kPanelFlags);
    if (content.help_lines.empty())
      for (const char* line : kDefaultHelp) ImGui::TextUnformatted(line);
    else
      for (const auto& line : content.help_lines) ImGui::TextUnformatted(line.c_str());
    ImGui::End();
  }
  if (!content.legend.empty()) {
    // Which translucent copy of the robot is which, where several overlap.
    ImGui::SetNextWindowPos(ImVec2(margin, height - margin), ImGuiCond_Always, ImVec2(0, 1));
    ImGui::Begin("##legend", nullptr, kPanelFlags);
    const float swatch = ImGui::GetTextLineHeight();
    for (const auto& entry : content.legend) {
      const ImVec2 at = ImGui::GetCursorScreenPos();
      ImGui::GetWindowDrawList()->AddRectFilled(at, ImVec2(at.x + swatch, at.y + swatch),
                                                to_imgui(entry.color.with_alpha(1.0f)), 2.0f);
      ImGui::Dummy(ImVec2(swatch, swatch));
      ImGui::SameLine();
      ImGui::TextUnformatted(entry.text.c_str());
    }
    ImGui::End();
  }
  if (!content.labels.empty()) {
    ImDrawList* draw = ImGui::GetForegroundDrawList();
    const Mat4 view_proj = camera.projection_matrix(width / height) * camera.view_matrix();
    for (const auto& label : content.labels) {
      const Vec4 clip = view_proj * label.position.homogeneous();
      if (clip.w() <= 1e-6f) continue;  // behind the camera
      const float x = (clip.x() / clip.w() * 0.5f + 0.5f) * width;
      const float y = (clip.y() / clip.w() * 0.5f + 0.5f) * height;
      const ImVec2 size = ImGui::CalcTextSize(label.text.c_str());
      const ImVec2 at(x + 6, y - size.y - 4);
      draw->AddRectFilled(ImVec2(at.x - 3, at.y - 2), ImVec2(at.x + size.x + 3, at.y + size.y + 2),
                          IM_COL32(20, 22, 26, 190), 3.0f);
      draw->AddCircleFilled(ImVec2(x, y), 3.0f, to_imgui(label.color));
      draw->AddText(at, to_imgui(label.color), label.text.c_str());
    }
  }
}

void ImGuiOverlay::record(VkCommandBuffer cmd) {
  if (!has_draw_data_) return;
  ImGui::SetCurrentContext(imgui_);
  ImGui_ImplVulkan_RenderDrawData(ImGui::GetDrawData(), cmd);
}

}  // namespace kinetic::viewer
