// Robot model loading from URDF: joint types, mimic chains, limits, geometry, materials, tree
// order, typed errors with file and line, joint-vector checks, and mesh URI resolution.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include "engine/core/error.hpp"
#include "engine/core/string_similarity.hpp"
#include "engine/model/package_resolver.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model_test_helpers.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using test::data_dir;
using test::expect_error;
using test::ScopedEnv;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

// Children are written in an order different from their names' alphabetical order, so the tree
// order must come from the document, not from urdfdom's maps.
const char* kTreeUrdf = R"(<?xml version="1.0"?>
<robot name="tree">
  <material name="red"><color rgba="1 0 0 1"/></material>
  <link name="root">
    <visual name="base_visual">
      <origin xyz="0 0 0.05" rpy="0 0 1.5707963267948966"/>
      <geometry><box size="0.2 0.3 0.1"/></geometry>
      <material name="red"/>
    </visual>
    <visual>
      <geometry><sphere radius="0.05"/></geometry>
      <material name="red"/>
    </visual>
    <collision><geometry><cylinder radius="0.1" length="0.4"/></geometry></collision>
  </link>
  <link name="z_arm">
    <visual>
      <geometry><mesh filename="meshes/part.stl" scale="0.001 0.002 0.003"/></geometry>
      <material name="local_green"><color rgba="0 1 0 0.5"/></material>
    </visual>
  </link>
  <link name="a_arm"/>
  <link name="z_tip"/>
  <link name="a_tip"/>
  <link name="slider"/>
  <link name="follower"/>
  <link name="follower2"/>
  <joint name="zz_first" type="revolute">
    <parent link="root"/><child link="z_arm"/>
    <origin xyz="0.1 0 0" rpy="0 0 0"/><axis xyz="0 0 2"/>
    <limit lower="-1" upper="2" effort="10" velocity="1.5"/>
  </joint>
  <joint name="aa_second" type="continuous">
    <parent link="root"/><child link="a_arm"/>
    <axis xyz="1 0 0"/>
    <limit effort="5" velocity="3"/>
  </joint>
  <joint name="z_tip_joint" type="fixed">
    <parent link="z_arm"/><child link="z_tip"/><origin xyz="0 0 0.5"/>
  </joint>
  <joint name="a_tip_joint" type="prismatic">
    <parent link="a_arm"/><child link="a_tip"/><axis xyz="0 0 1"/>
    <limit lower="0" upper="0.2" effort="100" velocity="0.1"/>
  </joint>
  <joint name="slider_joint" type="prismatic">
    <parent link="a_tip"/><child link="slider"/><axis xyz="0 1 0"/>
    <limit lower="-0.1" upper="0.1" effort="100" velocity="0.2"/>
  </joint>
  <joint name="follower_joint" type="prismatic">
    <parent link="a_tip"/><child link="follower"/><axis xyz="0 -1 0"/>
    <limit lower="-0.1" upper="0.1" effort="100" velocity="0.2"/>
    <mimic joint="slider_joint" multiplier="2" offset="0.01"/>
  </joint>
  <joint name="follower2_joint" type="prismatic">
    <parent link="follower"/><child link="follower2"/><axis xyz="0 -1 0"/>
    <limit lower="-0.1" upper="0.1" effort="100" velocity="0.2"/>
    <mimic joint="follower_joint" multiplier="-0.5" offset="0.1"/>
  </joint>
</robot>
)";

TEST(ModelUrdf, TreeOrderFollowsTheDocumentDepthFirst) {
  TempDir dir;
  dir.write("meshes/part.stl", "solid x\nendsolid x\n");
  const auto model = load_robot_string(kTreeUrdf, "", "", dir.path().string());
  EXPECT_EQ(model->name(), "tree");
  ASSERT_EQ(model->links().size(), 8u);
  ASSERT_EQ(model->joints().size(), 7u);
  // Depth-first, children in document order: zz_first subtree before aa_second.
  const std::vector<std::string> links{"root",  "z_arm",  "z_tip",    "a_arm",
                                       "a_tip", "slider", "follower", "follower2"};
  for (std::size_t i = 0; i < links.size(); ++i) {
    EXPECT_EQ(model->links()[i].name, links[i]);
    EXPECT_EQ(model->links()[i].index, static_cast<int>(i));
  }
  EXPECT_EQ(model->root_link(), 0);
  for (const Joint& joint : model->joints()) {
    EXPECT_EQ(joint.child_link, joint.index + 1);
    EXPECT_LT(joint.parent_link, joint.child_link);
    EXPECT_EQ(model->links()[joint.child_link].parent_joint, joint.index);
  }
  EXPECT_EQ(model->links()[0].child_joints, (std::vector<int>{0, 2}));
  EXPECT_EQ(model->variable_names(),
            (std::vector<std::string>{"zz_first", "aa_second", "a_tip_joint", "slider_joint"}));
  EXPECT_EQ(model->dof(), 4);
  EXPECT_EQ(model->source_path(), "");
}

