#version 450
layout(location = 0) in float v;
layout(location = 0) out vec4 out_color;
layout(push_constant) uniform Background { vec4 top; vec4 bottom; } background;
void main() { out_color = mix(background.top, background.bottom, clamp(v, 0.0, 1.0)); }
