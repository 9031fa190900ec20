// Readers of user files: only regular files, within their size limits, refused at once with the
// file's name and what it is (a FIFO blocked the job, scene, URDF, SRDF and kinetic.toml readers;
// /dev/zero was read until memory ran out), and meshes too deep for Assimp refused before it
// crashes on them.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <string>

#include "engine/core/atomic_file.hpp"
#include "engine/core/input_file.hpp"
#include "engine/core/mesh_file_check.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/scene/scene_file.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "model_test_helpers.hpp"
#include "support/test_paths.hpp"

namespace kinetic::test {
namespace {

using Clock = std::chrono::steady_clock;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

fs::path make_fifo(const TempDir& dir, const std::string& name) {
  const fs::path path = dir.path() / name;
  EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
  return path;
}

const char* kOneLinkUrdf = R"(<robot name="one"><link name="base"/></robot>)";

TEST(InputFile, AFifoIsRefusedAsNotARegularFileByEveryReader) {
  TempDir dir;
  const fs::path fifo = make_fifo(dir, "pipe");
  for (const std::string& message : {
           refused_quickly([&] { read_input_file(fifo, kJobInput); }),
           refused_quickly([&] { load_scene(fifo.string()); }),
           refused_quickly([&] { load_robot_file(fifo.string()); }),
           refused_quickly([&] { read_text_file(fifo); }),
       }) {
    EXPECT_TRUE(contains(message, "FIFO (named pipe), not a regular file")) << message;
    EXPECT_TRUE(contains(message, fifo.string())) << message;
    EXPECT_FALSE(contains(message, "does not exist")) << message;
  }
}

TEST(InputFile, SrdfAndConfigFifosAreRefused) {
  TempDir dir;
  const fs::path urdf = dir.path() / "one.urdf";
  std::ofstream(urdf) << kOneLinkUrdf;
  const fs::path fifo = make_fifo(dir, "pipe");
  const std::string srdf = refused_quickly([&] { load_robot_file(urdf.string(), fifo.string()); });
  EXPECT_TRUE(contains(srdf, "SRDF file '" + fifo.string() + "' is a FIFO")) << srdf;
  const std::string toml =
      refused_quickly([&] { load_robot_file(urdf.string(), "", fifo.string()); });
  EXPECT_TRUE(contains(toml, "kinetic.toml file '" + fifo.string() + "' is a FIFO")) << toml;
}

TEST(InputFile, ADeviceIsRefusedNotReadForever) {
  const std::string message = refused_quickly([] { load_scene("/dev/zero"); });
  EXPECT_TRUE(contains(message, "scene file '/dev/zero' is a character device, not a regular file"))
      << message;
}

TEST(InputFile, AFileOverItsKindsLimitIsRefusedNamingTheLimit) {
  TempDir dir;
  const fs::path big = dir.path() / "big.json";
  std::ofstream(big) << std::string(2048, ' ');
  const std::string message = refused_quickly([&] {
    read_input_file(big, InputKind{"job file", 1024});
  });
  EXPECT_TRUE(contains(
      message, "job file '" + big.string() + "' is 0.0 MB; a job file may be at most 0.0 MB"))
      << message;
  // A sparse file far over the scene limit is refused before anything is read.
  const fs::path huge = dir.path() / "huge.json";
  std::ofstream(huge).close();
  fs::resize_file(huge, 100 * kMiB);
  const std::string scene = refused_quickly([&] { load_scene(huge.string()); });
  EXPECT_TRUE(contains(scene, "is 100.0 MB; a scene file may be at most 64.0 MB")) << scene;
  EXPECT_EQ(read_input_file(big, kJobInput).size(), 2048u);
}

TEST(InputFile, AMissingFileIsSaidToBeMissing) {
  const std::string message =
      refused_quickly([] { read_input_file("/nonexistent/job.json", kJobInput); });
  EXPECT_TRUE(contains(message, "job file '/nonexistent/job.json' does not exist")) << message;
}

TEST(InputFile, ATrajectoryFifoIsRefused) {
  TempDir dir;
  const fs::path fifo = make_fifo(dir, "plan.json");
  const std::string message = refused_quickly([&] { load_trajectory(fifo); });
  EXPECT_TRUE(contains(message, "trajectory file '" + fifo.string() + "' is a FIFO")) << message;
}

// COLLADA with `depth` nested <node>s, holding one triangle.
std::string nested_collada(int depth) {
  std::string text = R"(<?xml version="1.0"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<library_geometries><geometry id="g"><mesh><source id="p"><float_array id="a" count="9">0 0 0 1 0 0 0 1 0</float_array>
<technique_common><accessor source="#a" count="3" stride="3"><param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/></accessor></technique_common></source>
<vertices id="v"><input semantic="POSITION" source="#p"/></vertices><triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles></mesh></geometry></library_geometries>
<library_visual_scenes><visual_scene id="s">)";
  for (int i = 0; i < depth; ++i) text += "<node id=\"n" + std::to_string(i) + "\">\n";
  text += R"(<instance_geometry url="#g"/>)";
  for (int i = 0; i < depth; ++i) text += "</node>";
  text +=
      R"(</visual_scene></library_visual_scenes><scene><instance_visual_scene url="#s"/></scene></COLLADA>)";
  return text;
}

std::string urdf_with_mesh(const std::string& mesh) {
  return R"(<robot name="m"><link name="base"><collision><geometry><mesh filename=")" + mesh +
         R"("/></geometry></collision></link></robot>)";
}

