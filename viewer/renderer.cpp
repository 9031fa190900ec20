#include "viewer/renderer.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

#include "viewer/pipeline_builder.hpp"
#include "viewer/vk_check.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

namespace {

// Mirrors `Frame` in resources/shaders/common.glsl.
struct FrameUniforms {
  float view[16], proj[16], view_proj[16];
  float camera_position[4], key_direction[4], fill_direction[4], key_color[4], fill_color[4];
  float sky_ambient[4], ground_ambient[4], grid[4], grid_center[4], viewport[4];
};
static_assert(sizeof(FrameUniforms) == 352);

// Mirrors `Instance` in common.glsl (std140), one record per draw at a dynamic uniform offset.
struct GpuInstance {
  float model[16];
  float normal_matrix[12];  // mat3 in std140: three columns padded to vec4
  float color[4];
  float params[4];
};
static_assert(sizeof(GpuInstance) == 144);

struct OutlinePush {
  float color[4];
  float width_px;
};

struct BackgroundPush {
  float top[4];
  float bottom[4];
};

void put(float* out, const Mat4& m) {
  std::memcpy(out, m.data(), sizeof(float) * 16);
}
void put(float* out, float x, float y, float z, float w) {
  out[0] = x, out[1] = y, out[2] = z, out[3] = w;
}
void put(float* out, const Color& c) {
  put(out, c.r, c.g, c.b, c.a);
}
// The normal matrix (inverse transpose of the linear part), once per instance instead of per
// vertex.
void put_normal_matrix(float* out, const Eigen::Affine3f& transform) {
  const Mat3 linear = transform.linear();
  const float det = linear.determinant();
  const Mat3 normal = std::abs(det) > 1e-20f ? Mat3(linear.inverse().transpose()) : linear;
  for (int c = 0; c < 3; ++c) put(out + 4 * c, normal(0, c), normal(1, c), normal(2, c), 0);
}

uint8_t to_byte(float v) {
  return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
}

LineVertex line_vertex(const Vec3& p, const Color& c) {
  return {{p.x(), p.y(), p.z()}, {to_byte(c.r), to_byte(c.g), to_byte(c.b), to_byte(c.a)}};
}

void add_axes(std::vector<LineVertex>& out, const Transform& pose, float size) {
  const Vec3 o = pose.translation();
  const Mat3 r = pose.linear();
  out.push_back(line_vertex(o, colors::kAxisX));
  out.push_back(line_vertex(o + r.col(0) * size, colors::kAxisX));
  out.push_back(line_vertex(o, colors::kAxisY));
  out.push_back(line_vertex(o + r.col(1) * size, colors::kAxisY));
  out.push_back(line_vertex(o, colors::kAxisZ));
  out.push_back(line_vertex(o + r.col(2) * size, colors::kAxisZ));
}

void add_batch(std::vector<LineVertex>& out, const LineBatch& batch) {
  const auto& p = batch.points;
  if (batch.strip) {
    for (size_t i = 1; i < p.size(); ++i) {
      out.push_back(line_vertex(p[i - 1], batch.color));
      out.push_back(line_vertex(p[i], batch.color));
    }
  } else {
    for (size_t i = 1; i < p.size(); i += 2) {
      out.push_back(line_vertex(p[i - 1], batch.color));
      out.push_back(line_vertex(p[i], batch.color));
    }
  }
}

int category(uint32_t flags) {
  if (flags & kOverlay) return 3;
  if (flags & kGhost) return 2;
  if (flags & kWireframe) return 1;
  return 0;
}

}  // namespace

