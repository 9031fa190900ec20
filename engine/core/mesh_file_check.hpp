#pragma once
// A mesh file checked before it is handed to Assimp: a regular file within the mesh size limit,
// and, for an XML mesh (COLLADA), no deeper nesting than Assimp's recursive reader survives (a
// COLLADA file of 10,000 nested <node>s crashed it; 3,000 did not).
#include <cstddef>
#include <filesystem>

namespace kinetic {

// Deepest nesting of XML elements accepted; real meshes nest a few tens deep.
constexpr std::size_t kMaxMeshXmlDepth = 1000;

// Throws Error(FileNotFound) as check_input_file does, or Error(Unsupported) naming the file and
// the line where the nesting passes kMaxMeshXmlDepth.
void check_mesh_file(const std::filesystem::path& path);

// The deepest nesting of elements in XML `text`, stopping once it passes `stop_at`; `line` gets
// the line where it was reached (1-based). Comments, CDATA, declarations and quoted attribute
// values are skipped.
std::size_t xml_nesting_depth(const char* text, std::size_t size, std::size_t stop_at,
                              std::size_t* line = nullptr);

}  // namespace kinetic