TEST(MeshFileCheck, ACollada10000NodesDeepIsRefusedBeforeAssimpCrashes) {
  TempDir dir;
  const fs::path deep = dir.path() / "deep.dae";
  std::ofstream(deep) << nested_collada(10000);
  const std::string message = refused_quickly(
      [&] { load_robot_string(urdf_with_mesh("deep.dae"), "", "", dir.path().string()); });
  EXPECT_TRUE(contains(
      message, "mesh file '" + deep.string() + "' nests its XML elements more than 1000 deep"))
      << message;
  EXPECT_TRUE(contains(message, "link 'base'")) << message;
  // A shallow file passes the check and loads.
  const fs::path shallow = dir.path() / "shallow.dae";
  std::ofstream(shallow) << nested_collada(20);
  EXPECT_NO_THROW(check_mesh_file(shallow));
  EXPECT_NO_THROW(load_robot_string(urdf_with_mesh("shallow.dae"), "", "", dir.path().string()));
}

TEST(MeshFileCheck, NestingSkipsCommentsQuotesAndSelfClosedElements) {
  const std::string text =
      R"(<?xml?><!-- <a><b><c> --><r x="<q>"><e/><e /><f><![CDATA[<z><z>]]></f></r>)";
  EXPECT_EQ(xml_nesting_depth(text.data(), text.size(), 100), 2u);
}

