#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_color;

layout(location = 0) out vec3 view_position;
layout(location = 1) out vec3 view_normal;
layout(location = 2) out vec4 base_color;
layout(location = 3) flat out vec4 params;
layout(location = 4) out vec3 world_normal;

void main() {
  Instance inst = instances[gl_InstanceIndex];
  vec4 world = inst.model * vec4(in_position, 1.0);
  mat3 normal_matrix = transpose(inverse(mat3(inst.model)));
  world_normal = normalize(normal_matrix * in_normal);
  view_normal = mat3(frame.view) * world_normal;
  view_position = (frame.view * world).xyz;
  base_color = vec4(mix(inst.color.rgb, in_color.rgb * inst.color.rgb, inst.params.x), inst.color.a);
  params = inst.params;
  gl_Position = frame.view_proj * world;
}