TEST(ModelUrdf, JointTypesLimitsAndMimicChains) {
  TempDir dir;
  dir.write("meshes/part.stl", "solid x\nendsolid x\n");
  const auto model = load_robot_string(kTreeUrdf, "", "", dir.path().string());

  const Joint& revolute = model->joint("zz_first");
  EXPECT_EQ(revolute.type, JointType::Revolute);
  EXPECT_TRUE(revolute.axis.isApprox(Vector3::UnitZ()));  // normalised from (0 0 2)
  EXPECT_TRUE(revolute.origin.translation().isApprox(Vector3(0.1, 0, 0)));
  EXPECT_TRUE(revolute.limits.has_position_limits);
  EXPECT_DOUBLE_EQ(revolute.limits.lower, -1.0);
  EXPECT_DOUBLE_EQ(revolute.limits.upper, 2.0);
  EXPECT_DOUBLE_EQ(revolute.limits.velocity, 1.5);
  EXPECT_DOUBLE_EQ(revolute.limits.effort, 10.0);
  EXPECT_DOUBLE_EQ(revolute.limits.acceleration, kDefaultAccelerationFactor * 1.5);
  EXPECT_DOUBLE_EQ(revolute.limits.jerk, kDefaultJerkFactor * kDefaultAccelerationFactor * 1.5);

  const Joint& continuous = model->joint("aa_second");
  EXPECT_EQ(continuous.type, JointType::Continuous);
  EXPECT_FALSE(continuous.limits.has_position_limits);
  EXPECT_DOUBLE_EQ(continuous.limits.velocity, 3.0);
  EXPECT_TRUE(continuous.is_active());

  const Joint& fixed = model->joint("z_tip_joint");
  EXPECT_EQ(fixed.type, JointType::Fixed);
  EXPECT_FALSE(fixed.is_active());
  EXPECT_FALSE(fixed.is_moving());
  EXPECT_EQ(fixed.variable_index, -1);

  const Joint& prismatic = model->joint("a_tip_joint");
  EXPECT_EQ(prismatic.type, JointType::Prismatic);
  EXPECT_DOUBLE_EQ(prismatic.limits.upper, 0.2);

  const Joint& follower = model->joint("follower_joint");
  ASSERT_TRUE(follower.mimic.has_value());
  EXPECT_FALSE(follower.is_active());
  EXPECT_TRUE(follower.is_moving());
  EXPECT_EQ(follower.mimic->joint, "slider_joint");
  EXPECT_DOUBLE_EQ(follower.mimic->multiplier, 2.0);
  EXPECT_DOUBLE_EQ(follower.mimic->offset, 0.01);
  EXPECT_EQ(follower.mimic_source_variable, model->variable_index("slider_joint"));
  EXPECT_DOUBLE_EQ(follower.mimic->effective_multiplier, 2.0);
  EXPECT_DOUBLE_EQ(follower.mimic->effective_offset, 0.01);

  // follower2 = -0.5 * follower + 0.1 = -0.5 * (2 * slider + 0.01) + 0.1 = -slider + 0.095
  const Joint& follower2 = model->joint("follower2_joint");
  ASSERT_TRUE(follower2.mimic.has_value());
  EXPECT_EQ(follower2.mimic->joint, "follower_joint");
  EXPECT_EQ(follower2.mimic_source_variable, model->variable_index("slider_joint"));
  EXPECT_DOUBLE_EQ(follower2.mimic->effective_multiplier, -1.0);
  EXPECT_DOUBLE_EQ(follower2.mimic->effective_offset, 0.095);

  // Limit helpers: continuous joints span [-pi, pi].
  const JointVector lower = model->lower_limits(), upper = model->upper_limits();
  EXPECT_DOUBLE_EQ(lower[1], -M_PI);
  EXPECT_DOUBLE_EQ(upper[1], M_PI);
  EXPECT_DOUBLE_EQ(lower[0], -1.0);
  EXPECT_TRUE(model->mid_configuration().isApprox(Eigen::Vector4d(0.5, 0.0, 0.1, 0.0)));
  EXPECT_TRUE(model->zero_configuration().isApprox(Eigen::Vector4d(0.0, 0.0, 0.0, 0.0)));
  const JointVector clamped = model->clamp_to_limits(Eigen::Vector4d(5.0, 10.0, -1.0, 0.05));
  EXPECT_TRUE(clamped.isApprox(Eigen::Vector4d(2.0, 10.0, 0.0, 0.05)));
  EXPECT_TRUE(model->within_limits(clamped));
  EXPECT_FALSE(model->within_limits(Eigen::Vector4d(5.0, 0, 0, 0)));
  EXPECT_FALSE(model->within_limits(Eigen::Vector3d(0, 0, 0)));
}

