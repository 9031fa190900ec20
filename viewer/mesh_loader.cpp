#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "viewer/error.hpp"
#include "viewer/mesh_data.hpp"
#include "viewer/mesh_simplify.hpp"
#include "viewer/mesh_welding.hpp"

namespace kinetic::viewer {

namespace {

uint8_t to_byte(float v) {
  return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
}

// The file's own diffuse colour; `found` is false where the file gave none (no material, or the
// default material Assimp adds to parts without one).
aiColor4D material_diffuse(const aiMaterial* material, bool& found) {
  aiColor4D diffuse(1, 1, 1, 1);
  found = material && material->GetName() != aiString(AI_DEFAULT_MATERIAL_NAME) &&
          material->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse) == AI_SUCCESS;
  if (!found) diffuse = aiColor4D(1, 1, 1, 1);
  return diffuse;
}

// Assimp's importers pass on faces naming a vertex past their mesh's list, or none, and its
// post-processing then reads out of bounds or fails an assertion (binary PLYs found by fuzzing the
// engine's collision mesh reader, which checks the same). "" when every face is whole.
std::string broken_face(const aiScene& scene) {
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[m];
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices == 0 || face.mIndices == nullptr)
        return "face " + std::to_string(f) + " has no vertices";
      for (unsigned i = 0; i < face.mNumIndices; ++i)
        if (face.mIndices[i] >= mesh.mNumVertices)
          return "face " + std::to_string(f) + " names vertex " + std::to_string(face.mIndices[i]) +
                 " of " + std::to_string(mesh.mNumVertices);
    }
  }
  return {};
}

}  // namespace

MeshData load_mesh_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw Error("mesh file " + path.string() + " does not exist or is not a file");
  Assimp::Importer importer;
  // Assimp turns Collada's Z_UP files to Y-up; robot meshes live in their link frames as written.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  // Node transforms (and Collada's up-axis/unit) are baked into vertices: one mesh per file.
  // No aiProcess_JoinIdenticalVertices: on CAD exports it joins almost nothing (every corner has
  // its face's normal) and took 3/4 of the Panda's load time; weld_triangle_soup does the sharing.
  // Imported first, faces checked, then post-processed (see broken_face).
  const aiScene* scene = importer.ReadFile(path.string(), 0);
  if (scene && scene->mRootNode)
    if (const std::string problem = broken_face(*scene); !problem.empty())
      throw Error("could not read mesh " + path.string() + ": " + problem);
  if (scene && scene->mRootNode)
    scene = importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_PreTransformVertices |
                                         aiProcess_SortByPType);
  if (!scene || !scene->mRootNode || (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE))
    throw Error("could not read mesh " + path.string() + ": " + importer.GetErrorString());

  std::vector<MeshVertex> corners;  // three per triangle
  bool has_colors = false;
  for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
    const aiMesh* part = scene->mMeshes[m];
    if (!(part->mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;
    bool has_material = false;
    const aiColor4D diffuse = material_diffuse(part->mMaterialIndex < scene->mNumMaterials
                                                   ? scene->mMaterials[part->mMaterialIndex]
                                                   : nullptr,
                                               has_material);
    const bool has_vertex_colors = part->HasVertexColors(0);
    const bool own_color =
        has_vertex_colors ||
        (has_material && !(diffuse.r == diffuse.g && diffuse.g == diffuse.b && diffuse.r > 0.6f));
    has_colors = has_colors || own_color;
    corners.reserve(corners.size() + size_t{part->mNumFaces} * 3);
    for (unsigned f = 0; f < part->mNumFaces; ++f) {
      const aiFace& face = part->mFaces[f];
      if (face.mNumIndices != 3) continue;
      for (unsigned k = 0; k < 3; ++k) {
        const unsigned v = face.mIndices[k];
        MeshVertex vertex{};
        const aiVector3D p = part->mVertices[v];
        const aiVector3D n =
            part->HasNormals() ? part->mNormals[v] : aiVector3D(0, 0, 0);  // 0: the face's
        aiColor4D c = diffuse;
        if (has_vertex_colors) {
          const aiColor4D vc = part->mColors[0][v];
          c = aiColor4D(c.r * vc.r, c.g * vc.g, c.b * vc.b, c.a * vc.a);
        }
        vertex.position[0] = p.x, vertex.position[1] = p.y, vertex.position[2] = p.z;
        vertex.normal[0] = n.x, vertex.normal[1] = n.y, vertex.normal[2] = n.z;
        vertex.color[0] = to_byte(c.r), vertex.color[1] = to_byte(c.g),
        vertex.color[2] = to_byte(c.b);
        vertex.color[3] = own_color ? 255 : 0;
        corners.push_back(vertex);
      }
    }
  }
  MeshData mesh = simplify_for_display(weld_triangle_soup(corners));
  if (mesh.indices.empty()) throw Error("mesh " + path.string() + " contains no triangles");
  mesh.has_colors = has_colors;
  return mesh;
}

}  // namespace kinetic::viewer