Renderer::Renderer(const VulkanContext& context, const RenderTargetFormat& format,
                   VkRenderPass pass, std::shared_ptr<MeshLibrary> meshes,
                   uint32_t frames_in_flight)
    : context_(context),
      format_(format),
      meshes_(meshes ? std::move(meshes) : std::make_shared<MeshLibrary>(context)),
      slots_(std::max(frames_in_flight, 1u)) {
  try {
    create_layouts();
    create_pipelines(pass);
    for (auto& slot : slots_) {
      slot.frame = GpuBuffer::host_visible(context_, sizeof(FrameUniforms),
                                           VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
      ensure_capacity(slot, 256, 4096);
    }
    overlay_ = std::make_unique<ImGuiOverlay>(context_, pass, format_.samples, frames_in_flight);
  } catch (...) {
    release();
    throw;
  }
}

Renderer::~Renderer() {
  release();
}

void Renderer::release() {
  const VkDevice device = context_.device();
  vkDeviceWaitIdle(device);
  overlay_.reset();
  for (VkPipeline* p :
       {&background_, &opaque_, &wireframe_, &ghost_depth_, &ghost_, &outline_, &grid_, &lines_,
        &overlay_lines_, &opaque_cull_, &ghost_depth_cull_, &ghost_cull_}) {
    if (*p) vkDestroyPipeline(device, *p, nullptr);
    *p = VK_NULL_HANDLE;
  }
  slots_.clear();
  if (pool_) vkDestroyDescriptorPool(device, pool_, nullptr);
  if (layout_) vkDestroyPipelineLayout(device, layout_, nullptr);
  if (set_layout_) vkDestroyDescriptorSetLayout(device, set_layout_, nullptr);
  pool_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
  set_layout_ = VK_NULL_HANDLE;
}

void Renderer::create_layouts() {
  const VkDevice device = context_.device();
  VkDescriptorSetLayoutBinding bindings[2]{};
  bindings[0] = {0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1,
                 VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  bindings[1] = {1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_VERTEX_BIT,
                 nullptr};
  VkDescriptorSetLayoutCreateInfo set_info{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  set_info.bindingCount = 2;
  set_info.pBindings = bindings;
  vk_check(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &set_layout_),
           "vkCreateDescriptorSetLayout");

  VkPushConstantRange push{VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT, 0, 32};
  VkPipelineLayoutCreateInfo layout_info{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  vk_check(vkCreatePipelineLayout(device, &layout_info, nullptr, &layout_),
           "vkCreatePipelineLayout");

  const auto count = static_cast<uint32_t>(slots_.size());
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, count},
                                   {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, count}};
  VkDescriptorPoolCreateInfo pool_info{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  pool_info.maxSets = count;
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = sizes;
  vk_check(vkCreateDescriptorPool(device, &pool_info, nullptr, &pool_), "vkCreateDescriptorPool");
  for (auto& slot : slots_) {
    VkDescriptorSetAllocateInfo alloc{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    alloc.descriptorPool = pool_;
    alloc.descriptorSetCount = 1;
    alloc.pSetLayouts = &set_layout_;
    vk_check(vkAllocateDescriptorSets(device, &alloc, &slot.set), "vkAllocateDescriptorSets");
  }
}

void Renderer::create_pipelines(VkRenderPass pass) {
  const auto build = [&](const PipelineDesc& desc) {
    return build_pipeline(context_, pass, format_.samples, layout_, desc);
  };
  PipelineDesc background{"background.vert", "background.frag", VertexInput::None};
  background.depth_test = false;
  background.depth_write = false;
  background_ = build(background);

  PipelineDesc opaque{"mesh.vert", "mesh.frag", VertexInput::Mesh};
  opaque.stencil = StencilMode::Write;
  opaque_ = build(opaque);

  PipelineDesc wireframe = opaque;
  wireframe.stencil = StencilMode::None;
  wireframe.polygon = context_.supports_wireframe() ? VK_POLYGON_MODE_LINE : VK_POLYGON_MODE_FILL;
  wireframe.blend = true;  // translucent edges read better on dense meshes
  wireframe_ = build(wireframe);

  PipelineDesc ghost_depth = opaque;
  ghost_depth.stencil = StencilMode::None;
  ghost_depth.color_write = false;
  // A ghost of a link the motion does not move lies exactly on the robot's surface: without an
  // offset the two depths tie and rounding picks either, pixel by pixel (speckles and stripes,
  // and a tinted base). The colour pass below inherits the offset, so its EQUAL test still meets
  // the depth written here.
  ghost_depth.depth_bias = 4.0f;
  ghost_depth.depth_bias_slope = 2.0f;
  ghost_depth_ = build(ghost_depth);

  PipelineDesc ghost = ghost_depth;
  ghost.color_write = true;
  ghost.blend = true;
  ghost.depth_write = false;
  ghost.depth_compare = VK_COMPARE_OP_EQUAL;
  ghost_ = build(ghost);

  const auto culled = [](PipelineDesc desc) {
    desc.cull_back_faces = true;
    return desc;
  };
  opaque_cull_ = build(culled(opaque));
  ghost_depth_cull_ = build(culled(ghost_depth));
  ghost_cull_ = build(culled(ghost));

  PipelineDesc outline{"outline.vert", "flat.frag", VertexInput::MeshShape};
  outline.depth_test = false;
  outline.depth_write = false;
  outline.stencil = StencilMode::OutsideMarked;
  outline_ = build(outline);

  PipelineDesc grid{"grid.vert", "grid.frag", VertexInput::None};
  grid.blend = true;
  grid.depth_write = false;
  grid_ = build(grid);

  PipelineDesc lines{"line.vert", "line.frag", VertexInput::Line};
  lines.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  lines.blend = true;
  lines.depth_write = false;
  lines.dynamic_line_width = true;
  lines_ = build(lines);

  PipelineDesc overlay_lines = lines;
  overlay_lines.depth_test = false;
  overlay_lines_ = build(overlay_lines);
}

size_t Renderer::instance_stride() const {
  const size_t align = std::max<size_t>(context_.limits().minUniformBufferOffsetAlignment, 16);
  return (sizeof(GpuInstance) + align - 1) / align * align;
}

void Renderer::ensure_capacity(Slot& slot, size_t instances, size_t line_vertices) {
  bool rewrite = false;
  if (!slot.instances || slot.instances.size() < instances * instance_stride()) {
    const size_t capacity = std::max<size_t>(instances * 2, 256);
    slot.instances = GpuBuffer::host_visible(context_, capacity * instance_stride(),
                                             VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
    rewrite = true;
  }
  if (!slot.lines || slot.lines.size() < line_vertices * sizeof(LineVertex)) {
    const size_t capacity = std::max<size_t>(line_vertices * 2, 4096);
    slot.lines = GpuBuffer::host_visible(context_, capacity * sizeof(LineVertex),
                                         VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
  }
  if (rewrite) write_descriptors(slot);
}

void Renderer::write_descriptors(Slot& slot) {
  VkDescriptorBufferInfo frame{slot.frame.handle(), 0, VK_WHOLE_SIZE};
  VkDescriptorBufferInfo instances{slot.instances.handle(), 0, sizeof(GpuInstance)};
  VkWriteDescriptorSet writes[2]{};
  writes[0] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, slot.set, 0,      0, 1,
               VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,      nullptr, &frame,   nullptr};
  writes[1] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,    nullptr, slot.set,   1,      0, 1,
               VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, nullptr, &instances, nullptr};
  vkUpdateDescriptorSets(context_.device(), 2, writes, 0, nullptr);
}

std::array<float, 4> Renderer::clear_color(const RenderScene& scene) {
  return {scene.background_top.r, scene.background_top.g, scene.background_top.b, 1.0f};
}

void Renderer::prepare(uint32_t slot_index, const RenderScene& scene, const Camera& camera,
                       VkExtent2D extent, float pixel_scale) {
  if (slot_index >= slots_.size())
    throw Error("renderer: frame slot " + std::to_string(slot_index) + " out of range");
  Slot& slot = slots_[slot_index];
  extent_ = extent;
  const float width = static_cast<float>(std::max(extent.width, 1u));
  const float height = static_cast<float>(std::max(extent.height, 1u));

  // Frame uniforms.
  FrameUniforms frame{};
  const Mat4 view = camera.view_matrix();
  const Mat4 proj = camera.projection_matrix(width / height);
  put(frame.view, view);
  put(frame.proj, proj);
  put(frame.view_proj, proj * view);
  const Vec3 eye = camera.eye();
  put(frame.camera_position, eye.x(), eye.y(), eye.z(), camera.orthographic ? 0.0f : 1.0f);
  const Vec3 key = Vec3(-0.45f, 0.65f, 0.62f).normalized(),
             fill = Vec3(0.7f, -0.15f, 0.7f).normalized();
  put(frame.key_direction, key.x(), key.y(), key.z(), 0);
  put(frame.fill_direction, fill.x(), fill.y(), fill.z(), 0);
  put(frame.key_color, 0.95f, 0.92f, 0.86f, 1);
  put(frame.fill_color, 0.30f, 0.34f, 0.42f, 1);
  put(frame.sky_ambient, 0.30f, 0.32f, 0.36f, 1);
  put(frame.ground_ambient, 0.14f, 0.13f, 0.12f, 1);
  const float fade_scale = std::max(1.0f, camera.distance / 3.0f);
  put(frame.grid, scene.grid.minor_cell, scene.grid.major_cell, scene.grid.fade_start * fade_scale,
      scene.grid.fade_end * fade_scale);
  put(frame.grid_center, camera.target.x(), camera.target.y(), 0, scene.grid.extent * fade_scale);
  frame.grid[3] = scene.grid.fade_end * fade_scale;
  frame.grid_center[3] = 0;
  put(frame.viewport, width, height, 1 / width, 1 / height);
  std::memcpy(slot.frame.mapped(), &frame, sizeof frame);

  // Instances, sorted so instances of one mesh in one pass share one vertex/index buffer binding.
  const auto& instances = scene.instances;
  std::vector<uint32_t> order(instances.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  const auto key_of = [&](uint32_t i) {
    return std::make_tuple(category(instances[i].flags), instances[i].mesh,
                           (instances[i].flags & kSelected) != 0);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return key_of(a) < key_of(b); });

  size_t line_estimate = scene.frames.size() * 6 + 6;
  for (const auto& batch : scene.lines) line_estimate += batch.points.size() * 2;
  ensure_capacity(slot, instances.size(), line_estimate);

  auto* records = static_cast<char*>(slot.instances.mapped());
  slot.draws.clear();
  stats_ = {};
  stats_.instances = static_cast<uint32_t>(instances.size());
  for (uint32_t k = 0; k < order.size(); ++k) {
    const Instance& in = instances[order[k]];
    const GpuMesh& mesh = meshes_->get(in.mesh);
    GpuInstance out{};
    put(out.model, in.transform.matrix());
    put_normal_matrix(out.normal_matrix, in.transform);
    put(out.color, in.color);
    const bool wire = (in.flags & kWireframe) != 0;
    const float mesh_colors = !((in.flags & kMeshColors) && mesh.has_colors) ? 0.0f
                              : (in.flags & kColorWhereMeshHasNone)          ? 2.0f
                                                                             : 1.0f;
    put(out.params, mesh_colors, (in.flags & kHighlighted) ? 0.7f : 0.0f,
        (in.flags & kGhost) ? 0.8f : 0.0f, (in.flags & kUnlit) || wire ? 1.0f : 0.0f);
    std::memcpy(records + k * instance_stride(), &out, sizeof out);

    const int cat = category(in.flags);
    const Pass pass = cat == 0   ? Pass::Opaque
                      : cat == 1 ? Pass::Wireframe
                      : cat == 2 ? Pass::Ghost
                                 : Pass::Overlay;
    const uint32_t stencil = (in.flags & kSelected) ? 1 : 0;
    if (!slot.draws.empty()) {
      Draw& last = slot.draws.back();
      if (last.pass == pass && last.mesh == in.mesh && last.stencil == stencil &&
          last.first_instance + last.instance_count == k) {
        ++last.instance_count;
        continue;
      }
    }
    slot.draws.push_back({pass, in.mesh, k, 1, stencil});
  }
  for (const Draw& d : slot.draws) {
    stats_.triangles += uint64_t{meshes_->get(d.mesh).index_count / 3} * d.instance_count;
    stats_.draw_calls += (d.pass == Pass::Ghost ? 2 : 1) * d.instance_count;
  }

  // Lines: depth-tested first, then those drawn on top.
  std::vector<LineVertex> lines;
  lines.reserve(line_estimate);
  if (scene.world_axes) add_axes(lines, Transform::Identity(), scene.world_axes_size);
  const auto add_frames = [&] {
    for (const auto& pose : scene.frames) add_axes(lines, pose, scene.frame_size);
  };
  if (!scene.frames_on_top) add_frames();
  for (const auto& batch : scene.lines)
    if (!batch.on_top) add_batch(lines, batch);
  slot.depth_line_count = static_cast<uint32_t>(lines.size());
  if (scene.frames_on_top) add_frames();
  for (const auto& batch : scene.lines)
    if (batch.on_top) add_batch(lines, batch);
  slot.overlay_line_count = static_cast<uint32_t>(lines.size()) - slot.depth_line_count;
  if (!lines.empty())
    std::memcpy(slot.lines.mapped(), lines.data(), lines.size() * sizeof(LineVertex));
  stats_.draw_calls += (slot.depth_line_count > 0) + (slot.overlay_line_count > 0) +
                       (scene.grid.visible ? 1 : 0) + 1;

  background_top_ = scene.background_top;
  background_bottom_ = scene.background_bottom;
  outline_color_ = scene.outline_color;
  outline_width_ = scene.outline_width_px * pixel_scale;
  line_width_ =
      pixel_scale < 1.0f ? std::max(1.0f, scene.line_width_px * pixel_scale) : scene.line_width_px;
  grid_visible_ = scene.grid.visible;
  overlay_->build(scene.overlay, camera, width / pixel_scale, height / pixel_scale, stats_,
                  pixel_scale);
}

void Renderer::record(VkCommandBuffer cmd, uint32_t slot_index) {
  const Slot& slot = slots_.at(slot_index);
  VkViewport viewport{0, 0, static_cast<float>(extent_.width), static_cast<float>(extent_.height),
                      0, 1};
  VkRect2D scissor{{0, 0}, extent_};
  vkCmdSetViewport(cmd, 0, 1, &viewport);
  vkCmdSetScissor(cmd, 0, 1, &scissor);
  const auto bind_instance = [&](uint32_t k) {
    const auto offset = static_cast<uint32_t>(k * instance_stride());
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout_, 0, 1, &slot.set, 1,
                            &offset);
  };
  bind_instance(0);
  const VkShaderStageFlags push_stages = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;

  BackgroundPush background{};
  put(background.top, background_top_);
  put(background.bottom, background_bottom_);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, background_);
  vkCmdPushConstants(cmd, layout_, push_stages, 0, sizeof background, &background);
  vkCmdDraw(cmd, 3, 1, 0, 0);

  // Each mesh in two ranges: its closed shells with `culled` (back faces culled), the rest with
  // `pipeline`.
  const auto draw_meshes = [&](Pass pass, VkPipeline pipeline, VkPipeline culled,
                               bool set_stencil) {
    VkPipeline bound = VK_NULL_HANDLE;
    const auto use = [&](VkPipeline p) {
      if (p == bound) return;
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
      bound = p;
    };
    for (const Draw& d : slot.draws) {
      if (d.pass != pass) continue;
      const GpuMesh& mesh = meshes_->get(d.mesh);
      const VkDeviceSize offset = 0;
      const VkBuffer vertices = mesh.vertices.handle();
      vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
      vkCmdBindIndexBuffer(cmd, mesh.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
      const uint32_t closed = culled ? mesh.closed_index_count : 0;
      for (uint32_t k = d.first_instance; k < d.first_instance + d.instance_count; ++k) {
        bind_instance(k);
        if (closed > 0) {
          use(culled);
          if (set_stencil) vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, d.stencil);
          vkCmdDrawIndexed(cmd, closed, 1, 0, 0, 0);
        }
        if (closed < mesh.index_count) {
          use(pipeline);
          if (set_stencil) vkCmdSetStencilReference(cmd, VK_STENCIL_FACE_FRONT_AND_BACK, d.stencil);
          vkCmdDrawIndexed(cmd, mesh.index_count - closed, 1, closed, 0, 0);
        }
      }
    }
  };
  const auto draw_lines = [&](VkPipeline pipeline, uint32_t first, uint32_t count) {
    if (count == 0) return;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (context_.supports_wide_lines())
      vkCmdSetLineWidth(cmd, std::clamp(line_width_, context_.limits().lineWidthRange[0],
                                        context_.limits().lineWidthRange[1]));
    const VkDeviceSize offset = 0;
    const VkBuffer buffer = slot.lines.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &buffer, &offset);
    vkCmdDraw(cmd, count, 1, first, 0);
  };

  draw_meshes(Pass::Opaque, opaque_, opaque_cull_, true);
  draw_meshes(Pass::Wireframe, wireframe_, VK_NULL_HANDLE, false);
  if (grid_visible_) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, grid_);
    vkCmdDraw(cmd, 6, 1, 0, 0);
  }
  draw_lines(lines_, 0, slot.depth_line_count);
  draw_meshes(Pass::Ghost, ghost_depth_, ghost_depth_cull_, false);
  draw_meshes(Pass::Ghost, ghost_, ghost_cull_, false);

  // Selection outline around every selected, non-overlay instance.
  bool outline_bound = false;
  for (const Draw& d : slot.draws) {
    if (d.stencil != 1 || d.pass == Pass::Overlay) continue;
    if (!outline_bound) {
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, outline_);
      OutlinePush push{};
      put(push.color, outline_color_);
      push.width_px = outline_width_;
      vkCmdPushConstants(cmd, layout_, push_stages, 0, sizeof push, &push);
      outline_bound = true;
    }
    const GpuMesh& mesh = meshes_->get(d.mesh);
    const VkDeviceSize offset = 0;
    const VkBuffer vertices = mesh.vertices.handle();
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
    vkCmdBindIndexBuffer(cmd, mesh.indices.handle(), 0, VK_INDEX_TYPE_UINT32);
    for (uint32_t k = d.first_instance; k < d.first_instance + d.instance_count; ++k) {
      bind_instance(k);
      vkCmdDrawIndexed(cmd, mesh.index_count, 1, 0, 0, 0);
    }
  }

  // Overlay: the gizmo sees only itself in depth.
  const bool has_overlay = std::any_of(slot.draws.begin(), slot.draws.end(),
                                       [](const Draw& d) { return d.pass == Pass::Overlay; });
  if (has_overlay || slot.overlay_line_count > 0) {
    VkClearAttachment clear{};
    clear.aspectMask = VK_IMAGE_ASPECT_DEPTH_BIT;
    clear.clearValue.depthStencil = {1.0f, 0};
    VkClearRect rect{scissor, 0, 1};
    vkCmdClearAttachments(cmd, 1, &clear, 1, &rect);
  }
  draw_lines(overlay_lines_, slot.depth_line_count, slot.overlay_line_count);
  draw_meshes(Pass::Overlay, opaque_, opaque_cull_, true);
  overlay_->record(cmd);
}

}  // namespace kinetic::viewer
