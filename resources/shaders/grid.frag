#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec2 ground;
layout(location = 0) out vec4 out_color;

// Anti-aliased lines: distance to the nearest line in pixels (via screen-space derivatives).
float line_coverage(vec2 coord, float width_px) {
  vec2 derivative = fwidth(coord);
  vec2 grid = abs(fract(coord - 0.5) - 0.5) / max(derivative, vec2(1e-6));
  float d = min(grid.x, grid.y);
  return 1.0 - smoothstep(width_px * 0.5 - 0.5, width_px * 0.5 + 0.5, d);
}

void main() {
  float minor = line_coverage(ground / frame.grid.x, 1.0);
  float major = line_coverage(ground / frame.grid.y, 1.5);
  // Fine lines fade out where they would alias (cells smaller than a few pixels).
  float cell_px = frame.grid.x / max(length(fwidth(ground)), 1e-6);
  minor *= smoothstep(3.0, 8.0, cell_px);
  float distance_to_center = length(ground - frame.grid_center.xy);
  float fade = 1.0 - smoothstep(frame.grid.z, frame.grid.w, distance_to_center);
  float alpha = max(minor * 0.35, major * 0.6) * fade;
  vec3 color = vec3(0.42, 0.45, 0.50);
  if (alpha <= 0.002) discard;
  out_color = vec4(color, alpha);
}
