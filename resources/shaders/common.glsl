// Shared by every shader: the per-frame uniforms and the per-instance records.
layout(set = 0, binding = 0) uniform Frame {
  mat4 view;
  mat4 proj;
  mat4 view_proj;
  vec4 camera_position;  // world; w = 1 for perspective, 0 for orthographic
  vec4 key_direction;    // view space, towards the light
  vec4 fill_direction;   // view space, towards the light
  vec4 key_color;
  vec4 fill_color;
  vec4 sky_ambient;
  vec4 ground_ambient;
  vec4 grid;             // x: minor cell (m), y: major cell (m), z: fade start (m), w: fade end (m)
  vec4 grid_center;      // xyz: where the fade is measured from
  vec4 viewport;         // width, height, 1/width, 1/height
} frame;

struct Instance {
  mat4 model;
  mat3 normal_matrix;  // inverse transpose of mat3(model), computed once per instance on the CPU
  vec4 color;   // sRGB, alpha = opacity
  vec4 params;  // x: vertex colour weight, y: highlight, z: ghost rim, w: unlit
};

// One instance per draw, bound with a dynamic offset: every vertex of a draw reads the same record,
// which a CPU rasterizer (lavapipe) loads once per batch instead of gathering it per vertex.
layout(std140, set = 0, binding = 1) uniform InstanceRecord { Instance inst; } instance_record;

vec3 srgb_to_linear(vec3 c) { return pow(c, vec3(2.2)); }
vec3 linear_to_srgb(vec3 c) { return pow(clamp(c, 0.0, 1.0), vec3(1.0 / 2.2)); }
