#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// A square on the ground plane (z = 0) around the grid centre; the fragment shader draws the lines.
layout(location = 0) out vec2 ground;

void main() {
  const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1), vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
  vec2 corner = corners[gl_VertexIndex] * frame.grid.w;
  ground = floor(frame.grid_center.xy / frame.grid.y) * frame.grid.y + corner;
  gl_Position = frame.view_proj * vec4(ground, 0.0, 1.0);
}
