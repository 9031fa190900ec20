// xacro robot descriptions: the ${...} expressions (Python's rules), the xacro elements (property,
// arg, macro with every kind of parameter, insert_block, include with $(find) and ns, if/unless,
// element, attribute, call), errors that name the file and line, and real loading: an arm built
// from macros and the shared Panda included through $(find).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <map>
#include <numbers>

#include "engine/kinematics/kinematic_chain.hpp"
#include "engine/model/robot_companions.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model/xacro/xacro_expression.hpp"
#include "engine/model/xacro/xacro_processor.hpp"
#include "engine/model_test_helpers.hpp"

namespace kinetic {
namespace {

using test::expect_error;
using test::TempDir;
using ::testing::HasSubstr;
using ::testing::Not;

std::string eval(const std::string& expression,
                 const std::map<std::string, xacro::Value>& names = {}) {
  return xacro::evaluate(expression,
                         [&](const std::string& name) -> std::optional<xacro::Value> {
                           if (auto it = names.find(name); it != names.end()) return it->second;
                           return std::nullopt;
                         })
      .str();
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

constexpr const char* kHeader =
    "<?xml version=\"1.0\"?>\n<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n";

std::string expand(const std::string& body, const xacro::ExpandOptions& options = {},
                   const std::string& path = "/tmp/r.urdf.xacro") {
  return xacro::expand(std::string(kHeader) + body + "</robot>\n", path, options);
}

// The root element of expanded text, for checks.
struct Expanded {
  explicit Expanded(const std::string& text) {
    EXPECT_EQ(doc.Parse(text.c_str()), tinyxml2::XML_SUCCESS) << text;
    root = doc.RootElement();
  }
  const tinyxml2::XMLElement* first(const char* name) const {
    return root->FirstChildElement(name);
  }
  int count(const char* name) const {
    int n = 0;
    for (auto* e = root->FirstChildElement(name); e; e = e->NextSiblingElement(name)) ++n;
    return n;
  }
  tinyxml2::XMLDocument doc;
  const tinyxml2::XMLElement* root = nullptr;
};

TEST(XacroExpression, ArithmeticFollowsPython) {
  EXPECT_EQ(eval("1 + 2 * 3"), "7");
  EXPECT_EQ(eval("(1 + 2) * 3"), "9");
  EXPECT_EQ(eval("7 / 2"), "3.5");
  EXPECT_EQ(eval("7 // 2"), "3");
  EXPECT_EQ(eval("-7 // 2"), "-4");
  EXPECT_EQ(eval("-7 % 3"), "2");
  EXPECT_EQ(eval("2 ** 10"), "1024");
  EXPECT_EQ(eval("-2 ** 2"), "-4");
  EXPECT_EQ(eval("2 ** -1"), "0.5");
  EXPECT_EQ(eval("0.1 + 0.2"), "0.30000000000000004");
  EXPECT_EQ(eval("2 * 0.5"), "1.0");
  EXPECT_EQ(eval("1e-5"), "1e-05");
  EXPECT_EQ(eval("'arm_' + 'link'"), "arm_link");
  EXPECT_EQ(eval("1 < 2 < 3"), "True");
  EXPECT_EQ(eval("1 < 3 < 2"), "False");
  EXPECT_EQ(eval("0 or 'x'"), "x");
  EXPECT_EQ(eval("1 and 0"), "0");
  EXPECT_EQ(eval("not 0"), "True");
  EXPECT_EQ(eval("'left' if side == 1 else 'right'", {{"side", xacro::Value::of_int(1)}}), "left");
  EXPECT_EQ(eval("'a' in 'cat'"), "True");
  EXPECT_EQ(eval("2 not in [1, 3]"), "True");
  EXPECT_EQ(eval("[1, 2, 3][-1]"), "3");
  EXPECT_EQ(eval("len('abc')"), "3");
  EXPECT_EQ(eval("l / 2", {{"l", xacro::Value::of_float(0.5)}}), "0.25");
  EXPECT_EQ(eval("ns.length * 2", {{"ns.length", xacro::Value::of_int(3)}}), "6");
}

TEST(XacroExpression, MathFunctionsAndConstants) {
  EXPECT_EQ(eval("pi"), xacro::Value::of_float(std::numbers::pi).str());
  EXPECT_EQ(eval("math.pi / 2"), xacro::Value::of_float(std::numbers::pi / 2).str());
  EXPECT_EQ(eval("radians(180)"), xacro::Value::of_float(std::numbers::pi).str());
  EXPECT_EQ(eval("degrees(pi)"), "180.0");
  EXPECT_EQ(eval("sqrt(16)"), "4.0");
  EXPECT_EQ(eval("math.atan2(1, 1) * 4"), xacro::Value::of_float(std::numbers::pi).str());
  EXPECT_EQ(eval("abs(-3)"), "3");
  EXPECT_EQ(eval("max(1, 5, 2)"), "5");
  EXPECT_EQ(eval("int('7') + float('0.5')"), "7.5");
  EXPECT_EQ(eval("str(1.0) + 'm'"), "1.0m");
  EXPECT_EQ(eval("round(2.5)"), "2");  // half to even, as Python 3
  EXPECT_EQ(eval("floor(-0.5)"), "-1");
}

TEST(XacroExpression, ErrorsNameTheExpression) {
  Error e = expect_error([] { eval("length * 2"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("${length * 2}"));
  EXPECT_THAT(e.message(), HasSubstr("name 'length' is not defined"));
  e = expect_error([] { eval("1 / 0"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("division by zero"));
  e = expect_error([] { eval("(1 + 2"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("expected ')'"));
  e = expect_error([] { eval("'a' - 1"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("unsupported operand types for -"));
  e = expect_error([] { eval("xacro.load_yaml('/nonexistent/limits.yaml')"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("the YAML file '/nonexistent/limits.yaml' does not exist"));
  e = expect_error([] { eval("frobnicate(1)"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("unknown function 'frobnicate'"));
}

TEST(Xacro, PropertiesMacrosAndBlocks) {
  const Expanded out(expand(R"X(
  <xacro:property name="width" value="0.1"/>
  <xacro:property name="half" value="${width / 2}"/>
  <xacro:property name="origin_block"><origin xyz="1 2 3"/></xacro:property>
  <xacro:macro name="box_link" params="name size:=${width} *origin **extra">
    <link name="${name}_link">
      <visual><xacro:insert_block name="origin"/><geometry><box size="${size} ${size} ${half}"/></geometry></visual>
      <xacro:insert_block name="extra"/>
    </link>
  </xacro:macro>
  <xacro:box_link name="a">
    <origin xyz="0 0 ${half}"/>
    <extra><inertial><mass value="2"/></inertial></extra>
  </xacro:box_link>
  <xacro:box_link name="b" size="0.3">
    <origin xyz="0 0 0"/>
    <extra/>
  </xacro:box_link>
  <joint name="j"><xacro:insert_block name="origin_block"/></joint>
)X"));
  ASSERT_EQ(out.count("link"), 2);
  const auto* a = out.first("link");
  EXPECT_STREQ(a->Attribute("name"), "a_link");
  EXPECT_STREQ(a->FirstChildElement("visual")->FirstChildElement("origin")->Attribute("xyz"),
               "0 0 0.05");
  EXPECT_STREQ(a->FirstChildElement("visual")
                   ->FirstChildElement("geometry")
                   ->FirstChildElement("box")
                   ->Attribute("size"),
               "0.1 0.1 0.05");
  // **extra inserts the block's content, not the block element.
  EXPECT_EQ(a->FirstChildElement("extra"), nullptr);
  EXPECT_STREQ(a->FirstChildElement("inertial")->FirstChildElement("mass")->Attribute("value"),
               "2");
  const auto* b = a->NextSiblingElement("link");
  EXPECT_STREQ(b->FirstChildElement("visual")
                   ->FirstChildElement("geometry")
                   ->FirstChildElement("box")
                   ->Attribute("size"),
               "0.3 0.3 0.05");
  EXPECT_STREQ(out.first("joint")->FirstChildElement("origin")->Attribute("xyz"), "1 2 3");
  // No xacro element or namespace declaration is left.
  EXPECT_EQ(out.root->Attribute("xmlns:xacro"), nullptr);
  EXPECT_EQ(out.first("xacro:property"), nullptr);
  EXPECT_EQ(out.first("xacro:macro"), nullptr);
}

TEST(Xacro, MacroParametersInheritDefaultAndNest) {
  const Expanded out(expand(R"X(
  <xacro:property name="prefix" value="left_"/>
  <xacro:macro name="inner" params="name prefix:=^ scale:=^|3">
    <link name="${prefix}${name}" scale="${scale}"/>
  </xacro:macro>
  <xacro:macro name="outer" params="name">
    <xacro:inner name="${name}_a"/>
    <xacro:property name="scale" value="5"/>
    <xacro:inner name="${name}_b"/>
    <xacro:call macro="inner" name="${name}_c" prefix="right_"/>
  </xacro:macro>
  <xacro:outer name="arm"/>
)X"));
  const auto* link = out.first("link");
  ASSERT_NE(link, nullptr);
  EXPECT_STREQ(link->Attribute("name"), "left_arm_a");
  EXPECT_STREQ(link->Attribute("scale"), "3");
  link = link->NextSiblingElement("link");
  EXPECT_STREQ(link->Attribute("name"), "left_arm_b");
  EXPECT_STREQ(link->Attribute("scale"), "5");
  link = link->NextSiblingElement("link");
  EXPECT_STREQ(link->Attribute("name"), "right_arm_c");
}

TEST(Xacro, ArgsDefaultAndOverride) {
  const std::string body = R"X(
  <xacro:arg name="arm_id" default="panda"/>
  <xacro:arg name="hand" default="true"/>
  <link name="$(arg arm_id)_link0"/>
  <xacro:if value="$(arg hand)"><link name="$(arg arm_id)_hand"/></xacro:if>
)X";
  const Expanded defaults(expand(body));
  EXPECT_EQ(defaults.count("link"), 2);
  EXPECT_STREQ(defaults.first("link")->Attribute("name"), "panda_link0");
  xacro::ExpandOptions options;
  options.args = {{"arm_id", "fr3"}, {"hand", "false"}};
  const Expanded given(expand(body, options));
  EXPECT_EQ(given.count("link"), 1);
  EXPECT_STREQ(given.first("link")->Attribute("name"), "fr3_link0");
  const Error e =
      expect_error([] { expand("<link name=\"$(arg missing)\"/>"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("$(arg missing)"));
  EXPECT_THAT(e.message(), HasSubstr("r.urdf.xacro:3:"));  // the line of the <link>
}

TEST(Xacro, IfUnlessAndConditions) {
  const Expanded out(expand(R"X(
  <xacro:property name="n" value="2"/>
  <xacro:if value="${n > 1}"><link name="many"/></xacro:if>
  <xacro:unless value="${n > 1}"><link name="one"/></xacro:unless>
  <xacro:if value="0"><link name="never"/></xacro:if>
  <xacro:if value="True"><link name="always"/></xacro:if>
)X"));
  ASSERT_EQ(out.count("link"), 2);
  EXPECT_STREQ(out.first("link")->Attribute("name"), "many");
  EXPECT_STREQ(out.first("link")->NextSiblingElement("link")->Attribute("name"), "always");
  const Error e =
      expect_error([] { expand("<xacro:if value=\"maybe\"><link name=\"x\"/></xacro:if>"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("is not a boolean"));
}

TEST(Xacro, IncludesRelativeByFindAndInANamespace) {
  TempDir dir;
  dir.write("my_robot/package.xml", "<package format=\"3\"><name>my_robot</name></package>");
  dir.write("my_robot/urdf/parts/link.xacro", R"X(<?xml version="1.0"?>
<robot xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:property name="length" value="0.4"/>
  <xacro:macro name="part" params="name"><link name="${name}" length="${length}"/></xacro:macro>
</robot>
)X");
  const auto main_file = dir.write("my_robot/urdf/robot.urdf.xacro", std::string(kHeader) + R"X(
  <xacro:include filename="parts/link.xacro"/>
  <xacro:include filename="$(find my_robot)/urdf/parts/link.xacro" ns="tool"/>
  <xacro:part name="base"/>
  <xacro:tool.part name="tip"/>
  <link name="derived" length="${tool.length * 2}"/>
</robot>
)X");
  xacro::ExpandOptions options;
  options.find_package = [&](const std::string& name) -> std::optional<std::string> {
    if (name == "my_robot") return (dir.path() / "my_robot").string();
    return std::nullopt;
  };
  std::vector<std::string> included;
  const Expanded out(xacro::expand(read_text(main_file), main_file.string(), options, &included));
  // The same file included twice is listed once (a watcher reloads when it changes).
  EXPECT_EQ(included,
            std::vector<std::string>{(dir.path() / "my_robot/urdf/parts/link.xacro").string()});
  ASSERT_EQ(out.count("link"), 3);
  EXPECT_STREQ(out.first("link")->Attribute("name"), "base");
  EXPECT_STREQ(out.first("link")->Attribute("length"), "0.4");
  EXPECT_STREQ(out.first("link")->NextSiblingElement("link")->Attribute("name"), "tip");
  EXPECT_STREQ(out.first("link")->NextSiblingElement("link")->NextSiblingElement("link")->Attribute(
                   "length"),
               "0.8");

  const auto missing = dir.write(
      "my_robot/urdf/missing.urdf.xacro",
      std::string(kHeader) + "<xacro:include filename=\"$(find nowhere)/x.xacro\"/></robot>");
  const Error e = expect_error(
      [&] { xacro::expand(read_text(missing), missing.string(), options); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("package 'nowhere' was not found"));
  EXPECT_THAT(e.hint(), HasSubstr("package paths"));
}

TEST(Xacro, ElementAttributeAndEscapes) {
  const Expanded out(expand(R"X(
  <xacro:property name="tag" value="link"/>
  <xacro:element xacro:name="${tag}" name="made"><xacro:attribute name="note" value="${1 + 1}"/></xacro:element>
  <joint name="literal" text="$${not evaluated}"/>
  <material name="m"><color rgba="${0.5} 0 0 1"/></material>
)X"));
  ASSERT_NE(out.first("link"), nullptr);
  EXPECT_STREQ(out.first("link")->Attribute("name"), "made");
  EXPECT_STREQ(out.first("link")->Attribute("note"), "2");
  EXPECT_STREQ(out.first("joint")->Attribute("text"), "${not evaluated}");
  EXPECT_STREQ(out.first("material")->FirstChildElement("color")->Attribute("rgba"), "0.5 0 0 1");
}

TEST(Xacro, LazyPropertiesAndScopes) {
  const Expanded out(expand(R"X(
  <xacro:property name="total" value="${a + b}"/>
  <xacro:property name="a" value="1"/>
  <xacro:property name="b" value="2"/>
  <xacro:property name="a" default="100"/>
  <xacro:macro name="m" params="">
    <xacro:property name="local" value="inner"/>
    <xacro:property name="exported" value="${local}_out" scope="parent"/>
  </xacro:macro>
  <xacro:m/>
  <link name="x" total="${total}" exported="${exported}"/>
)X"));
  EXPECT_STREQ(out.first("link")->Attribute("total"), "3");
  EXPECT_STREQ(out.first("link")->Attribute("exported"), "inner_out");
  const Error e =
      expect_error([] { expand("<xacro:m2/><link name=\"${local}\"/>"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("no macro named 'm2'"));
}

TEST(Xacro, ErrorsNameFileLineAndMacro) {
  Error e = expect_error(
      [] {
        expand(
            "<xacro:macro name=\"leg\" params=\"name\">\n<link "
            "name=\"${name}_${side}\"/>\n</xacro:macro>\n<xacro:leg name=\"front\"/>\n");
      },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("/tmp/r.urdf.xacro"));
  EXPECT_THAT(e.message(), HasSubstr("in macro 'leg' called at line 6"));
  EXPECT_THAT(e.message(), HasSubstr("name 'side' is not defined"));
  EXPECT_THAT(e.hint(), HasSubstr("xacro robot.urdf.xacro > robot.urdf"));
  e = expect_error([] { expand("<xacro:macro name=\"leg\" params=\"name\"/>\n<xacro:leg/>\n"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("needs its parameter 'name'"));
  e = expect_error(
      [] { expand("<xacro:macro name=\"leg\" params=\"\"/>\n<xacro:leg side=\"1\"/>\n"); },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("has no parameter 'side'"));
  e = expect_error(
      [] {
        expand(
            "<xacro:macro name=\"loop\" params=\"\"><xacro:loop/></xacro:macro>\n<xacro:loop/>\n");
      },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("nest deeper than"));
  e = expect_error(
      [] { expand("<xacro:property name=\"p\" value=\"${p + 1}\"/><link name=\"${p}\"/>"); },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("defined in terms of itself"));
  e = expect_error([] { expand("<link name=\"x\"></joint>"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("malformed xacro file"));
}

TEST(Xacro, ErrorsInsideMacroBodiesAndIncludesNameTheirOwnLine) {
  TempDir dir;
  dir.write("parts.xacro", std::string(kHeader) +
                               "<xacro:macro name=\"part\" params=\"n\">\n  <link name=\"a\"/>\n  "
                               "<link name=\"${n / 0}\"/>\n</xacro:macro>\n</robot>\n");
  const auto file =
      dir.write("robot.urdf.xacro", std::string(kHeader) +
                                        "<xacro:include filename=\"parts.xacro\"/>\n<link "
                                        "name=\"x\"/>\n<xacro:part n=\"1\"/>\n</robot>\n");
  const Error e =
      expect_error([&] { xacro::expand(read_text(file), file.string()); }, ErrorCode::ParseError);
  // The failing line of the macro's file, and the line of the call.
  EXPECT_THAT(e.message(), HasSubstr("parts.xacro:5"));
  EXPECT_THAT(e.message(), HasSubstr("in macro 'part' called at line 5"));
  EXPECT_THAT(e.message(), HasSubstr("division by zero"));
  // Unknown parameters are reported before missing ones, as xacro does ("Invalid parameter").
  const Error unknown =
      expect_error([] { expand("<xacro:macro name=\"m\" params=\"a b\"/>\n<xacro:m c=\"1\"/>\n"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(unknown.message(), HasSubstr("has no parameter 'c'"));
}

// A block passed on is expanded in the caller's scope, as xacro does: an insert_block in it names
// the caller's block, not the callee's parameter of the same name (else it would insert itself).
TEST(Xacro, BlocksPassedOnAreExpandedWhereTheyArePassed) {
  const Expanded out(expand(R"X(
  <xacro:macro name="inner" params="*origin"><joint name="j"><xacro:insert_block name="origin"/></joint></xacro:macro>
  <xacro:macro name="outer" params="*origin"><xacro:inner><xacro:insert_block name="origin"/></xacro:inner></xacro:macro>
  <xacro:outer><origin xyz="1 2 3"/></xacro:outer>
)X"));
  ASSERT_NE(out.first("joint"), nullptr);
  EXPECT_STREQ(out.first("joint")->FirstChildElement("origin")->Attribute("xyz"), "1 2 3");
}

// A two-joint arm written the way robot packages write them: properties, a macro per joint with
// an *origin block, limits in degrees through radians().
constexpr const char* kArmXacro = R"X(<?xml version="1.0"?>
<robot name="$(arg name)" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:arg name="name" default="macro_arm"/>
  <xacro:property name="upper_length" value="0.5"/>
  <xacro:property name="lower_length" value="${upper_length * 0.8}"/>
  <xacro:macro name="arm_link" params="name length">
    <link name="${name}">
      <collision><origin xyz="0 0 ${length / 2}"/><geometry><cylinder radius="0.04" length="${length}"/></geometry></collision>
    </link>
  </xacro:macro>
  <xacro:macro name="arm_joint" params="name parent child limit_deg:=170 *origin">
    <joint name="${name}" type="revolute">
      <parent link="${parent}"/><child link="${child}"/>
      <xacro:insert_block name="origin"/>
      <axis xyz="0 1 0"/>
      <limit lower="${-radians(limit_deg)}" upper="${radians(limit_deg)}" effort="10" velocity="${pi}"/>
    </joint>
  </xacro:macro>
  <link name="base"/>
  <xacro:arm_link name="upper" length="${upper_length}"/>
  <xacro:arm_link name="lower" length="${lower_length}"/>
  <link name="tool"/>
  <xacro:arm_joint name="shoulder" parent="base" child="upper"><origin xyz="0 0 0.1"/></xacro:arm_joint>
  <xacro:arm_joint name="elbow" parent="upper" child="lower" limit_deg="120"><origin xyz="0 0 ${upper_length}"/></xacro:arm_joint>
  <joint name="tool_mount" type="fixed"><parent link="lower"/><child link="tool"/><origin xyz="0 0 ${lower_length}"/></joint>
</robot>
)X";

TEST(XacroRobots, AnArmBuiltFromMacrosLoadsWithItsKinematics) {
  TempDir dir;
  const auto file = dir.write("macro_arm.urdf.xacro", kArmXacro);
  const RobotModelPtr model = load_robot_file(file.string());
  EXPECT_EQ(model->name(), "macro_arm");
  ASSERT_EQ(model->dof(), 2);
  EXPECT_NEAR(model->upper_limits()[0], 170.0 * std::numbers::pi / 180.0, 1e-12);
  EXPECT_NEAR(model->lower_limits()[1], -120.0 * std::numbers::pi / 180.0, 1e-12);
  const KinematicChain chain(model, "base", "tool");
  // Straight up: 0.1 + 0.5 + 0.4; elbow at 90 degrees about +Y swings the forearm to +X.
  EXPECT_NEAR(chain.fk(JointVector::Zero(2)).translation().z(), 1.0, 1e-12);
  const Pose bent = chain.fk((JointVector(2) << 0.0, std::numbers::pi / 2).finished());
  EXPECT_NEAR(bent.translation().x(), 0.4, 1e-12);
  EXPECT_NEAR(bent.translation().z(), 0.6, 1e-12);

  LoadOptions renamed;
  renamed.xacro_args = {{"name", "renamed_arm"}};
  EXPECT_EQ(load_robot_file(file.string(), "", "", renamed)->name(), "renamed_arm");
}

TEST(XacroRobots, TheSharedPandaIncludedThroughFindMatchesItsUrdf) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  TempDir dir;
  const std::string panda_dir = test::example_robot_data_dir() + "/robots/panda_description";
  const auto file = dir.write("panda.urdf.xacro", R"X(<?xml version="1.0"?>
<robot name="panda" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:include filename="$(find example-robot-data)/robots/panda_description/urdf/panda.urdf"/>
</robot>
)X");
  // The SRDF beside robot.urdf.xacro is found by the name "panda", as for panda.urdf.
  std::filesystem::copy_file(panda_dir + "/srdf/panda.srdf", dir.path() / "panda.srdf");
  EXPECT_EQ(find_robot_companions(file.string()).srdf.relative, "panda.srdf");

  LoadOptions options;
  options.package_paths = {test::shared_robots_dir()};
  options.require_meshes = true;
  const RobotModelPtr through_xacro =
      load_robot_file(file.string(), (dir.path() / "panda.srdf").string(), "", options);
  const RobotModelPtr direct =
      load_robot_file(panda_dir + "/urdf/panda.urdf", panda_dir + "/srdf/panda.srdf", "", options);
  ASSERT_EQ(through_xacro->dof(), direct->dof());
  ASSERT_EQ(through_xacro->included_files().size(), 1u);
  EXPECT_EQ(std::filesystem::path(through_xacro->included_files()[0]),
            std::filesystem::path(panda_dir + "/urdf/panda.urdf").lexically_normal());
  EXPECT_TRUE(direct->included_files().empty());
  EXPECT_EQ(through_xacro->variable_names(), direct->variable_names());
  EXPECT_TRUE(through_xacro->lower_limits().isApprox(direct->lower_limits()));
  EXPECT_TRUE(through_xacro->upper_limits().isApprox(direct->upper_limits()));
  const KinematicChain a = KinematicChain::from_config(through_xacro, "arm");
  const KinematicChain b = KinematicChain::from_config(direct, "arm");
  const JointVector q = (JointVector(7) << 0.3, -0.5, 0.2, -2.0, 0.1, 1.6, 0.7).finished();
  EXPECT_TRUE(a.fk(q).isApprox(b.fk(q), 1e-12));
}

// A URDF that xacro wrote keeps the xacro namespace declaration and nothing else of xacro: it
// is read as it is, so a message names the file's own line (expanded, the text would be
// re-serialised and the lines shifted), and nothing says "expanded from xacro".
TEST(XacroRobots, AUrdfXacroWroteIsReadLineForLine) {
  EXPECT_FALSE(xacro::uses_xacro(R"(<robot name="a" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/></robot>)"));
  EXPECT_TRUE(xacro::uses_xacro(R"(<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <xacro:property name="w" value="1"/></robot>)"));
  EXPECT_TRUE(xacro::uses_xacro(R"(<robot xmlns:x='http://wiki.ros.org/xacro'><x:if value="1"/>
  </robot>)"));
  EXPECT_TRUE(xacro::uses_xacro(R"(<robot xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="${name}"/></robot>)"));
  EXPECT_TRUE(xacro::uses_xacro(R"(<robot xmlns="http://www.ros.org/wiki/xacro"/>)"));

  TempDir dir;
  const auto file = dir.write("generated_arm.urdf", R"X(<?xml version="1.0" ?>
<!-- =================================================================================== -->
<!-- |    This document was autogenerated by xacro from generated_arm.urdf.xacro       | -->
<!-- =================================================================================== -->
<robot name="generated_arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/>
  <link name="upper"/>
  <link name="finger"/>
  <joint name="shoulder" type="revolute">
    <parent link="base"/><child link="upper"/><axis xyz="0 0 1"/>
    <limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="finger_joint" type="fixed">
    <parent link="upper"/><child link="finger"/>
    <mimic joint="shoulder"/>
  </joint>
</robot>
)X");
  const RobotModelPtr model = load_robot_file(file.string());
  EXPECT_EQ(model->dof(), 1);
  const std::vector<std::string>& warnings = model->load_warnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("generated_arm.urdf:13: fixed joint 'finger_joint'"));
  EXPECT_THAT(warnings[0], Not(HasSubstr("expanded from xacro")));
}

TEST(XacroRobots, ABrokenXacroIsAParseErrorNamingTheLine) {
  TempDir dir;
  const auto file =
      dir.write("broken.urdf.xacro",
                std::string(kHeader) + "<link name=\"${undefined_width}\"/>\n</robot>\n");
  const Error e = expect_error([&] { load_robot_file(file.string()); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("broken.urdf.xacro:3"));
  EXPECT_THAT(e.message(), HasSubstr("undefined_width"));
}

}  // namespace
}  // namespace kinetic
