#include "engine/geometry/collision_mesh.hpp"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "engine/core/error.hpp"
#include "engine/core/mesh_file_check.hpp"

namespace kinetic {
namespace {

// The file's modification time and size are in the key: a mesh edited on disk is read again.
using CacheKey = std::tuple<std::string, double, double, double, std::int64_t, std::uintmax_t>;

// Meshes are shared while some body holds them, and the most recently loaded stay a while after
// (up to kRetainedTriangles): a robot's checkers come and go (each planning request, each ACM
// run), and reading, hulling and covering the PR2's meshes again each time took longer than the
// planning.
constexpr std::size_t kRetainedTriangles = 400000;
// Inner spheres per mesh: enough to fill a link's core from end to end.
constexpr std::size_t kInnerSpheresPerMesh = 8;

struct MeshCache {
  std::mutex mutex;
  std::map<CacheKey, std::weak_ptr<const CollisionMesh>> entries;
  std::deque<std::shared_ptr<const CollisionMesh>> retained;  // oldest first
  std::size_t retained_triangles = 0;

  void retain(const std::shared_ptr<const CollisionMesh>& mesh) {
    retained.push_back(mesh);
    retained_triangles += mesh->triangles.size();
    while (retained_triangles > kRetainedTriangles && retained.size() > 1) {
      retained_triangles -= retained.front()->triangles.size();
      retained.pop_front();
    }
  }
};

MeshCache& cache() {
  static MeshCache instance;
  return instance;
}

// Collects every mesh of every node, with the node transforms applied (DAE files place parts with
// node transforms; STL has one identity node).
void collect(const aiScene* scene, const aiNode* node, const aiMatrix4x4& parent,
             const Vector3& scale, CollisionMesh& out) {
  const aiMatrix4x4 transform = parent * node->mTransformation;
  for (unsigned m = 0; m < node->mNumMeshes; ++m) {
    const aiMesh* mesh = scene->mMeshes[node->mMeshes[m]];
    const int base = static_cast<int>(out.vertices.size());
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
      const aiVector3D p = transform * mesh->mVertices[v];
      out.vertices.emplace_back(p.x * scale.x(), p.y * scale.y(), p.z * scale.z());
    }
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
      const aiFace& face = mesh->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines carry no volume
      out.triangles.push_back({base + static_cast<int>(face.mIndices[0]),
                               base + static_cast<int>(face.mIndices[1]),
                               base + static_cast<int>(face.mIndices[2])});
    }
  }
  for (unsigned c = 0; c < node->mNumChildren; ++c)
    collect(scene, node->mChildren[c], transform, scale, out);
}

// Vertices some triangle uses, each once (Assimp joins identical vertices only within a mesh
// and keeps the unused ones).
std::vector<Vector3> distinct_used_vertices(const CollisionMesh& mesh) {
  std::vector<Vector3> points;
  points.reserve(mesh.vertices.size());
  for (const auto& t : mesh.triangles)
    for (const int v : t) points.push_back(mesh.vertices[static_cast<std::size_t>(v)]);
  const auto less = [](const Vector3& a, const Vector3& b) {
    return std::tie(a.x(), a.y(), a.z()) < std::tie(b.x(), b.y(), b.z());
  };
  std::sort(points.begin(), points.end(), less);
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// Assimp's importers pass on faces naming vertices past their mesh's vertex list and faces of no
// vertices (binary PLYs, found by fuzzing); its post-processing then read out of bounds or failed
// an assertion (an abort): checked between the import and the steps.
// aiProcess_ValidateDataStructure would check them too, but it also refuses real robot meshes over
// harmless faults (two cameras of one name in a UR10 and an ABB mesh). Returns what is wrong, ""
// when nothing is.
std::string broken_faces(const aiScene& scene) {
  for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
    const aiMesh& mesh = *scene.mMeshes[m];
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      if (mesh.mFaces[f].mNumIndices == 0 || mesh.mFaces[f].mIndices == nullptr)
        return "face " + std::to_string(f) + " has no vertices";
      for (unsigned i = 0; i < mesh.mFaces[f].mNumIndices; ++i)
        if (mesh.mFaces[f].mIndices[i] >= mesh.mNumVertices)
          return "face " + std::to_string(f) + " names vertex " +
                 std::to_string(mesh.mFaces[f].mIndices[i]) + " of " +
                 std::to_string(mesh.mNumVertices);
    }
  }
  std::vector<const aiNode*> nodes{scene.mRootNode};  // no recursion: nesting is the file's
  while (!nodes.empty()) {
    const aiNode* node = nodes.back();
    nodes.pop_back();
    for (unsigned m = 0; m < node->mNumMeshes; ++m)
      if (node->mMeshes[m] >= scene.mNumMeshes)
        return "a node names mesh " + std::to_string(node->mMeshes[m]) + " of " +
               std::to_string(scene.mNumMeshes);
    nodes.insert(nodes.end(), node->mChildren, node->mChildren + node->mNumChildren);
  }
  return {};
}

