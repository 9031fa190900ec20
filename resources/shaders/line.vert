#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec4 in_color;
layout(location = 0) out vec4 color;

void main() {
  gl_Position = frame.view_proj * vec4(in_position, 1.0);
  color = in_color;
}
