#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;

layout(location = 0) flat out vec4 color;

// Pushes each vertex out along its screen-space normal by a fixed number of pixels, so the outline
// keeps its width at any distance; the stencil keeps it outside the object.
layout(push_constant) uniform Outline { vec4 color; float width_px; } outline;

void main() {
  Instance inst = instance_record.inst;
  vec4 clip = frame.view_proj * inst.model * vec4(in_position, 1.0);
  vec3 world_normal = normalize(inst.normal_matrix * in_normal);
  vec4 clip_normal = frame.view_proj * vec4(world_normal, 0.0);
  vec2 dir = clip_normal.xy;
  float len = length(dir * frame.viewport.xy);
  if (len > 1e-6) clip.xy += dir / len * outline.width_px * 2.0 * clip.w;
  gl_Position = clip;
  color = outline.color;
}