TEST(ModelUrdf, GeometryMaterialsAndMeshScale) {
  TempDir dir;
  const fs::path mesh = dir.write("meshes/part.stl", "solid x\nendsolid x\n");
  const auto model = load_robot_string(kTreeUrdf, "", "", dir.path().string());
  const Link& root = model->link("root");
  ASSERT_EQ(root.visuals.size(), 2u);
  const VisualShape& box = root.visuals[0];
  EXPECT_EQ(box.name, "base_visual");
  EXPECT_EQ(box.geometry.type, Geometry::Type::Box);
  EXPECT_TRUE(box.geometry.box_size.isApprox(Vector3(0.2, 0.3, 0.1)));
  EXPECT_TRUE(box.origin.translation().isApprox(Vector3(0, 0, 0.05)));
  EXPECT_TRUE(box.origin.linear().isApprox(rotation_from_rpy(0, 0, M_PI / 2), 1e-12));
  ASSERT_TRUE(box.material.has_value());
  EXPECT_EQ(box.material->name, "red");
  EXPECT_TRUE(box.material->rgba.isApprox(Eigen::Vector4d(1, 0, 0, 1)));
  // The global material applies to every visual that names it, not only the first.
  ASSERT_TRUE(root.visuals[1].material.has_value());
  EXPECT_TRUE(root.visuals[1].material->rgba.isApprox(Eigen::Vector4d(1, 0, 0, 1)));
  EXPECT_EQ(root.visuals[1].geometry.type, Geometry::Type::Sphere);
  EXPECT_DOUBLE_EQ(root.visuals[1].geometry.radius, 0.05);
  ASSERT_EQ(root.collisions.size(), 1u);
  EXPECT_EQ(root.collisions[0].geometry.type, Geometry::Type::Cylinder);
  EXPECT_DOUBLE_EQ(root.collisions[0].geometry.radius, 0.1);
  EXPECT_DOUBLE_EQ(root.collisions[0].geometry.length, 0.4);

  const Link& arm = model->link("z_arm");
  ASSERT_EQ(arm.visuals.size(), 1u);
  const Geometry& m = arm.visuals[0].geometry;
  EXPECT_EQ(m.type, Geometry::Type::Mesh);
  EXPECT_EQ(m.mesh_uri, "meshes/part.stl");
  EXPECT_EQ(m.mesh_path, fs::canonical(mesh).string());
  EXPECT_TRUE(m.mesh_scale.isApprox(Vector3(0.001, 0.002, 0.003)));
  ASSERT_TRUE(arm.visuals[0].material.has_value());
  EXPECT_EQ(arm.visuals[0].material->name, "local_green");
  EXPECT_TRUE(arm.visuals[0].material->rgba.isApprox(Eigen::Vector4d(0, 1, 0, 0.5)));
  EXPECT_TRUE(model->load_warnings().empty()) << model->load_warnings().front();
}

TEST(ModelUrdf, LookupsThrowWithCloseNames) {
  TempDir dir;
  dir.write("meshes/part.stl", "solid x\nendsolid x\n");
  const auto model = load_robot_string(kTreeUrdf, "", "", dir.path().string());
  EXPECT_EQ(model->find_link("nope"), -1);
  EXPECT_EQ(model->find_joint("nope"), -1);
  EXPECT_EQ(model->link_index("a_tip"), 4);
  const Error link = expect_error([&] { model->link_index("a_tipp"); }, ErrorCode::MissingLink);
  EXPECT_THAT(link.message(), HasSubstr("a_tipp"));
  EXPECT_THAT(link.hint(), HasSubstr("'a_tip'"));
  const Error joint =
      expect_error([&] { model->joint_index("slider_jiont"); }, ErrorCode::MissingJoint);
  EXPECT_THAT(joint.message(), HasSubstr("slider_jiont"));
  EXPECT_THAT(joint.hint(), HasSubstr("'slider_joint'"));
  EXPECT_EQ(model->variable_index("z_tip_joint"), -1);
  expect_error([&] { model->variable_index("missing"); }, ErrorCode::MissingJoint);
  EXPECT_EQ(model->chain_joints("root", "slider"), (std::vector<int>{2, 3, 4}));
  expect_error([&] { model->chain_joints("z_arm", "slider"); }, ErrorCode::InvalidModel);
}