// Assimp's PLY reader crashed on a binary PLY whose format line was overwritten with bytes, and
// hung on an ASCII one whose list property had no known type and whose end_header was broken
// (both found by fuzzing, tests/fuzz): such headers are refused, naming the file and the line.
TEST(MeshFileCheck, AMalformedPlyHeaderIsRefusedBeforeAssimpReadsIt) {
  TempDir dir;
  const std::string head =
      "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\n";
  const std::string body = "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  const fs::path good = dir.path() / "good.ply";
  std::ofstream(good) << head << "property list uchar int vertex_indices\nend_header\n" << body;
  EXPECT_NO_THROW(check_mesh_file(good));
  const fs::path hang = dir.path() / "hang.ply";
  std::ofstream(hang) << head
                      << "property list 1e308uchar int vertex_indices\ne\xb3"
                         "d_header\n"
                      << body;
  std::string message = refused_quickly([&] { check_mesh_file(hang); });
  EXPECT_TRUE(contains(message, "mesh file '" + hang.string() +
                                    "': PLY header line 8: expected 'property TYPE NAME'"))
      << message;
  const fs::path crash = dir.path() / "crash.ply";
  std::ofstream(crash, std::ios::binary)
      << "ply\nformat binary_little_\xff\xff\xff\xff endian 1.0\n"
      << "element vertex 0\nend_header\n";
  message = refused_quickly([&] { check_mesh_file(crash); });
  EXPECT_TRUE(contains(message, "PLY header line 2: a character that is not printable ASCII"))
      << message;
  // Assimp reads a file named .ply, or starting "ply", as PLY: both are checked.
  const fs::path magic = dir.path() / "magic.stl";
  std::ofstream(magic, std::ios::binary) << "ply\xa4\x8f\nformat ascii 1.0\nend_header\n";
  message = refused_quickly([&] { check_mesh_file(magic); });
  EXPECT_TRUE(contains(message, "PLY header line 1: a character that is not printable ASCII"))
      << message;
  const fs::path named = dir.path() / "named.PLY";
  std::ofstream(named) << "solid x\nendsolid x\n";
  message = refused_quickly([&] { check_mesh_file(named); });
  EXPECT_TRUE(contains(message, "PLY header line 1: the first line is not 'ply'")) << message;
  // Each rule of the header, as ply_header_problem words it.
  const auto problem = [](const std::string& text, std::size_t* line = nullptr) {
    return ply_header_problem(text, 1000, line);
  };
  std::size_t line = 0;
  EXPECT_EQ(problem("ply\nformat binary_big_endian 1.0\ncomment x\nend_header\n\x01\x02", &line),
            "");
  EXPECT_EQ(problem("ply\nformat ascii 2.0\nend_header\n", &line),
            "expected one 'format ascii|binary_little_endian|binary_big_endian 1.0'");
  EXPECT_EQ(line, 2u);
  EXPECT_EQ(problem("ply\nformat ascii 1.0\nelement vertex -1\nend_header\n"),
            "expected 'element NAME COUNT'");
  // A 300-byte file with this line asked Assimp for 100 GB (found by fuzzing).
  EXPECT_EQ(problem("ply\nformat ascii 1.0\nelement 9223372036854775807face 4\nend_header\n"),
            "expected 'element NAME COUNT'");
  EXPECT_EQ(problem("ply\nformat ascii 1.0\nelement vertex 1001\nend_header\n"),
            "element 'vertex' counts 1001, more than the file's 1000 bytes hold");
  EXPECT_EQ(problem("ply\nformat ascii 1.0\nproperty float x\nend_header\n"),
            "a property before any element");
  EXPECT_EQ(problem("ply\nformat ascii 1.0\nvertex 3\nend_header\n"),
            "'vertex' is not a PLY header keyword");
  EXPECT_EQ(problem("ply\nformat ascii 1.0\nelement vertex 3\n"),
            "no 'end_header' line in the first 1000 lines");
}

// A letter in a COLLADA <p> (a list of vertex indices) made Assimp loop for ever, allocating
// gigabytes (found by fuzzing, tests/fuzz): refused naming the file and the line.
TEST(MeshFileCheck, ALetterInAColladaIndexListIsRefusedBeforeAssimpHangs) {
  TempDir dir;
  const fs::path letter = dir.path() / "letter.dae";
  std::string text = nested_collada(2);
  const std::size_t p = text.find("<p>0 1 2</p>");
  ASSERT_NE(p, std::string::npos);
  std::ofstream(letter) << text.substr(0, p) << "<p>0 1 x 2</p>" << text.substr(p + 12);
  const std::string message = refused_quickly([&] { check_mesh_file(letter); });
  EXPECT_TRUE(contains(message, "mesh file '" + letter.string() +
                                    "' line 5: <p> holds a character that is not a digit (x)"))
      << message;
  // Comments, CDATA and other elements are not index lists; digits and white space pass.
  EXPECT_EQ(collada_index_list_problem(
                "<!-- <p>x</p> --><a><![CDATA[<p>y]]></a><param>z</param><p>\n1 2\t3 </p><p/>"),
            "");
  std::size_t line = 0;
  EXPECT_EQ(collada_index_list_problem("<r>\n<vcount>3 -3</vcount>", &line),
            "<vcount> holds a character that is not a digit (-); it lists vertex indices");
  EXPECT_EQ(line, 2u);
}

