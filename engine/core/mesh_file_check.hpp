#pragma once
// A mesh file checked before it is handed to Assimp: a regular file within the mesh size limit,
// for an XML mesh (COLLADA), no deeper nesting than Assimp's recursive reader survives (a
// COLLADA file of 10,000 nested <node>s crashed it; 3,000 did not), lists of indices that hold
// only digits (a letter in one hung it), primitive counts that match them (a wrong one failed
// an assertion: an abort) and arrays with a count (one without crashed it), and for a PLY file a
// header that follows the format (Assimp's PLY reader crashed and hung on broken ones).
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace kinetic {

// Deepest nesting of XML elements accepted; real meshes nest a few tens deep.
constexpr std::size_t kMaxMeshXmlDepth = 1000;

// What is wrong with the COLLADA document `text`'s lists of indices (<p>, <h>, <v>, <vcount>:
// digits and white space only), "" when nothing; `line` gets the line of the first wrong
// character. Comments and CDATA are skipped.
std::string collada_index_list_problem(const std::string& text, std::size_t* line = nullptr);

// What is wrong with a COLLADA `count`: a <triangles>, <polylist> or <polygons> must count the
// primitives its lists hold, a <float_array>, <int_array>, <bool_array>, <Name_array> or
// <IDREF_array> must have one (a whole number); "" when nothing, `line` gets the element's line.
std::string collada_count_problem(const std::string& text, std::size_t* line = nullptr);

// A PLY header longer than this many lines is refused (real ones have a few tens).
constexpr std::size_t kMaxPlyHeaderLines = 1000;

// Throws Error(FileNotFound) as check_input_file does, Error(Unsupported) naming the file and
// the line where the nesting passes kMaxMeshXmlDepth, or Error(ParseError) naming the file and
// the line of a PLY header that does not follow the format (ply_header_problem) or of a COLLADA
// index list that holds something else (collada_index_list_problem) or a count that is wrong
// or missing (collada_count_problem).
void check_mesh_file(const std::filesystem::path& path);

// What is wrong with the PLY header at the start of `text` ("ply", one format line, element and
// property lines with known types and plain names, element counts no larger than `file_size`,
// comments, "end_header"), "" when nothing; `line` gets the line it stopped at (1-based).
std::string ply_header_problem(const std::string& text, std::uintmax_t file_size,
                               std::size_t* line = nullptr);

// The deepest nesting of elements in XML `text`, stopping once it passes `stop_at`; `line` gets
// the line where it was reached (1-based). Comments, CDATA, declarations and quoted attribute
// values are skipped.
std::size_t xml_nesting_depth(const char* text, std::size_t size, std::size_t stop_at,
                              std::size_t* line = nullptr);

}  // namespace kinetic