TEST(ModelUrdf, ValidateNamesTheJoint) {
  TempDir dir;
  dir.write("meshes/part.stl", "solid x\nendsolid x\n");
  const auto model = load_robot_string(kTreeUrdf, "", "", dir.path().string());
  const Error size =
      expect_error([&] { model->validate(Eigen::Vector3d::Zero()); }, ErrorCode::DimensionMismatch);
  EXPECT_THAT(size.message(), HasSubstr("3 values"));
  EXPECT_THAT(size.message(), HasSubstr("4 joint variables"));
  EXPECT_THAT(size.hint(), HasSubstr("zz_first, aa_second, a_tip_joint, slider_joint"));

  JointVector q = Eigen::Vector4d::Zero();
  q[2] = std::numeric_limits<double>::quiet_NaN();
  const Error nan = expect_error([&] { model->validate(q); }, ErrorCode::InvalidValue);
  EXPECT_THAT(nan.message(), HasSubstr("a_tip_joint"));
  EXPECT_THAT(nan.message(), HasSubstr("NaN"));
  q[2] = 0.0;
  q[1] = -std::numeric_limits<double>::infinity();
  const Error inf = expect_error([&] { model->validate(q); }, ErrorCode::InvalidValue);
  EXPECT_THAT(inf.message(), HasSubstr("aa_second"));
  EXPECT_THAT(inf.message(), HasSubstr("infinity"));

  q = Eigen::Vector4d(0, 100.0, 0, 0);  // continuous: no position limits
  EXPECT_NO_THROW(model->validate(q, true));
  q[0] = 2.5;
  EXPECT_NO_THROW(model->validate(q, false));
  const Error out = expect_error([&] { model->validate(q, true); }, ErrorCode::OutOfLimits);
  EXPECT_THAT(out.message(), HasSubstr("zz_first"));
  EXPECT_THAT(out.message(), HasSubstr("2.5"));
}

// --- Errors -------------------------------------------------------------------------------

