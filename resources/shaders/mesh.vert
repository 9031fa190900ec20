#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_color;

// Few outputs and no per-vertex matrix inverse: on a CPU rasterizer (lavapipe) vertex shading and
// triangle setup run on one thread, and every output is one more plane equation per triangle.
layout(location = 0) out vec3 view_position;
layout(location = 1) out vec3 view_normal;
layout(location = 2) out vec4 albedo;  // linear RGB (unlit: sRGB), alpha = opacity
layout(location = 3) flat out vec4 params;

void main() {
  Instance inst = instance_record.inst;
  vec4 world = inst.model * vec4(in_position, 1.0);
  view_normal = mat3(frame.view) * (inst.normal_matrix * in_normal);
  view_position = (frame.view * world).xyz;
  vec3 color = mix(inst.color.rgb, in_color.rgb * inst.color.rgb, inst.params.x);
  albedo = vec4(inst.params.w > 0.5 ? color : srgb_to_linear(color), inst.color.a);
  params = inst.params;
  gl_Position = frame.view_proj * world;
}
