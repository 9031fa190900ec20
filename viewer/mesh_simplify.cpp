#include "viewer/mesh_simplify.hpp"

#include <meshoptimizer.h>

#include <cstddef>

namespace kinetic::viewer {

MeshData simplify_for_display(MeshData mesh, float max_error) {
  if (mesh.indices.size() < 3 || mesh.vertices.empty()) return mesh;
  const size_t vertex_count = mesh.vertices.size();
  const float* positions = mesh.vertices.front().position;
  std::vector<uint32_t> indices(mesh.indices.size());
  // Only the error bound stops it: the target count (one triangle) is never the limit.
  float reached_error = 0.0f;
  indices.resize(meshopt_simplify(indices.data(), mesh.indices.data(), mesh.indices.size(),
                                  positions, vertex_count, sizeof(MeshVertex), 3, max_error, 0,
                                  &reached_error));
  if (indices.empty()) return mesh;  // a mesh that would vanish stays as it was
  meshopt_optimizeVertexCache(indices.data(), indices.data(), indices.size(), vertex_count);
  std::vector<MeshVertex> vertices(vertex_count);
  vertices.resize(meshopt_optimizeVertexFetch(vertices.data(), indices.data(), indices.size(),
                                              mesh.vertices.data(), vertex_count,
                                              sizeof(MeshVertex)));
  mesh.vertices = std::move(vertices);
  mesh.indices = std::move(indices);
  return mesh;
}

}  // namespace kinetic::viewer