TEST(ModelUrdfErrors, MalformedXmlNamesFileAndLine) {
  TempDir dir;
  const fs::path file = dir.write("broken.urdf",
                                  "<?xml version=\"1.0\"?>\n"
                                  "<robot name=\"broken\">\n"
                                  "  <link name=\"a\">\n"
                                  "  </lnk>\n"
                                  "</robot>\n");
  // tinyxml2 reports the line of the element that is not closed properly.
  const Error e = expect_error([&] { load_robot_file(file.string()); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr(file.string() + ":3"));
  EXPECT_THAT(e.message(), HasSubstr("not closed"));
  EXPECT_THAT(e.message(), HasSubstr("link"));

  const Error s =
      expect_error([&] { load_robot_string("<robot name='x'>\n<link name='a'/>\n<joint"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(s.message(), HasSubstr("<urdf string>:3"));

  // An empty file is said as one, without tinyxml2's "Error=XML_ERROR_EMPTY_DOCUMENT ErrorID=13".
  for (const std::string empty : {"", "<?xml version=\"1.0\"?>\n<!-- nothing -->\n"}) {
    const Error blank = expect_error([&] { load_robot_string(empty); }, ErrorCode::ParseError);
    EXPECT_THAT(
        blank.message(),
        HasSubstr(
            "<urdf string>: the file is empty (or holds only a declaration or comments): no XML"));
    EXPECT_THAT(blank.message(), Not(HasSubstr("XML_ERROR")));
  }
}

TEST(ModelUrdfErrors, MissingFile) {
  const Error e =
      expect_error([] { load_robot_file("/nonexistent/robot.urdf"); }, ErrorCode::FileNotFound);
  EXPECT_THAT(e.message(), HasSubstr("/nonexistent/robot.urdf"));
}

TEST(ModelUrdfErrors, StructuralProblemsNameTheElementAndLine) {
  // Unknown child link, with a suggestion.
  Error e = expect_error(
      [] {
        load_robot_string(R"(<robot name="r">
  <link name="base"/>
  <link name="arm"/>
  <joint name="j" type="fixed">
    <parent link="base"/>
    <child link="armm"/>
  </joint>
</robot>)");
      },
      ErrorCode::MissingLink);
  EXPECT_THAT(e.message(), HasSubstr("<urdf string>:6"));
  EXPECT_THAT(e.message(), HasSubstr("'armm'"));
  EXPECT_THAT(e.hint(), HasSubstr("'arm'"));

  // Revolute joint without <limit>.
  e = expect_error(
      [] {
        load_robot_string(R"(<robot name="r">
  <link name="base"/><link name="arm"/>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/></joint>
</robot>)");
      },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("<urdf string>:3"));
  EXPECT_THAT(e.message(), HasSubstr("'j'"));
  EXPECT_THAT(e.hint(), HasSubstr("<limit"));

  // Two roots.
  e = expect_error(
      [] { load_robot_string(R"(<robot name="r"><link name="a"/><link name="b"/></robot>)"); },
      ErrorCode::InvalidModel);
  EXPECT_THAT(e.message(), HasSubstr("'a' and 'b'"));

  // No links at all.
  e = expect_error([] { load_robot_string(R"(<robot name="r"></robot>)"); },
                   ErrorCode::InvalidModel);
  EXPECT_THAT(e.message(), HasSubstr("no <link>"));

  // Not a robot.
  expect_error([] { load_robot_string(R"(<sdf version="1.6"/>)"); }, ErrorCode::ParseError);

  // Mimic of an unknown joint.
  e = expect_error(
      [] {
        load_robot_string(R"(<robot name="r">
  <link name="base"/><link name="arm"/>
  <joint name="j" type="continuous"><parent link="base"/><child link="arm"/>
    <mimic joint="nothere"/></joint>
</robot>)");
      },
      ErrorCode::MissingJoint);
  EXPECT_THAT(e.message(), HasSubstr("'nothere'"));
  EXPECT_THAT(e.message(), HasSubstr("<urdf string>:4"));

  // Mimic cycle.
  e = expect_error(
      [] {
        load_robot_string(R"(<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="ja" type="continuous"><parent link="base"/><child link="a"/><mimic joint="jb"/></joint>
  <joint name="jb" type="continuous"><parent link="a"/><child link="b"/><mimic joint="ja"/></joint>
</robot>)");
      },
      ErrorCode::InvalidModel);
  EXPECT_THAT(e.message(), HasSubstr("cycle"));

  // Lower limit above upper.
  e = expect_error(
      [] {
        load_robot_string(R"(<robot name="r">
  <link name="base"/><link name="a"/>
  <joint name="ja" type="revolute"><parent link="base"/><child link="a"/>
    <limit lower="1" upper="-1" effort="1" velocity="1"/></joint>
</robot>)");
      },
      ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'ja'"));
}

// The builder walks the tree recursively: a chain thousands of links deep overflowed the stack
// (a segfault at about 8000 links in a release build). A tree deeper than 500 joints is refused,
// and so, before urdfdom (which leaked it), is a cycle of joints beside the tree.
TEST(ModelUrdfErrors, TooDeepTreesAndDetachedCyclesAreRefused) {
  const auto chain = [](int n) {
    std::string s = "<robot name=\"chain\"><link name=\"l0\"/>\n";
    for (int i = 1; i <= n; ++i)
      s += "<link name=\"l" + std::to_string(i) + "\"/><joint name=\"j" + std::to_string(i) +
           "\" type=\"fixed\"><parent link=\"l" + std::to_string(i - 1) + "\"/><child link=\"l" +
           std::to_string(i) + "\"/></joint>\n";
    return s + "</robot>\n";
  };
  EXPECT_EQ(load_robot_string(chain(500))->links().size(), 501u);
  Error e = expect_error([&] { load_robot_string(chain(20000)); }, ErrorCode::InvalidModel);
  EXPECT_THAT(
      e.message(),
      HasSubstr(
          "<urdf string>:502: link 'l501' is 501 joints from the root link 'l0' (at most 500)"));

  e = expect_error(
      [] {
        load_robot_string(R"(<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/>
  <joint name="ja" type="fixed"><parent link="b"/><child link="a"/></joint>
  <joint name="jb" type="fixed"><parent link="a"/><child link="b"/></joint>
</robot>)");
      },
      ErrorCode::InvalidModel);
  EXPECT_THAT(
      e.message(),
      HasSubstr("'a' and 'b' are not connected to root link 'base': their joints form a cycle"));
}

// urdfdom hands some messages that quote the file to printf as the format: "%n" in a malformed
// value crashed the loader (a segfault, or glibc's "%n in writable segment" abort), "%p" put stack
// addresses in the error. A '%' outside a file name is refused before urdfdom reads the file.
TEST(ModelUrdfErrors, APercentSignIsRefusedBeforeUrdfdomTakesItForAFormat) {
  const auto urdf = [](const std::string& inside_base, const std::string& joint_origin) {
    return "<robot name=\"r\">\n<link name=\"base\">" + inside_base +
           "</link>\n<link name=\"arm\"/>\n<joint name=\"j\" type=\"fixed\"><parent link=\"base\"/>"
           "<child link=\"arm\"/>" +
           joint_origin + "</joint>\n</robot>";
  };
  Error e = expect_error([&] { load_robot_string(urdf("", R"(<origin rpy="%n %n %n"/>)")); },
                         ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("<urdf string>:4: attribute 'rpy' of <origin> contains '%'"));
  e = expect_error(
      [&] {
        load_robot_string(
            urdf(R"(<visual><geometry><box size="%p.%p.%p"/></geometry></visual>)", ""));
      },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("attribute 'size' of <box> contains '%'"));
  EXPECT_THAT(e.message(), Not(HasSubstr("0x")));
  e = expect_error(
      [&] {
        load_robot_string("<robot name=\"r\"><material name=\"%s%s\"/><link name=\"a\"/></robot>");
      },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("attribute 'name' of <material> contains '%'"));
  // A file name may hold one (URL-encoded names): the mesh is only missing here.
  const auto model = load_robot_string(
      urdf(R"(<visual><geometry><mesh filename="meshes/part%201.stl"/></geometry></visual>)", ""));
  EXPECT_EQ(model->unresolved_files(), std::vector<std::string>{"meshes/part%201.stl"});
}

TEST(ModelUrdfErrors, FloatingAndPlanarJointsAreUnsupported) {
  for (const std::string type : {"floating", "planar"}) {
    const Error e = expect_error(
        [&] {
          load_robot_string(
              "<robot name=\"r\">\n<link name=\"world\"/><link name=\"base\"/>\n"
              "<joint name=\"free\" type=\"" +
              type + "\"><parent link=\"world\"/><child link=\"base\"/></joint>\n</robot>");
        },
        ErrorCode::Unsupported);
    EXPECT_THAT(e.message(), HasSubstr("'free'"));
    EXPECT_THAT(e.message(), HasSubstr(type));
    EXPECT_THAT(e.message(), HasSubstr("<urdf string>:3"));
  }
}

TEST(ModelUrdfErrors, UrdfdomSemanticErrorsNameTheFile) {
  TempDir dir;
  // Well-formed XML that urdfdom rejects (an origin with two coordinates).
  const fs::path file = dir.write("bad_origin.urdf", R"(<robot name="r">
  <link name="base"/>
  <link name="arm"/>
  <joint name="j" type="fixed">
    <origin xyz="1 2"/>
    <parent link="base"/><child link="arm"/>
  </joint>
</robot>)");
  const Error e = expect_error([&] { load_robot_file(file.string()); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr(file.string() + ":4"));  // the joint urdfdom names
  EXPECT_THAT(e.message(), HasSubstr("[j]"));
  EXPECT_FALSE(e.hint().empty());
}

TEST(ModelUrdfErrors, ElementsUrdfdomWouldDropAreErrors) {
  // urdfdom logs an error and silently drops a visual with a malformed box: we refuse it.
  const Error e = expect_error(
      [] {
        load_robot_string(R"(<robot name="r">
  <link name="base">
    <visual><geometry><box size="1 2"/></geometry></visual>
  </link>
</robot>)");
      },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("<urdf string>:2"));
  EXPECT_THAT(e.message(), HasSubstr("3 expected"));
}

TEST(ModelUrdfErrors, UndefinedMaterialIsAWarning) {
  const auto model = load_robot_string(R"(<robot name="r">
  <link name="base">
    <visual><geometry><sphere radius="1"/></geometry><material name="nope"/></visual>
  </link>
</robot>)");
  EXPECT_FALSE(model->link("base").visuals[0].material.has_value());
  ASSERT_EQ(model->load_warnings().size(), 1u);
  EXPECT_THAT(model->load_warnings()[0], HasSubstr("'nope'"));
}

TEST(ModelUrdfErrors, MissingMeshIsAnErrorOrAWarning) {
  TempDir dir;
  const fs::path file = dir.write("robot.urdf", R"(<robot name="r">
  <link name="base"><visual><geometry><mesh filename="meshes/missing.stl"/></geometry></visual></link>
</robot>)");
  LoadOptions strict;
  strict.require_meshes = true;
  const Error e =
      expect_error([&] { load_robot_file(file.string(), "", "", strict); }, ErrorCode::MissingMesh);
  EXPECT_THAT(e.message(), HasSubstr("missing.stl"));
  EXPECT_THAT(e.message(), HasSubstr(file.string() + ":2"));

  const auto model = load_robot_file(file.string());
  ASSERT_EQ(model->load_warnings().size(), 1u);
  EXPECT_THAT(model->load_warnings()[0], HasSubstr("missing.stl"));
  EXPECT_EQ(model->link("base").visuals[0].geometry.mesh_path, "");
  EXPECT_EQ(model->link("base").visuals[0].geometry.mesh_uri, "meshes/missing.stl");

  // An unknown package is reported with where it was searched.
  const auto pkg = load_robot_string(R"(<robot name="r">
  <link name="base"><visual><geometry><mesh filename="package://no_such_package/a.stl"/></geometry></visual></link>
</robot>)");
  ASSERT_EQ(pkg->load_warnings().size(), 1u);
  EXPECT_THAT(pkg->load_warnings()[0], HasSubstr("package 'no_such_package' not found"));

  // Required, the hint says how to add a package path in user terms, not the C++ API.
  const fs::path pkg_file = dir.write("pkg.urdf", R"(<robot name="r">
  <link name="base"><visual><geometry><mesh filename="package://no_such_package/a.stl"/></geometry></visual></link>
</robot>)");
  const Error missing = expect_error([&] { load_robot_file(pkg_file.string(), "", "", strict); },
                                     ErrorCode::MissingMesh);
  EXPECT_THAT(missing.hint(), HasSubstr("add the folder that holds package 'no_such_package'"));
  EXPECT_THAT(missing.hint(), HasSubstr("--package-path DIR"));
  EXPECT_THAT(missing.hint(), Not(HasSubstr("LoadOptions")));
  EXPECT_THAT(e.hint(), HasSubstr("fix the mesh file name"));
}

// --- Mesh URI resolution -------------------------------------------------------------------

TEST(PackageResolver, FindsPackagesThroughAncestorsSearchPathsAndEnvironment) {
  const fs::path packages = data_dir() / "packages";
  const fs::path urdf = packages / "my_meshes" / "urdf" / "robot.urdf";

  // Ancestors only: my_meshes is found, other_pkg (in a sibling folder, not an ancestor) is not.
  {
    ScopedEnv ros("ROS_PACKAGE_PATH", "");
    ScopedEnv ament("AMENT_PREFIX_PATH", "");
    const auto model = load_robot_file(urdf.string());
    const Link& base = model->link("base");
    EXPECT_EQ(base.visuals[0].geometry.mesh_path,
              fs::canonical(packages / "my_meshes/meshes/part.stl").string());
    EXPECT_TRUE(base.visuals[0].geometry.mesh_scale.isApprox(Vector3::Constant(0.001)));
    EXPECT_EQ(base.collisions[0].geometry.mesh_path,
              fs::canonical(packages / "my_meshes/meshes/part.stl").string());
    EXPECT_EQ(model->link("tip").visuals[0].geometry.mesh_path, "");
    ASSERT_EQ(model->load_warnings().size(), 1u);
    EXPECT_THAT(model->load_warnings()[0], HasSubstr("other_pkg"));
  }
  const std::string other =
      fs::canonical(packages / "nested/renamed_folder/meshes/other.stl").string();
  // LoadOptions::package_paths (crawled: other_pkg is two levels down, in a folder named
  // otherwise).
  {
    ScopedEnv ros("ROS_PACKAGE_PATH", "");
    LoadOptions options;
    options.package_paths = {packages.string()};
    options.require_meshes = true;
    const auto model = load_robot_file(urdf.string(), "", "", options);
    EXPECT_EQ(model->link("tip").visuals[0].geometry.mesh_path, other);
  }
  // ROS_PACKAGE_PATH.
  {
    ScopedEnv ros("ROS_PACKAGE_PATH", "/nonexistent:" + (packages / "nested").string());
    const auto model = load_robot_file(urdf.string());
    EXPECT_EQ(model->link("tip").visuals[0].geometry.mesh_path, other);
    EXPECT_TRUE(model->load_warnings().empty());
  }
  // AMENT_PREFIX_PATH: PREFIX/share/NAME.
  {
    TempDir dir;
    dir.write("share/ament_pkg/meshes/a.stl", "solid\n");
    ScopedEnv ament("AMENT_PREFIX_PATH", dir.path().string());
    const PackageResolver resolver("", {});
    EXPECT_EQ(resolver.resolve_path("package://ament_pkg/meshes/a.stl"),
              fs::canonical(dir.path() / "share/ament_pkg/meshes/a.stl").string());
  }
}

// MotionBenchMaker's Panda reads package://meshes/... with meshes/ (no package.xml) beside its
// URDF.
TEST(PackageResolver, AFolderWithoutPackageXmlBesideTheUrdfIsThePackageOfItsName) {
  if (test::mbm_panda_dir().empty()) GTEST_SKIP() << "../shared/mbm/panda is absent";
  const fs::path robot = fs::path(test::mbm_panda_dir()) / "robot";
  ScopedEnv ros("ROS_PACKAGE_PATH", "");
  ScopedEnv ament("AMENT_PREFIX_PATH", "");
  const PackageResolver resolver(robot.string());
  EXPECT_EQ(resolver.resolve_path("package://meshes/collision/link0.obj"),
            fs::canonical(robot / "meshes/collision/link0.obj").string());
  EXPECT_EQ(resolver.resolve_path("package://nowhere/collision/link0.obj"), "");
  const auto panda =
      load_robot_file((robot / "panda.urdf").string(), (robot / "panda.srdf").string());
  for (const std::string& warning : panda->load_warnings())
    EXPECT_THAT(warning, Not(HasSubstr("package"))) << warning;
  EXPECT_EQ(panda->link("panda_link0").collisions[0].geometry.mesh_path,
            fs::canonical(robot / "meshes/collision/link0.obj").string());
}

TEST(PackageResolver, FileUrisAbsoluteAndRelativePaths) {
  TempDir dir;
  const fs::path mesh = dir.write("robot/meshes/a.stl", "solid\n");
  const std::string expected = fs::canonical(mesh).string();
  const PackageResolver resolver((dir.path() / "robot" / "urdf").string(), {});
  EXPECT_EQ(resolver.resolve_path("file://" + mesh.string()), expected);
  EXPECT_EQ(resolver.resolve_path(mesh.string()), expected);
  EXPECT_EQ(resolver.resolve_path("../meshes/a.stl"), expected);
  EXPECT_EQ(resolver.resolve_path("file://../meshes/a.stl"), expected);
  const auto missing = resolver.resolve("../meshes/b.stl");
  EXPECT_EQ(missing.path, "");
  EXPECT_THAT(missing.reason, HasSubstr("b.stl"));
  EXPECT_THAT(resolver.resolve("http://example.com/a.stl").reason,
              HasSubstr("unsupported URI scheme"));
  EXPECT_THAT(resolver.resolve("package://").reason, HasSubstr("malformed"));
}

TEST(PackageResolver, CachesLookups) {
  TempDir dir;
  dir.write("pkgs/cached_pkg/package.xml", "<package><name>cached_pkg</name></package>");
  dir.write("pkgs/cached_pkg/a.stl", "solid\n");
  const PackageResolver resolver("", {(dir.path() / "pkgs").string()});
  const auto first = resolver.find_package("cached_pkg");
  ASSERT_TRUE(first.has_value());
  fs::remove_all(dir.path() / "pkgs");
  // The folder is gone, but the package location is remembered.
  EXPECT_EQ(resolver.find_package("cached_pkg"), first);
  EXPECT_FALSE(resolver.find_package("never_there").has_value());
}

TEST(StringSimilarity, EditDistanceAndSuggestions) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("UR5e", "ur5e"), 0u);
  const std::vector<std::string> names{"ur3e", "ur5e", "ur10e", "ur16e", "panda", "iiwa14"};
  const auto close = closest_names("ur5", names);
  ASSERT_FALSE(close.empty());
  EXPECT_EQ(close.front(), "ur5e");
  EXPECT_EQ(closest_names("pnada", names).front(), "panda");
  EXPECT_EQ(closest_names("iiwa", names).front(), "iiwa14");
  EXPECT_TRUE(closest_names("zzzzzzzz", names).empty());
  EXPECT_THAT(suggestion_hint("zzzzzzzz", names), HasSubstr("known names"));
  EXPECT_EQ(suggestion_hint("x", {}), "");
}

// Nothing close: a short list is given whole, a long one cut to max_results with a count.
TEST(StringSimilarity, AShortListOfNamesIsGivenWhole) {
  std::vector<std::string> names;
  for (int i = 0; i < 12; ++i) names.push_back("name" + std::to_string(i));
  const std::string whole = suggestion_hint("zzzzzzzzzz", names);
  EXPECT_THAT(whole, HasSubstr("'name11'"));
  EXPECT_THAT(whole, Not(HasSubstr("more)")));
  names.push_back("name12");
  const std::string cut = suggestion_hint("zzzzzzzzzz", names);
  EXPECT_THAT(cut, Not(HasSubstr("'name5'")));
  EXPECT_THAT(cut, HasSubstr("(and 8 more)"));
}

}  // namespace
}  // namespace kinetic
