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
  // params.x: 0 the instance's colour; 1 the mesh's own colours tinted by it; 2 the mesh's own
  // colours as they are, the instance's colour where the mesh has none (in_color.a = 0 there).
  float own = min(inst.params.x, 1.0) * in_color.a;
  vec3 tint = inst.params.x > 1.5 ? vec3(1.0) : inst.color.rgb;
  vec3 color = mix(inst.color.rgb, in_color.rgb * tint, own);
  albedo = vec4(inst.params.w > 0.5 ? color : srgb_to_linear(color), inst.color.a);
  params = inst.params;
  gl_Position = frame.view_proj * world;
}
