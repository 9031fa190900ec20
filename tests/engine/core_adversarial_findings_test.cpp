// The findings of the adversarial table (tests/adversarial/run_table.py, issue 41) as regression
// tests, each with the smallest input that showed it: a COLLADA node that instances itself or a
// loop of two (Assimp recursed until the stack ran out), an instancing chain that expands past a
// million nodes, an OBJ whose material library is a FIFO (Assimp blocked on it), an array that
// counts far more values than it holds (Assimp allocated for them), an element with 100,000
// attributes (tinyxml2's duplicate search took minutes), a polygon of slivers (the sphere model
// split them until memory ran out), a MoveIt request that is a FIFO or /dev/zero, and a C1
// control character (U+009B, a one-byte terminal escape) in a name, and a 10 MB name repeated
// whole in a warning.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "engine/core/error.hpp"
#include "engine/core/mesh_file_check.hpp"
#include "engine/core/printable_text.hpp"
#include "engine/core/xml_limits.hpp"
#include "engine/geometry/sphere_tree.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/planning/motion_plan_request.hpp"
#include "model_test_helpers.hpp"

using namespace kinetic;
namespace fs = std::filesystem;
using kinetic::test::refused_quickly;
using kinetic::test::TempDir;

namespace {

std::string collada(const std::string& nodes) {
  return R"(<?xml version="1.0"?><COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">)"
         "<library_visual_scenes><visual_scene id=\"s\">" +
         nodes +
         "</visual_scene></library_visual_scenes><scene><instance_visual_scene "
         "url=\"#s\"/></scene></COLLADA>";
}

