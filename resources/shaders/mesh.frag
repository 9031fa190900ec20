#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 view_position;
layout(location = 1) in vec3 view_normal;
layout(location = 2) in vec4 albedo_in;  // linear RGB (unlit: sRGB), alpha = opacity
layout(location = 3) flat in vec4 params;

layout(location = 0) out vec4 out_color;

// Key + fill lights fixed to the camera, hemispheric ambient (sky above, ground below) and a soft
// Blinn-Phong highlight; faces seen from behind are lit as if facing the viewer (meshes are not
// always closed or consistently wound).
void main() {
  if (params.w > 0.5) {
    out_color = albedo_in;
    return;
  }
  vec3 albedo = albedo_in.rgb;
  vec3 n = normalize(view_normal);
  vec3 to_eye = frame.camera_position.w > 0.5 ? normalize(-view_position) : vec3(0.0, 0.0, 1.0);
  if (dot(n, to_eye) < 0.0) n = -n;
  vec3 key = normalize(frame.key_direction.xyz);
  vec3 fill = normalize(frame.fill_direction.xyz);
  float key_diffuse = max(dot(n, key), 0.0);
  float fill_diffuse = max(dot(n, fill), 0.0);
  float specular = pow(max(dot(n, normalize(key + to_eye)), 0.0), 48.0) * 0.25;
  // World z of the normal: the view matrix is a rotation, so it is the view normal against world up
  // (the view matrix's z column).
  float up = dot(normalize(view_normal), frame.view[2].xyz) * (gl_FrontFacing ? 1.0 : -1.0);
  vec3 ambient = mix(frame.ground_ambient.rgb, frame.sky_ambient.rgb, up * 0.5 + 0.5);
  vec3 lit = albedo * (ambient + frame.key_color.rgb * key_diffuse + frame.fill_color.rgb * fill_diffuse) +
             frame.key_color.rgb * specular;
  // Highlight (colliding links): blend towards a warm red that stays visible in shadow.
  lit = mix(lit, vec3(0.9, 0.08, 0.05) * (0.55 + 0.45 * key_diffuse), params.y);
  float alpha = albedo_in.a;
  // Ghosts: a brighter rim at grazing angles keeps their silhouette readable.
  if (params.z > 0.0) {
    float rim = 1.0 - abs(dot(n, to_eye));
    lit += albedo * rim * rim * params.z;
    alpha = clamp(alpha + rim * rim * 0.35, 0.0, 1.0);
  }
  out_color = vec4(linear_to_srgb(lit), alpha);
}
