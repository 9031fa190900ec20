#include "viewer/pipeline_builder.hpp"

#include <cstddef>
#include <vector>

#include "resources/shaders/embedded_shaders.hpp"
#include "viewer/mesh_data.hpp"
#include "viewer/render_scene.hpp"
#include "viewer/vk_check.hpp"
#include "viewer/vulkan_context.hpp"

namespace kinetic::viewer {

namespace {

VkShaderModule shader_module(VkDevice device, const std::string& name) {
  std::span<const uint32_t> code;
  try {
    code = shaders::spirv(name);
  } catch (const std::out_of_range& e) {
    throw Error(std::string("viewer: ") + e.what());
  }
  VkShaderModuleCreateInfo info{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  info.codeSize = code.size_bytes();
  info.pCode = code.data();
  VkShaderModule module = VK_NULL_HANDLE;
  vk_check(vkCreateShaderModule(device, &info, nullptr, &module), "vkCreateShaderModule");
  return module;
}

}  // namespace

VkPipeline build_pipeline(const VulkanContext& context, VkRenderPass pass,
                          VkSampleCountFlagBits samples, VkPipelineLayout layout,
                          const PipelineDesc& desc) {
  const VkDevice device = context.device();
  VkShaderModule vert = shader_module(device, desc.vertex_shader);
  VkShaderModule frag = VK_NULL_HANDLE;
  try {
    frag = shader_module(device, desc.fragment_shader);
  } catch (...) {
    vkDestroyShaderModule(device, vert, nullptr);
    throw;
  }
  VkPipelineShaderStageCreateInfo stages[2]{};
  stages[0] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
               nullptr,
               0,
               VK_SHADER_STAGE_VERTEX_BIT,
               vert,
               "main",
               nullptr};
  stages[1] = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
               nullptr,
               0,
               VK_SHADER_STAGE_FRAGMENT_BIT,
               frag,
               "main",
               nullptr};

  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
  if (desc.input == VertexInput::Mesh || desc.input == VertexInput::MeshShape) {
    bindings.push_back({0, sizeof(MeshVertex), VK_VERTEX_INPUT_RATE_VERTEX});
    attributes.push_back({0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, position)});
    attributes.push_back({1, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(MeshVertex, normal)});
    if (desc.input == VertexInput::Mesh)
      attributes.push_back({2, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(MeshVertex, color)});
  } else if (desc.input == VertexInput::Line) {
    bindings.push_back({0, sizeof(LineVertex), VK_VERTEX_INPUT_RATE_VERTEX});
    attributes.push_back({0, 0, VK_FORMAT_R32G32B32_SFLOAT, offsetof(LineVertex, position)});
    attributes.push_back({1, 0, VK_FORMAT_R8G8B8A8_UNORM, offsetof(LineVertex, color)});
  }
  VkPipelineVertexInputStateCreateInfo vertex_input{
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vertex_input.vertexBindingDescriptionCount = static_cast<uint32_t>(bindings.size());
  vertex_input.pVertexBindingDescriptions = bindings.data();
  vertex_input.vertexAttributeDescriptionCount = static_cast<uint32_t>(attributes.size());
  vertex_input.pVertexAttributeDescriptions = attributes.data();

  VkPipelineInputAssemblyStateCreateInfo assembly{
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  assembly.topology = desc.topology;

  VkPipelineViewportStateCreateInfo viewport{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO};
  viewport.viewportCount = 1;
  viewport.scissorCount = 1;

  VkPipelineRasterizationStateCreateInfo raster{
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  raster.polygonMode = desc.polygon;
  // Robot meshes are not reliably closed or consistently wound: both sides are drawn, except for
  // the closed shells a mesh starts with (closed_shells.hpp).
  raster.cullMode = desc.cull_back_faces ? VK_CULL_MODE_BACK_BIT : VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  raster.depthBiasEnable = desc.depth_bias != 0 || desc.depth_bias_slope != 0 ? VK_TRUE : VK_FALSE;
  raster.depthBiasConstantFactor = desc.depth_bias;
  raster.depthBiasSlopeFactor = desc.depth_bias_slope;

  VkPipelineMultisampleStateCreateInfo multisample{
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  multisample.rasterizationSamples = samples;

  VkStencilOpState stencil{};
  stencil.compareMask = 0xff;
  stencil.writeMask = 0xff;
  stencil.failOp = VK_STENCIL_OP_KEEP;
  stencil.depthFailOp = VK_STENCIL_OP_KEEP;
  if (desc.stencil == StencilMode::Write) {
    stencil.compareOp = VK_COMPARE_OP_ALWAYS;
    stencil.passOp = VK_STENCIL_OP_REPLACE;
  } else {
    stencil.compareOp = VK_COMPARE_OP_NOT_EQUAL;  // outside the pixels marked 1 by selected objects
    stencil.passOp = VK_STENCIL_OP_KEEP;
    stencil.reference = 1;
  }
  VkPipelineDepthStencilStateCreateInfo depth{
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO};
  depth.depthTestEnable = desc.depth_test;
  depth.depthWriteEnable = desc.depth_write;
  depth.depthCompareOp = desc.depth_compare;
  depth.stencilTestEnable = desc.stencil != StencilMode::None;
  depth.front = stencil;
  depth.back = stencil;

  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = desc.color_write ? 0xf : 0;
  blend.blendEnable = desc.blend;
  blend.srcColorBlendFactor = VK_BLEND_FACTOR_SRC_ALPHA;
  blend.dstColorBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  blend.colorBlendOp = VK_BLEND_OP_ADD;
  blend.srcAlphaBlendFactor = VK_BLEND_FACTOR_ONE;
  blend.dstAlphaBlendFactor = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  blend.alphaBlendOp = VK_BLEND_OP_ADD;
  VkPipelineColorBlendStateCreateInfo color{
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  color.attachmentCount = 1;
  color.pAttachments = &blend;

  std::vector<VkDynamicState> dynamic_states = {VK_DYNAMIC_STATE_VIEWPORT,
                                                VK_DYNAMIC_STATE_SCISSOR};
  if (desc.stencil == StencilMode::Write)
    dynamic_states.push_back(VK_DYNAMIC_STATE_STENCIL_REFERENCE);
  if (desc.dynamic_line_width && context.supports_wide_lines())
    dynamic_states.push_back(VK_DYNAMIC_STATE_LINE_WIDTH);
  VkPipelineDynamicStateCreateInfo dynamic{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO};
  dynamic.dynamicStateCount = static_cast<uint32_t>(dynamic_states.size());
  dynamic.pDynamicStates = dynamic_states.data();

  VkGraphicsPipelineCreateInfo info{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO};
  info.stageCount = 2;
  info.pStages = stages;
  info.pVertexInputState = &vertex_input;
  info.pInputAssemblyState = &assembly;
  info.pViewportState = &viewport;
  info.pRasterizationState = &raster;
  info.pMultisampleState = &multisample;
  info.pDepthStencilState = &depth;
  info.pColorBlendState = &color;
  info.pDynamicState = &dynamic;
  info.layout = layout;
  info.renderPass = pass;
  VkPipeline pipeline = VK_NULL_HANDLE;
  const VkResult result =
      vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &info, nullptr, &pipeline);
  vkDestroyShaderModule(device, vert, nullptr);
  vkDestroyShaderModule(device, frag, nullptr);
  vk_check(result, "vkCreateGraphicsPipelines");
  return pipeline;
}

}  // namespace kinetic::viewer
