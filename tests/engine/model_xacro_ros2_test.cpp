// The ROS 2 xacro features real packages use (issue 37): xacro.load_yaml with dict and list
// access, $(arg)/$(find) inside ${}, dict(), keyword arguments, Python built-ins and string
// methods, xacro.warning / print_location, YAML typed as PyYAML types it, and YAML errors that
// name the file and line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <tinyxml2.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <numbers>
#include <string>
#include <vector>

#include "engine/model/package_resolver.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model/robot_model.hpp"
#include "engine/model/xacro/xacro_expression.hpp"
#include "engine/model/xacro/xacro_processor.hpp"
#include "engine/model/xacro/xacro_yaml.hpp"
#include "engine/model_test_helpers.hpp"
#include "support/test_paths.hpp"

namespace kinetic {
namespace {

using test::expect_error;
using test::TempDir;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ros2_eval(const std::string& expression) {
  return xacro::evaluate(expression, [](const std::string&) { return std::nullopt; }).str();
}

std::string read_ros2_text(const std::filesystem::path& path) {
  std::ifstream file(path);
  return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

constexpr const char* kRos2Header =
    "<?xml version=\"1.0\"?>\n<robot name=\"r\" xmlns:xacro=\"http://www.ros.org/wiki/xacro\">\n";

TEST(XacroRos2, PythonBuiltinsAndMethodsPackagesUse) {
  EXPECT_EQ(ros2_eval("dict(joint_1=0.0, joint_2=1)['joint_2']"), "1");
  EXPECT_EQ(ros2_eval("dict(a=1).get('b', 'none')"), "none");
  EXPECT_EQ(ros2_eval("{'a': [1, 2]}['a'][1]"), "2");
  EXPECT_EQ(ros2_eval("len({'a': 1, 'b': 2})"), "2");
  EXPECT_EQ(ros2_eval("'b' in {'a': 1, 'b': 2}"), "True");
  EXPECT_EQ(ros2_eval("sorted(dict(b=1, a=2).keys())"), "['a', 'b']");
  EXPECT_EQ(ros2_eval("'_'.join(['left', 'arm'])"), "left_arm");
  EXPECT_EQ(ros2_eval("'Arm'.upper() + 'Arm'.lower()"), "ARMarm");
  EXPECT_EQ(ros2_eval("'a b  c'.split()"), "['a', 'b', 'c']");
  EXPECT_EQ(ros2_eval("'a,b'.split(',')[1]"), "b");
  EXPECT_EQ(ros2_eval("'left_arm'.replace('left', 'right')"), "right_arm");
  EXPECT_EQ(ros2_eval("'gen3_lite'.startswith('gen3')"), "True");
  EXPECT_EQ(ros2_eval("'{}_{:.2f}'.format('x', 0.5)"), "x_0.50");
  EXPECT_EQ(ros2_eval("str(sum(range(5))) + str(max([3, 1]))"), "103");
  EXPECT_EQ(ros2_eval("any([0, 1]) and not all([0, 1])"), "True");
  EXPECT_EQ(ros2_eval("list('ab')"), "['a', 'b']");
  EXPECT_EQ(ros2_eval("None is None"), "True");
  EXPECT_EQ(ros2_eval("int('12') // 5"), "2");
  EXPECT_EQ(ros2_eval("float('inf') > 1e308"), "True");
  const Error e = expect_error([] { ros2_eval("dict(a=1)['b']"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("KeyError: 'b' is not a key"));
  EXPECT_THAT(e.message(), HasSubstr("keys: a"));
  // Errors of Kinetic's own kind, never a stray std::out_of_range.
  EXPECT_THAT(
      expect_error([] { ros2_eval("'{99999999999999999999}'.format(1)"); }, ErrorCode::ParseError)
          .message(),
      HasSubstr("no argument"));
}

TEST(XacroRos2, YamlScalarsAreTypedAsPyYamlTypesThem) {
  EXPECT_EQ(xacro::value_of_yaml_scalar("12").kind, xacro::Value::Kind::Int);
  EXPECT_EQ(xacro::value_of_yaml_scalar("-0x1f").integer, -31);
  EXPECT_EQ(xacro::value_of_yaml_scalar("1.5").kind, xacro::Value::Kind::Float);
  EXPECT_EQ(xacro::value_of_yaml_scalar("1e3").kind,
            xacro::Value::Kind::String);  // PyYAML: a float needs a '.'
  EXPECT_EQ(xacro::value_of_yaml_scalar("yes").kind, xacro::Value::Kind::Bool);
  EXPECT_EQ(xacro::value_of_yaml_scalar("~").kind, xacro::Value::Kind::None);
  EXPECT_EQ(xacro::value_of_yaml_scalar("-.inf").str(), "-inf");
  EXPECT_EQ(xacro::value_of_yaml_scalar("joint_1").str(), "joint_1");
}

TEST(XacroRos2, LoadYamlArgsInsideExpressionsAndWarnings) {
  TempDir dir;
  dir.write("config/limits.yaml", R"Y(
initial_positions:
  joint_1: 0.5
  joint_2: -1
arm:
  name: "left"
  links: [base, upper, lower]
  reach: !degrees 90
  quoted: '12'
)Y");
  const auto file = dir.write("robot.urdf.xacro", std::string(kRos2Header) + R"X(
  <xacro:arg name="n" default="2"/>
  <xacro:property name="cfg" value="${xacro.load_yaml('config/limits.yaml')}"/>
  <xacro:property name="initial" value="${xacro.load_yaml('$(dirname)/config/limits.yaml')['initial_positions']}"/>
  <link name="${cfg['arm']['name']}_${cfg.arm.links[-1]}" a="${initial['joint_1']}" b="${initial.get('joint_3', 0.0)}"
        c="${len(cfg['arm']['links'])}" d="${cfg['arm']['reach']}" e="${cfg['arm']['quoted'] + '!'}"/>
  <xacro:if value="${2 == $(arg n)}"><link name="two"/></xacro:if>
  <xacro:if value="${'$(arg n)' == '2' and xacro.arg('n') == '2'}"><link name="text_two"/></xacro:if>
  <xacro:property name="unused" value="${xacro.warning('check this')}" lazy_eval="false"/>
</robot>
)X");
  xacro::ExpandOptions options;
  std::vector<std::string> warnings;
  options.warn = [&](const std::string& w) { warnings.push_back(w); };
  std::vector<std::string> included;
  const std::string text = xacro::expand(read_ros2_text(file), file.string(), options, &included);
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.Parse(text.c_str()), tinyxml2::XML_SUCCESS) << text;
  const tinyxml2::XMLElement* link = doc.RootElement()->FirstChildElement("link");
  EXPECT_STREQ(link->Attribute("name"), "left_lower");
  EXPECT_STREQ(link->Attribute("a"), "0.5");
  EXPECT_STREQ(link->Attribute("b"), "0.0");
  EXPECT_STREQ(link->Attribute("c"), "3");
  EXPECT_NEAR(link->DoubleAttribute("d"), std::numbers::pi / 2, 1e-15);
  EXPECT_STREQ(link->Attribute("e"), "12!");
  EXPECT_STREQ(link->NextSiblingElement("link")->Attribute("name"), "two");
  EXPECT_STREQ(link->NextSiblingElement("link")->NextSiblingElement("link")->Attribute("name"),
               "text_two");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("robot.urdf.xacro"));
  EXPECT_THAT(warnings[0], HasSubstr("check this"));
  EXPECT_THAT(included, ElementsAre((dir.path() / "config/limits.yaml").string()));
}

TEST(XacroRos2, ABrokenYamlNamesItsFileAndLine) {
  TempDir dir;
  dir.write("bad.yaml", "a: 1\nb: [1, 2\nc: 3\n");
  const auto file = dir.write(
      "robot.urdf.xacro", std::string(kRos2Header) +
                              "<link name=\"${xacro.load_yaml('bad.yaml')['a']}\"/>\n</robot>\n");
  const Error e = expect_error([&] { xacro::expand(read_ros2_text(file), file.string()); },
                               ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("bad.yaml:"));
  EXPECT_THAT(e.message(), HasSubstr("the YAML does not parse"));
  EXPECT_THAT(e.message(), HasSubstr("robot.urdf.xacro:3"));
}

// A search path is crawled as a ROS workspace is: a package six folders down is found by the name
// in its package.xml; one under COLCON_IGNORE, or inside another package, is not.
TEST(XacroRos2, FindSearchesAWorkspaceHoweverDeep) {
  TempDir dir;
  const std::string package_xml = "<package format=\"3\"><name>arm_description</name></package>";
  dir.write("ws/src/vendor/robots/arms/v2/arm_pkg/package.xml", package_xml);
  dir.write("ws/src/ignored/COLCON_IGNORE", "");
  dir.write("ws/src/ignored/hidden_pkg/package.xml",
            "<package format=\"3\"><name>hidden_description</name></package>");
  dir.write("ws/src/outer/package.xml", "<package format=\"3\"><name>outer</name></package>");
  dir.write("ws/src/outer/inner/package.xml",
            "<package format=\"3\"><name>inner_description</name></package>");
  const PackageResolver resolver("", {(dir.path() / "ws").string()});
  const auto found = resolver.find_package("arm_description");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(std::filesystem::path(*found).filename(), "arm_pkg");
  EXPECT_FALSE(resolver.find_package("hidden_description").has_value());
  EXPECT_FALSE(resolver.find_package("inner_description").has_value());
}

// The ROS 2 descriptions issue 37 names, opened through the engine's loader as shipped: Kinova's
// Gen3 (load_yaml of its initial positions, $(arg) everywhere) and the Gen3 lite MoveIt config
// (the deprecated load_yaml), with every mesh found through the package search path.
TEST(XacroRos2, KinovaDescriptionsLoadThroughTheEngine) {
  KINETIC_REQUIRE_SHARED_ROBOTS();
  const std::string shared = test::shared_robots_dir();
  LoadOptions options;
  options.package_paths = {shared};
  options.require_meshes = true;
  options.xacro_args = {{"robot_ip", "xxx.yyy.zzz.www"},
                        {"name", "kinova"},
                        {"arm", "gen3"},
                        {"gripper", ""},
                        {"dof", "7"}};
  const RobotModelPtr gen3 = load_robot_file(
      shared + "/ros2_kortex/kortex_description/robots/kinova.urdf.xacro", "", "", options);
  EXPECT_EQ(gen3->name(), "kinova");
  EXPECT_EQ(gen3->dof(), 7);
  // With its Robotiq 2F-85 (another package, found through the search path): the gripper adds
  // its finger joint (the others mimic it).
  options.xacro_args["gripper"] = "robotiq_2f_85";
  const RobotModelPtr with_gripper = load_robot_file(
      shared + "/ros2_kortex/kortex_description/robots/kinova.urdf.xacro", "", "", options);
  EXPECT_EQ(with_gripper->dof(), 8);
  EXPECT_GE(with_gripper->find_joint("robotiq_85_left_knuckle_joint"), 0);
  options.xacro_args = {};
  const RobotModelPtr lite =
      load_robot_file(shared +
                          "/ros2_kortex/kortex_moveit_config/kinova_gen3_lite_moveit_config/config/"
                          "gen3_lite.urdf.xacro",
                      "", "", options);
  EXPECT_GE(lite->dof(), 6);
  EXPECT_THAT(lite->included_files(), ::testing::Contains(HasSubstr("initial_positions.yaml")));
  // ROS's xacro warns about this package's bare load_yaml(); so does the model's load report.
  EXPECT_THAT(lite->load_warnings(),
              ::testing::Contains(HasSubstr("Using load_yaml() directly is deprecated")));
}

}  // namespace
}  // namespace kinetic