// A COLLADA <triangles count="2"> whose <p> was gone failed an assertion in Assimp's reader (an
// abort; found by fuzzing, tests/fuzz): a count must be what the lists hold.
TEST(MeshFileCheck, AColladaPrimitiveCountUnlikeItsListsIsRefused) {
  TempDir dir;
  const std::string text = nested_collada(2);
  const std::size_t at = text.find("<triangles count=\"1\">");
  ASSERT_NE(at, std::string::npos);
  const fs::path wrong = dir.path() / "count.dae";
  std::ofstream(wrong) << text.substr(0, at) << "<triangles count=\"2\">" << text.substr(at + 21);
  const std::string message = refused_quickly([&] { check_mesh_file(wrong); });
  EXPECT_TRUE(contains(message, "mesh file '" + wrong.string() +
                                    "' line 5: <triangles count=\"2\"> lists 1 primitives"))
      << message;
  EXPECT_EQ(collada_count_problem(text), "");
  // polylist: its vertex counts and indices (two inputs: two indices a vertex); polygons: one <p>
  // each.
  EXPECT_EQ(
      collada_count_problem(
          R"(<m><polylist count="2"><input offset="0"/><input offset="1"/><vcount>3 4</vcount>)"
          R"(<p>0 0 1 1 2 2 0 0 2 2 3 3 1 1</p></polylist><polygons count="2"><p>0 1 2</p></polygons></m>)"),
      "<polygons count=\"2\"> lists 1 primitives");
  EXPECT_EQ(collada_count_problem(
                R"(<m><polylist count="1"><vcount>3</vcount><p>0 1</p></polylist></m>)"),
            "<polylist count=\"1\"> lists no whole number of primitives");
  // A <float_array> whose count attribute was misspelt crashed Assimp (found by fuzzing).
  std::size_t line = 0;
  EXPECT_EQ(collada_count_problem("<m>\n<float_array id=\"a\" xcount=\"3\">0 1 2</float_array></m>",
                                  &line),
            "<float_array> has no count of its values (a whole number)");
  EXPECT_EQ(line, 2u);
  EXPECT_EQ(collada_count_problem(R"(<m><int_array count="x">1</int_array></m>)"),
            "<int_array> has no count of its values (a whole number)");
  // Found by the CI fuzz run: stray bytes in a <visual_scene>, a <triangles count="2"> with its <p>
  // mangled. Assimp's lenient parser read on and failed its assertion on the count; the file is not
  // well-formed XML and is refused as such, naming the line.
  const fs::path stray = fs::path(test::test_source_dir()) /
                         "fuzz/corpus/mesh/regression_dae_stray_bytes_not_well_formed.dae";
  std::ifstream in(stray, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  line = 0;
  EXPECT_TRUE(contains(collada_count_problem(bytes, &line), "not well-formed XML"))
      << collada_count_problem(bytes);
  EXPECT_GT(line, 0u);
  const std::string said = refused_quickly([&] { check_mesh_file(stray); });
  EXPECT_TRUE(contains(said, "not well-formed XML")) << said;
}

TEST(MeshFileCheck, AMeshFifoIsRefusedAsNotARegularFile) {
  TempDir dir;
  const fs::path fifo = make_fifo(dir, "pipe.stl");
  const std::string message = refused_quickly([&] { check_mesh_file(fifo); });
  EXPECT_TRUE(contains(
      message, "mesh file '" + fifo.string() + "' is a FIFO (named pipe), not a regular file"))
      << message;
  // A robot naming it loads without blocking (the mesh is not found as a file: a warning).
  const auto start = Clock::now();
  const auto model = load_robot_string(urdf_with_mesh("pipe.stl"), "", "", dir.path().string());
  EXPECT_LT(Clock::now() - start, std::chrono::seconds(5));
  ASSERT_FALSE(model->load_warnings().empty());
}

}  // namespace
}  // namespace kinetic::test