std::shared_ptr<CollisionMesh> read_mesh(const std::string& path, const Vector3& scale) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw Error(ErrorCode::MissingMesh, "collision mesh file not found: " + path,
                "check the mesh path where it is given (the robot file or the scene) and the "
                "package search paths");
  check_mesh_file(path);  // too large, or nested too deep for Assimp
  Assimp::Importer importer;
  // Collision geometry needs positions only: keep the import cheap.
  importer.SetPropertyInteger(AI_CONFIG_PP_RVC_FLAGS,
                              aiComponent_NORMALS | aiComponent_COLORS | aiComponent_TEXCOORDS |
                                  aiComponent_MATERIALS | aiComponent_TEXTURES |
                                  aiComponent_LIGHTS | aiComponent_CAMERAS);
  // Imported first, faces checked, then post-processed (see broken_faces).
  const aiScene* scene = importer.ReadFile(path, 0);
  if (scene != nullptr && scene->mRootNode != nullptr)
    if (const std::string problem = broken_faces(*scene); !problem.empty())
      throw Error(ErrorCode::MissingMesh,
                  "collision mesh file cannot be read: " + path + " (" + problem + ")",
                  "repair the mesh or export it again");
  if (scene != nullptr && scene->mRootNode != nullptr)
    scene = importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                         aiProcess_RemoveComponent | aiProcess_SortByPType);
  if (scene == nullptr || scene->mRootNode == nullptr)
    throw Error(
        ErrorCode::MissingMesh,
        "collision mesh file cannot be read: " + path + " (" + importer.GetErrorString() + ")",
        "use an STL, DAE or OBJ file with triangles");
  auto mesh = std::make_shared<CollisionMesh>();
  mesh->path = path;
  mesh->scale = scale;
  collect(scene, scene->mRootNode, aiMatrix4x4(), scale, *mesh);
  if (mesh->triangles.empty())
    throw Error(ErrorCode::MissingMesh, "collision mesh file holds no triangles: " + path);
  // A NaN or infinite coordinate breaks every distance and contact near it (FCL aborted on one).
  for (std::size_t v = 0; v < mesh->vertices.size(); ++v)
    if (!mesh->vertices[v].allFinite())
      throw Error(ErrorCode::MissingMesh,
                  "collision mesh file has a vertex that is not a finite number (vertex " +
                      std::to_string(v) + "): " + path,
                  "repair the mesh or export it again");
  mesh->hull = convex_hull(distinct_used_vertices(*mesh));
  mesh->hull_columns = PointColumns(mesh->hull);
  mesh->inner_spheres =
      kinetic::inner_spheres(mesh->vertices, mesh->triangles, kInnerSpheresPerMesh);
  mesh->one_closed_piece =
      !mesh->inner_spheres.empty() && mesh_is_one_piece(mesh->vertices, mesh->triangles);
  return mesh;
}

}  // namespace

std::shared_ptr<MeshBvh> CollisionMesh::bvh() const {
  std::call_once(bvh_once_, [this] {
    auto bvh = std::make_shared<MeshBvh>();
    std::vector<fcl::Triangle> fcl_triangles;
    fcl_triangles.reserve(triangles.size());
    for (const auto& t : triangles) fcl_triangles.emplace_back(t[0], t[1], t[2]);
    bvh->beginModel(static_cast<int>(fcl_triangles.size()), static_cast<int>(vertices.size()));
    bvh->addSubModel(vertices, fcl_triangles);
    bvh->endModel();
    bvh->computeLocalAABB();
    bvh_ = std::move(bvh);
  });
  return bvh_;
}

bool CollisionMesh::bvh_built() const {
  // call_once publishes bvh_ to the threads that call bvh(); a test asks from the same thread.
  return bvh_ != nullptr;
}

std::shared_ptr<const CollisionMesh> load_collision_mesh(const std::string& path,
                                                         const Vector3& scale) {
  const std::string canonical = [&] {
    std::error_code ec;
    auto p = std::filesystem::weakly_canonical(path, ec);
    return ec ? path : p.string();
  }();
  std::error_code time_error, size_error;
  const auto modified = std::filesystem::last_write_time(canonical, time_error);
  const auto bytes = std::filesystem::file_size(canonical, size_error);
  const CacheKey key{canonical,
                     scale.x(),
                     scale.y(),
                     scale.z(),
                     time_error ? 0 : modified.time_since_epoch().count(),
                     size_error ? 0 : bytes};
  auto& c = cache();
  {
    std::lock_guard<std::mutex> lock(c.mutex);
    if (auto found = c.entries.find(key); found != c.entries.end())
      if (auto mesh = found->second.lock()) return mesh;
  }
  // Read outside the lock: another thread may read the same file meanwhile; the first stored wins.
  std::shared_ptr<const CollisionMesh> mesh = read_mesh(canonical, scale);
  std::lock_guard<std::mutex> lock(c.mutex);
  auto& slot = c.entries[key];
  if (auto existing = slot.lock()) return existing;
  slot = mesh;
  c.retain(mesh);
  return mesh;
}

std::size_t collision_mesh_cache_size() {
  auto& c = cache();
  std::lock_guard<std::mutex> lock(c.mutex);
  std::size_t alive = 0;
  for (const auto& [key, weak] : c.entries) alive += weak.expired() ? 0 : 1;
  return alive;
}

}  // namespace kinetic