fs::path write(const fs::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(AdversarialFindings, AColladaNodeThatInstancesItselfIsRefusedBeforeAssimp) {
  TempDir dir;
  const fs::path self =
      write(dir.path() / "self.dae", collada(R"(<node id="a"><instance_node url="#a"/></node>)"));
  const std::string message = refused_quickly([&] { check_mesh_file(self); });
  EXPECT_TRUE(has(message, "self.dae") && has(message, "node 'a' instances itself")) << message;
  const fs::path loop =
      write(dir.path() / "loop.dae", collada(R"(<node id="a"><instance_node url="#b"/></node>
<node id="b"><node id="c"><instance_node url="#a"/></node></node>)"));
  EXPECT_TRUE(has(refused_quickly([&] { check_mesh_file(loop); }), "instances itself"));
  // Instancing without a loop is fine.
  const fs::path shared = write(
      dir.path() / "shared.dae",
      collada(
          R"(<node id="a"/><node id="b"><instance_node url="#a"/><instance_node url="#a"/></node>)"));
  EXPECT_NO_THROW(check_mesh_file(shared));
}

TEST(AdversarialFindings, AColladaChainThatExpandsPastAMillionNodesIsRefused) {
  TempDir dir;
  std::string nodes = R"(<node id="n0"/>)";
  for (int i = 1; i <= 25; ++i)  // each instances the one before twice: 2^25 nodes
    nodes += "<node id=\"n" + std::to_string(i) + "\"><instance_node url=\"#n" +
             std::to_string(i - 1) + "\"/><instance_node url=\"#n" + std::to_string(i - 1) +
             "\"/></node>";
  const fs::path path = write(dir.path() / "chain.dae", collada(nodes));
  EXPECT_TRUE(has(refused_quickly([&] { check_mesh_file(path); }), "more than a million nodes"));
}

TEST(AdversarialFindings, AnObjWhoseMaterialLibraryIsAFifoIsRefused) {
  TempDir dir;
  const fs::path obj =
      write(dir.path() / "part.obj", "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  ASSERT_EQ(::mkfifo((dir.path() / "m.mtl").c_str(), 0600), 0);
  const std::string message = refused_quickly([&] { check_mesh_file(obj); });
  EXPECT_TRUE(has(message, "part.obj' line 1: material library") && has(message, "m.mtl"))
      << message;
  fs::remove(dir.path() / "m.mtl");
  write(dir.path() / "m.mtl", "newmtl red\nKd 1 0 0\n");
  EXPECT_NO_THROW(check_mesh_file(obj));
}

TEST(AdversarialFindings, AColladaArrayCountingFarMoreValuesThanItHoldsIsRefused) {
  std::size_t line = 0;
  EXPECT_TRUE(
      has(collada_count_problem(
              "<r>\n<float_array id=\"f\" count=\"2000000000\">0 1 2</float_array></r>", &line),
          "holds far fewer values than it counts"));
  EXPECT_EQ(line, 2u);
  EXPECT_EQ(collada_count_problem(R"(<r><float_array id="f" count="3">0 1 2</float_array></r>)"),
            "");
}

TEST(AdversarialFindings, AnElementWithTooManyAttributesIsRefusedQuickly) {
  std::string robot = "<robot name=\"r\"";
  for (int i = 0; i < 100000; ++i) robot += " a" + std::to_string(i) + "=\"1\"";
  robot += "><link name=\"base\"/></robot>";
  const std::string message = refused_quickly([&] { load_robot_string(robot); });
  EXPECT_TRUE(has(message, "more than 1000 attributes")) << message;
  EXPECT_NO_THROW(
      check_xml_attribute_counts(R"(<a x="=" y='=='><!-- a=1 b=2 --><b c="1"/></a>)", "t"));
}

TEST(AdversarialFindings, APolygonOfSliversKeepsTheSphereModelWithinMemory) {
  // OBJ's "v i 0 (i % 7)" for i < 1000 and one face through all of them, as a fan of triangles:
  // many are degenerate, and halving the longest edge of one never shortened it.
  auto mesh = std::make_shared<CollisionMesh>();
  for (int i = 0; i < 1000; ++i) mesh->vertices.emplace_back(i, 0.0, i % 7);
  for (int i = 1; i + 1 < 1000; ++i) mesh->triangles.push_back({0, i, i + 1});
  PlacedShape placed;
  placed.shape = Shape::mesh("slivers.obj");
  placed.mesh = mesh;
  // The bound is on the triangles split, which is the work and the memory; no wall-clock bound
  // (25.9 s on a slowed CI machine against 20 allowed; CTest's timeout catches a hang).
  const SphereTree tree = SphereTree::build({placed}, SphereResolution::Default);
  EXPECT_FALSE(tree.empty());
  EXPECT_LT(tree.triangles().size(), 1000000u);
}

TEST(AdversarialFindings, AMotionPlanRequestThatIsNotARegularFileIsRefused) {
  TempDir dir;
  const fs::path fifo = dir.path() / "request.yaml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(
      has(refused_quickly([&] { load_motion_plan_request(fifo.string()); }), "request.yaml"));
  EXPECT_TRUE(has(refused_quickly([&] { load_motion_plan_request("/dev/zero"); }), "/dev/zero"));
}

TEST(AdversarialFindings, AC1ControlCharacterIsEscapedAndCountsAsOne) {
  const std::string csi =
      "a\xC2\x9B"
      "31mb";
  EXPECT_TRUE(has_control_character(csi));
  EXPECT_EQ(printable(csi), "a\\u009b31mb");
  EXPECT_FALSE(has_control_character("caf\xC3\xA9 \xC2\xA0"));  // é and a no-break space are text
  EXPECT_EQ(printable("caf\xC3\xA9"), "caf\xC3\xA9");
}

TEST(AdversarialFindings, AWarningLineIsMadeSafeForTheTerminalAndCutShort) {
  EXPECT_EQ(terminal_safe("group '\x1b[2Jx' is skipped\n\tand so on"),
            "group '\\u001b[2Jx' is skipped\n\tand so on");
  const std::string name(10 * 1000 * 1000, 'g');
  const std::string line = terminal_safe("group '" + name + "' is skipped");
  EXPECT_LT(line.size(), 2100u);
  EXPECT_TRUE(has(line, "(10000019 characters)")) << line.substr(line.size() - 40);
}
