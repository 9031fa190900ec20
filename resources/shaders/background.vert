#version 450
// A full-screen triangle for the background gradient.
layout(location = 0) out float v;
void main() {
  vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  v = p.y * 0.5;
  gl_Position = vec4(p * 2.0 - 1.0, 1.0, 1.0);
}
