#pragma once
// Builds the viewer's graphics pipelines from a short description (all share one layout).
#include <vulkan/vulkan.h>

#include <string>

namespace kinetic::viewer {

class VulkanContext;

// MeshShape: mesh vertices without their colour (shaders that only need the shape, e.g. outlines).
enum class VertexInput { None, Mesh, MeshShape, Line };
enum class StencilMode { None, Write, OutsideMarked };

struct PipelineDesc {
  std::string vertex_shader;
  std::string fragment_shader;
  VertexInput input = VertexInput::Mesh;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPolygonMode polygon = VK_POLYGON_MODE_FILL;
  bool depth_test = true;
  bool depth_write = true;
  VkCompareOp depth_compare = VK_COMPARE_OP_LESS_OR_EQUAL;
  bool blend = false;
  bool color_write = true;
  StencilMode stencil = StencilMode::None;
  bool dynamic_line_width = false;
  // Depth offsets (Vulkan's constant and slope factors); positive moves fragments away from the
  // eye, so the surface a ghost shares with the robot is the robot's.
  float depth_bias = 0;
  float depth_bias_slope = 0;
  bool cull_back_faces = false;  // only for closed, outward-facing shells (closed_shells.hpp)
};

VkPipeline build_pipeline(const VulkanContext& context, VkRenderPass pass,
                          VkSampleCountFlagBits samples, VkPipelineLayout layout,
                          const PipelineDesc& desc);

}  // namespace kinetic::viewer
