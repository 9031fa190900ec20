#pragma once
// CPU-side triangle meshes: what the loader and the primitive tessellators produce and what the
// mesh library uploads (and keeps for picking).
#include <array>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "viewer/math.hpp"

namespace kinetic::viewer {

struct MeshVertex {
  float position[3];
  float normal[3];
  // sRGB vertex colour x material diffuse, white when the file has neither; alpha 255 where the
  // part has a colour of its own (vertex colours, or a material other than plain light grey), 0
  // where it has none (a URDF colour paints those parts).
  uint8_t color[4];
};

struct MeshData {
  std::vector<MeshVertex> vertices;
  std::vector<uint32_t> indices;  // triangle list
  bool has_colors = false;        // vertex colours or materials worth showing

  size_t triangle_count() const { return indices.size() / 3; }
  Vec3 bounds_min() const;
  Vec3 bounds_max() const;
};

// Tessellated primitives, centred at the origin, z along the axis (URDF conventions).
MeshData make_box(const Vec3& size);
MeshData make_sphere(float radius, int segments = 32, int rings = 16);
MeshData make_cylinder(float radius, float length, int segments = 40);
MeshData make_capsule(float radius, float length, int segments = 32, int rings = 8);
MeshData make_cone(float radius, float length, int segments = 32);  // base at z=0, tip at z=length
MeshData make_torus(float major_radius, float minor_radius, int segments = 64,
                    int sides = 12);            // in the xy plane
MeshData make_quad(float width, float height);  // in the xy plane, two-sided by the shader

// Loads DAE, STL, OBJ, glTF, ... with Assimp: node transforms baked in, smooth normals generated
// where missing, material diffuse colours multiplied into vertex colours. Throws viewer::Error with
// the file name and Assimp's reason.
MeshData load_mesh_file(const std::filesystem::path& path);

}  // namespace kinetic::viewer
