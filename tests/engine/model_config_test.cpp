// kinetic.toml, SRDF and the built-in robot library (on a small test library in
// tests/data/robot_library, so these tests do not depend on robot_configs/).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "engine/core/error.hpp"
#include "engine/model/config_loader.hpp"
#include "engine/model/robot_loader.hpp"
#include "engine/model/srdf_loader.hpp"
#include "engine/model_test_helpers.hpp"

namespace kinetic {
namespace {

namespace fs = std::filesystem;
using test::data_dir;
using test::expect_error;
using test::ScopedEnv;
using test::TempDir;
using ::testing::HasSubstr;

fs::path library_dir() {
  return data_dir() / "robot_library";
}

class BuiltinLibrary : public ::testing::Test {
 protected:
  ScopedEnv env_{"KINETIC_ROBOT_CONFIGS", library_dir().string()};
};

// --- kinetic.toml ----------------------------------------------------------------------------

TEST(KineticToml, ParsesEverySection) {
  std::vector<std::string> warnings;
  const RobotConfig c = parse_robot_config(R"(
[robot]
name = "ur5e"
manufacturer = "Universal Robots"
model = "UR5e"
urdf = "ur5e.urdf"
srdf = "ur5e.srdf"

[planning_group.zz_arm]
chain = ["base_link", "tool0"]
[planning_group.aa_wrist]
joints = ["j4", "j5", "j6"]

[end_effector.tool]
group = "zz_arm"
parent_link = "tool0"
tcp_xyz = [0.0, 0.0, 0.15]
tcp_rpy = [0.0, 0.0, 1.5707963267948966]

[ik]
solver = "opw"
group = "zz_arm"
position_tolerance = 1e-6
orientation_tolerance = 1e-5
timeout_ms = 2
max_iterations = 50
redundant_joint = "j3"
sweep_samples = 8
[ik.opw]
a1 = 0.1
a2 = -0.135
b = 0
c1 = 0.615
c2 = 0.705
c3 = 0.755
c4 = 0.085
offsets = [0.0, -1.5707963267948966, 0.0, 0.0, 0.0, 3.141592653589793]
sign_corrections = [1, 1, 1, -1, 1, 1]
[ik.ur]
d1 = 0.1625
a2 = -0.425
a3 = -0.3922
d4 = 0.1333
d5 = 0.0997
d6 = 0.0996

[named_poses]
home = [0.0, -1.57, 1.57, -1.57, -1.57, 0.0]

[limits]
default_acceleration = 4.0
acceleration = { j1 = 3.0 }
jerk = { j2 = 30 }

[collision]
padding = 0.02
skip_pairs = [["base_link", "shoulder_link"]]

[validation]
home_tcp_xyz = [0.1, 0.2, 0.3]
tolerance = 1e-4
)",
                                           "test.toml", &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(c.name, "ur5e");
  EXPECT_EQ(c.manufacturer, "Universal Robots");
  EXPECT_EQ(c.model, "UR5e");
  EXPECT_EQ(c.urdf, "ur5e.urdf");
  EXPECT_EQ(c.srdf, "ur5e.srdf");
  ASSERT_EQ(c.planning_groups.size(), 2u);
  EXPECT_EQ(c.planning_groups[0].name, "zz_arm");  // document order, not alphabetical
  EXPECT_EQ(c.planning_groups[0].base_link, "base_link");
  EXPECT_EQ(c.planning_groups[0].tip_link, "tool0");
  EXPECT_EQ(c.planning_groups[1].joints, (std::vector<std::string>{"j4", "j5", "j6"}));
  ASSERT_EQ(c.end_effectors.size(), 1u);
  EXPECT_EQ(c.end_effectors[0].name, "tool");
  EXPECT_EQ(c.end_effectors[0].parent_link, "tool0");
  EXPECT_TRUE(c.end_effectors[0].tcp.translation().isApprox(Vector3(0, 0, 0.15)));
  EXPECT_TRUE(c.end_effectors[0].tcp.linear().isApprox(rotation_from_rpy(0, 0, M_PI / 2)));
  EXPECT_EQ(c.ik.solver, "opw");
  EXPECT_EQ(c.ik.group, "zz_arm");
  EXPECT_DOUBLE_EQ(c.ik.position_tolerance, 1e-6);
  EXPECT_DOUBLE_EQ(c.ik.orientation_tolerance, 1e-5);
  EXPECT_DOUBLE_EQ(c.ik.timeout_ms, 2.0);
  EXPECT_EQ(c.ik.max_iterations, 50);
  EXPECT_EQ(c.ik.redundant_joint, "j3");
  EXPECT_EQ(c.ik.sweep_samples, 8);
  ASSERT_TRUE(c.ik.opw.has_value());
  EXPECT_DOUBLE_EQ(c.ik.opw->c4, 0.085);
  EXPECT_DOUBLE_EQ(c.ik.opw->offsets[5], M_PI);
  EXPECT_EQ(c.ik.opw->sign_corrections[3], -1);
  ASSERT_TRUE(c.ik.ur.has_value());
  EXPECT_DOUBLE_EQ(c.ik.ur->d6, 0.0996);
  ASSERT_EQ(c.named_poses.count("home"), 1u);
  EXPECT_EQ(c.named_poses.at("home").size(), 6u);
  EXPECT_DOUBLE_EQ(c.default_acceleration, 4.0);
  EXPECT_DOUBLE_EQ(c.acceleration_limits.at("j1"), 3.0);
  EXPECT_DOUBLE_EQ(c.jerk_limits.at("j2"), 30.0);
  EXPECT_DOUBLE_EQ(c.collision.padding, 0.02);
  ASSERT_EQ(c.collision.skip_pairs.size(), 1u);
  EXPECT_EQ(c.collision.skip_pairs[0].second, "shoulder_link");
  ASSERT_TRUE(c.validation.home_tcp_position.has_value());
  EXPECT_TRUE(c.validation.home_tcp_position->isApprox(Vector3(0.1, 0.2, 0.3)));
  EXPECT_DOUBLE_EQ(c.validation.tolerance, 1e-4);
}

TEST(KineticToml, DefaultsAndUnknownKeys) {
  std::vector<std::string> warnings;
  const RobotConfig c = parse_robot_config(
      "[robot]\nname = \"x\"\ncolour = \"red\"\n[ik]\nsolvr = \"opw\"\n", "t.toml", &warnings);
  EXPECT_EQ(c.urdf, "robot.urdf");
  EXPECT_EQ(c.ik.solver, "auto");
  EXPECT_DOUBLE_EQ(c.ik.position_tolerance, 1e-4);
  EXPECT_DOUBLE_EQ(c.ik.orientation_tolerance, 1e-3);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_THAT(warnings[0], HasSubstr("t.toml:3"));
  EXPECT_THAT(warnings[0], HasSubstr("robot.colour"));
  EXPECT_THAT(warnings[1], HasSubstr("ik.solvr"));
  EXPECT_THAT(warnings[1], HasSubstr("'solver'"));  // suggestion
}

TEST(KineticToml, FormatVersionIsOneWhenLeftOutAndANewerOneIsRefused) {
  std::vector<std::string> warnings;
  EXPECT_EQ(
      parse_robot_config("format_version = 1\n[robot]\nname = \"x\"\n", "v1.toml", &warnings).name,
      "x");
  EXPECT_TRUE(warnings.empty());  // a known key
  EXPECT_EQ(parse_robot_config("[robot]\nname = \"y\"\n", "none.toml").name, "y");
  Error e = expect_error(
      [] { parse_robot_config("format_version = 2\n[robot]\nname = \"x\"\n", "v2.toml"); },
      ErrorCode::Unsupported);
  EXPECT_THAT(e.message(),
              HasSubstr("v2.toml: format_version 2 is newer than this build reads (1)"));
  e = expect_error([] { parse_robot_config("format_version = 0\n", "v0.toml"); },
                   ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'format_version'"));
  e = expect_error([] { parse_robot_config("format_version = \"1\"\n", "text.toml"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("an integer"));
}

TEST(KineticToml, BadValuesNameTheKeyAndLine) {
  Error e = expect_error([] { parse_robot_config("[ik]\n\ntimeout_ms = \"fast\"\n", "bad.toml"); },
                         ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("bad.toml:3"));
  EXPECT_THAT(e.message(), HasSubstr("'ik.timeout_ms'"));
  EXPECT_THAT(e.message(), HasSubstr("a number"));

  e = expect_error([] { parse_robot_config("[ik]\nsolver = \"magic\"\n", "bad.toml"); },
                   ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'ik.solver'"));
  EXPECT_THAT(e.message(), HasSubstr("bad.toml:2"));

  e = expect_error([] { parse_robot_config("[ik]\nposition_tolerance = -1.0\n", "bad.toml"); },
                   ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'ik.position_tolerance'"));

  e = expect_error(
      [] {
        parse_robot_config("[end_effector.tool]\ntcp_xyz = [0.0, 1.0]\nparent_link = \"t\"\n",
                           "bad.toml");
      },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("'end_effector.tool.tcp_xyz'"));
  EXPECT_THAT(e.message(), HasSubstr("3 values"));

  e = expect_error([] { parse_robot_config("[end_effector.tool]\ngroup = \"arm\"\n", "bad.toml"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("end_effector.tool.parent_link"));
  EXPECT_THAT(e.message(), HasSubstr("missing"));

  e = expect_error(
      [] { parse_robot_config("[planning_group.arm]\nchain = [\"a\", 3]\n", "bad.toml"); },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("planning_group.arm.chain[1]"));

  e = expect_error([] { parse_robot_config("[planning_group.arm]\n", "bad.toml"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("planning_group.arm.chain"));

  e = expect_error([] { parse_robot_config("[ik.opw]\na1 = 0.1\n", "bad.toml"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("'ik.opw.a2'"));

  e = expect_error(
      [] { parse_robot_config("[limits]\nacceleration = { j1 = -2.0 }\n", "bad.toml"); },
      ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("limits.acceleration.j1"));

  e = expect_error([] { parse_robot_config("robot = 3\n", "bad.toml"); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("'robot'"));

  // TOML syntax.
  e = expect_error([] { parse_robot_config("[robot]\nname = \"x\"\nmodel = \n", "bad.toml"); },
                   ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("bad.toml:3"));

  expect_error([] { load_robot_config_file("/nonexistent/kinetic.toml"); },
               ErrorCode::FileNotFound);
}

TEST(KineticToml, CrossCheckedAgainstTheModel) {
  const std::string urdf = (library_dir() / "tiny_arm" / "robot.urdf").string();
  TempDir dir;
  auto load_with = [&](const std::string& toml) {
    const fs::path file = dir.write("kinetic.toml", toml);
    return load_robot_file(urdf, "", file.string());
  };
  Error e =
      expect_error([&] { load_with("[planning_group.arm]\nchain = [\"base_link\", \"tool1\"]\n"); },
                   ErrorCode::MissingLink);
  EXPECT_THAT(e.message(), HasSubstr("'tool1'"));
  EXPECT_THAT(e.message(), HasSubstr("planning_group.arm.chain"));
  EXPECT_THAT(e.message(), HasSubstr("kinetic.toml"));
  EXPECT_THAT(e.hint(), HasSubstr("'tool0'"));

  e = expect_error([&] { load_with("[planning_group.arm]\njoints = [\"joint1\", \"joint4\"]\n"); },
                   ErrorCode::MissingJoint);
  EXPECT_THAT(e.message(), HasSubstr("'joint4'"));

  e = expect_error(
      [&] { load_with("[planning_group.arm]\njoints = [\"joint1\", \"tool_joint\"]\n"); },
      ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'tool_joint'"));

  e = expect_error([&] { load_with("[planning_group.arm]\nchain = [\"tool0\", \"base_link\"]\n"); },
                   ErrorCode::InvalidModel);

  e = expect_error([&] { load_with("[limits]\nacceleration = { joint9 = 1.0 }\n"); },
                   ErrorCode::MissingJoint);
  EXPECT_THAT(e.message(), HasSubstr("limits.acceleration.joint9"));

  e = expect_error([&] { load_with("[collision]\nskip_pairs = [[\"base_link\", \"nowhere\"]]\n"); },
                   ErrorCode::MissingLink);

  e = expect_error(
      [&] { load_with("[end_effector.t]\ngroup = \"arm\"\nparent_link = \"tool0\"\n"); },
      ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'arm'"));

  e = expect_error(
      [&] {
        load_with(
            "[planning_group.arm]\nchain = [\"base_link\", \"tool0\"]\n"
            "[named_poses]\nhome = [0.0, 1.0]\n");
      },
      ErrorCode::DimensionMismatch);
  EXPECT_THAT(e.message(), HasSubstr("'home'"));
  EXPECT_THAT(e.message(), HasSubstr("2 values"));

  e = expect_error([&] { load_with("[named_poses]\nhome = [0.0, nan, 1.0]\n"); },
                   ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'home'"));
  EXPECT_THAT(e.message(), HasSubstr("'joint2'"));
  EXPECT_THAT(e.message(), HasSubstr("NaN"));

  e = expect_error([&] { load_with("[named_poses]\nhome = [0.0, 0.0, inf]\n"); },
                   ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(), HasSubstr("'joint3'"));
}

TEST(KineticToml, IntegerKeysOutsideTheirRangeAreRefused) {
  // Stored as int: 2^31 used to wrap to a negative count, and 2^32 + 200 to 200.
  for (const std::string value : {"2147483648", "4294967496", "1000001", "0", "-5"}) {
    const Error e = expect_error(
        [&] { parse_robot_config("[ik]\nmax_iterations = " + value + "\n", "bad.toml"); },
        ErrorCode::InvalidValue);
    EXPECT_THAT(e.message(), HasSubstr("bad.toml:2"));
    EXPECT_THAT(e.message(), HasSubstr("'ik.max_iterations' is " + value +
                                       "; use an integer from 1 to 1000000"));
  }
  const Error e =
      expect_error([] { parse_robot_config("[ik]\nsweep_samples = 2147483648\n", "bad.toml"); },
                   ErrorCode::InvalidValue);
  EXPECT_THAT(e.message(),
              HasSubstr("'ik.sweep_samples' is 2147483648; use an integer from 1 to 10000"));
  // Not an integer, but turned into a deadline in nanoseconds: 1e13 ms overflowed it.
  const Error timeout = expect_error(
      [] { parse_robot_config("[ik]\ntimeout_ms = 1e13\n", "bad.toml"); }, ErrorCode::InvalidValue);
  EXPECT_THAT(timeout.message(),
              HasSubstr("'ik.timeout_ms' is 1e+13; use at most 3600000 (one hour)"));
  const RobotConfig c = parse_robot_config(
      "[ik]\nmax_iterations = 1000000\nsweep_samples = 10000\ntimeout_ms = 3600000\n", "ok.toml");
  EXPECT_EQ(c.ik.max_iterations, 1000000);
  EXPECT_EQ(c.ik.sweep_samples, 10000);
}

// toml++ nests tables recursively: a dotted key or table header of 100,000 parts (a 200 kB file)
// overflowed the stack. More than 64 parts is refused before toml++ reads the text; the numbers of
// an array continued over lines are not key parts.
TEST(KineticToml, AKeyOfTooManyDottedPartsIsRefusedBeforeTomlReadsIt) {
  std::string dotted = "a";
  for (int i = 0; i < 100000; ++i) dotted += ".a";
  for (const std::string& deep :
       {dotted + " = 1\n", "[" + dotted + "]\nx = 1\n", "[[" + dotted + "]]\n"}) {
    const Error e =
        expect_error([&] { parse_robot_config("[robot]\nname = \"r\"\n" + deep, "deep.toml"); },
                     ErrorCode::ParseError);
    EXPECT_THAT(e.message(), HasSubstr("deep.toml:3: a key of more than 64 dotted parts"));
  }
  std::string values;
  for (int i = 0; i < 100; ++i) values += "0.5, ";
  std::vector<std::string> warnings;
  const RobotConfig c =
      parse_robot_config("[named_poses]\nhome = [\n  " + values + "\n  " + values +
                             "]\n"
                             "[limits.acceleration]\njoint1 = 1.0\n",
                         "ok.toml", &warnings);
  EXPECT_EQ(c.named_poses.at("home").size(), 200u);
}

// --- SRDF ------------------------------------------------------------------------------------

TEST(Srdf, ReadsGroupsStatesEndEffectorsVirtualJointsAndPairs) {
  const fs::path dir = library_dir() / "tiny_gripper";
  const auto model = load_robot_file((dir / "robot.urdf").string(), (dir / "robot.srdf").string());
  const SemanticModel& s = model->semantic();
  EXPECT_EQ(s.robot_name, "tiny_gripper");
  ASSERT_EQ(s.groups.size(), 3u);
  EXPECT_EQ(s.groups[0].name, "arm");
  ASSERT_EQ(s.groups[0].chains.size(), 1u);
  EXPECT_EQ(s.groups[0].chains[0], (std::pair<std::string, std::string>("base", "hand")));
  EXPECT_EQ(s.groups[1].joints,
            (std::vector<std::string>{"finger_left_joint", "finger_right_joint"}));
  EXPECT_EQ(s.groups[2].subgroups, (std::vector<std::string>{"arm", "gripper"}));
  ASSERT_EQ(s.group_states.size(), 2u);
  EXPECT_EQ(s.group_states[0].name, "open");
  EXPECT_EQ(s.group_states[0].group, "gripper");
  EXPECT_DOUBLE_EQ(s.group_states[0].joint_values.at("finger_left_joint"), 0.04);
  ASSERT_EQ(s.end_effectors.size(), 1u);
  EXPECT_EQ(s.end_effectors[0].parent_link, "hand");
  EXPECT_EQ(s.end_effectors[0].group, "gripper");
  EXPECT_EQ(s.end_effectors[0].parent_group, "arm");
  ASSERT_EQ(s.virtual_joints.size(), 1u);
  EXPECT_EQ(s.virtual_joints[0].type, "fixed");
  EXPECT_EQ(s.virtual_joints[0].parent_frame, "world");
  ASSERT_EQ(s.disabled_collisions.size(), 2u);
  EXPECT_EQ(s.disabled_collisions[1].reason, "Adjacent");

  // Groups resolve to variables (SRDF groups in model order; the mimic finger is not a variable).
  EXPECT_EQ(model->group_variables("arm"), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(model->group_variables("gripper"), (std::vector<int>{3}));
  EXPECT_EQ(model->group_variables("everything"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(model->group_variables(""), (std::vector<int>{0, 1, 2, 3}));  // no kinetic.toml groups
  const Error e = expect_error([&] { model->group_variables("grippr"); }, ErrorCode::InvalidValue);
  EXPECT_THAT(e.hint(), HasSubstr("'gripper'"));

  // Group states as named poses (other joints at zero).
  EXPECT_TRUE(model->named_pose("open").isApprox(Eigen::Vector4d(0, 0, 0, 0.04)));
  EXPECT_TRUE(model->named_pose("home").isApprox(Eigen::Vector4d(0.1, 0.2, 0.3, 0)));
  EXPECT_EQ(model->named_pose_names(), (std::vector<std::string>{"open", "home"}));
}

// A revolute joint's state value outside its limits by whole turns is the same posture: taken a
// turn on, with a warning. Values no turn brings within the limits, continuous and prismatic
// joints are taken as written.
TEST(Srdf, StateValuesAWholeTurnOutsideTheLimitsAreTurnedIn) {
  const fs::path urdf = library_dir() / "tiny_gripper" / "robot.urdf";
  TempDir dir;
  const fs::path srdf = dir.write(
      "robot.srdf",
      "<robot name=\"tiny_gripper\">\n<group name=\"arm\"><chain base_link=\"base\" "
      "tip_link=\"hand\"/></group>\n"
      "<group_state name=\"turned\" group=\"arm\">\n"
      "<joint name=\"shoulder\" value=\"-6.0\"/>\n"   // -6 + 2pi = 0.283: within [-1.5, 1.5]
      "<joint name=\"elbow\" value=\"3.0\"/>\n"       // 3 - 2pi = -3.28: outside [-2, 2] too
      "<joint name=\"wrist_roll\" value=\"9.0\"/>\n"  // continuous: any value
      "</group_state>\n</robot>\n");
  const auto model = load_robot_file(urdf.string(), srdf.string());
  const JointVector q = model->named_pose("turned");
  EXPECT_NEAR(q[model->variable_index("shoulder")], -6.0 + 2 * M_PI, 1e-12);
  EXPECT_DOUBLE_EQ(q[model->variable_index("elbow")], 3.0);
  EXPECT_DOUBLE_EQ(q[model->variable_index("wrist_roll")], 9.0);
  const auto& warnings = model->load_warnings();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0],
              HasSubstr("robot.srdf:4: group_state 'turned': joint 'shoulder' = -6 is outside its "
                        "limits [-1.5, 1.5]; taken as 0.283185, the same angle"));
}

// Names the robot lacks skip their element with a warning naming the file, line, name and the
// closest names, as MoveIt's srdfdom does; the rest of the SRDF is kept. Malformed XML is an error.
TEST(Srdf, UnknownNamesAreWarningsThatSkipTheirElement) {
  const fs::path urdf = library_dir() / "tiny_gripper" / "robot.urdf";
  TempDir dir;
  auto load_with = [&](const std::string& srdf) {
    const fs::path file = dir.write("robot.srdf", srdf);
    return load_robot_file(urdf.string(), file.string());
  };
  auto warning_with = [](const RobotModelPtr& model, const std::vector<std::string>& parts) {
    for (const auto& w : model->load_warnings())
      if (std::all_of(parts.begin(), parts.end(),
                      [&](const std::string& p) { return w.find(p) != std::string::npos; }))
        return true;
    ADD_FAILURE() << "no load warning with all of: " << ::testing::PrintToString(parts);
    return false;
  };
  RobotModelPtr model = load_with(
      "<robot name=\"tiny_gripper\">\n<disable_collisions link1=\"hand\" link2=\"fingr_left\"/>\n"
      "<disable_collisions link1=\"hand\" link2=\"finger_left\"/>\n</robot>");
  ASSERT_EQ(model->semantic().disabled_collisions.size(),
            1u);  // the pair that names known links stays
  warning_with(model, {"robot.srdf:2: link 'fingr_left' is not in robot",
                       "disable_collisions pair is skipped", "'finger_left'"});

  model = load_with(
      "<robot name=\"x\">\n<group name=\"g\">\n<joint name=\"elbo\"/>\n<joint "
      "name=\"elbow\"/>\n</group>\n</robot>");
  EXPECT_EQ(model->semantic().groups.at(0).joints, (std::vector<std::string>{"elbow"}));
  warning_with(model, {"robot.srdf:3: joint 'elbo' is not in robot",
                       "this <joint> of group 'g' is skipped", "'elbow'"});

  model = load_with(
      "<robot name=\"x\">\n<group name=\"g\">\n<group name=\"nope\"/>\n</group>\n</robot>");
  EXPECT_TRUE(model->semantic().groups.at(0).subgroups.empty());
  warning_with(model, {"robot.srdf:3: group 'nope' is not defined in the SRDF",
                       "this subgroup of group 'g' is skipped"});

  model = load_with(
      "<robot name=\"x\">\n<group name=\"g\"><chain base_link=\"hand\" "
      "tip_link=\"base\"/></group>\n</robot>");
  EXPECT_TRUE(model->semantic().groups.at(0).chains.empty());
  warning_with(model, {"robot.srdf:2: link 'base' does not descend from link 'hand'",
                       "this <chain> of group 'g' is skipped"});

  model = load_with(
      "<robot name=\"x\">\n<group name=\"g\"><joint name=\"elbow\"/></group>\n"
      "<end_effector name=\"e\" parent_link=\"hand\" group=\"grip\"/>\n"
      "<group_state name=\"s\" group=\"g\"><joint name=\"elbow\" value=\"0.5\"/><joint "
      "name=\"knee\" value=\"1\"/></group_state>\n"
      "<passive_joint name=\"ankle\"/>\n</robot>");
  EXPECT_TRUE(model->semantic().end_effectors.empty());
  EXPECT_DOUBLE_EQ(model->named_pose("s")[model->variable_index("elbow")], 0.5);
  EXPECT_TRUE(model->semantic().passive_joints.empty());
  warning_with(model, {"robot.srdf:3: group 'grip' is not defined in the SRDF",
                       "end_effector 'e' is skipped"});
  warning_with(model, {"robot.srdf:4: joint 'knee'", "its value in group_state 's' is skipped"});
  warning_with(model, {"robot.srdf:5: joint 'ankle'", "passive_joint 'ankle' is skipped"});

  Error e = expect_error([&] { load_with("<robot name=\"x\">\n<group name=\"g\">\n</robot>"); },
                         ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("robot.srdf:2"));  // the <group> that is not closed

  // Unknown elements are warnings.
  model = load_with("<robot name=\"x\">\n<gripper name=\"g\"/>\n</robot>");
  warning_with(model, {"<gripper>"});
}

// A passive joint is part of its group but never planned, as in MoveIt.
TEST(Srdf, PassiveJointsAreLeftOutOfTheGroupVariables) {
  const fs::path dir = library_dir() / "tiny_gripper";
  TempDir temp;
  const fs::path srdf = temp.write("robot.srdf",
                                   "<robot name=\"tiny_gripper\">\n<group name=\"arm\"><chain "
                                   "base_link=\"base\" tip_link=\"hand\"/></group>\n"
                                   "<passive_joint name=\"elbow\"/>\n</robot>\n");
  const auto model = load_robot_file((dir / "robot.urdf").string(), srdf.string());
  EXPECT_EQ(model->semantic().passive_joints, (std::vector<std::string>{"elbow"}));
  EXPECT_EQ(model->group_variables("arm"), (std::vector<int>{0, 2}));
}

TEST(Srdf, AUrdfPassedAsTheSrdfIsRefused) {
  // Both have a <robot> root; the URDF given twice used to load as an SRDF without groups.
  const fs::path urdf = library_dir() / "tiny_gripper" / "robot.urdf";
  Error e =
      expect_error([&] { load_robot_file(urdf.string(), urdf.string()); }, ErrorCode::ParseError);
  EXPECT_THAT(e.message(), HasSubstr("robot.urdf:"));
  EXPECT_THAT(e.message(), HasSubstr("looks like a URDF (it has <link> and <joint> elements)"));
  EXPECT_THAT(e.hint(), HasSubstr("pass the robot's .srdf file"));
  e = expect_error(
      [] { parse_srdf("<robot name=\"r\">\n  <link name=\"a\"/>\n</robot>", "one.srdf"); },
      ErrorCode::ParseError);
  EXPECT_THAT(e.message(),
              HasSubstr("one.srdf:1: this SRDF file looks like a URDF (it has <link> elements)"));
  // Any SRDF element makes it an SRDF (a stray <link> is only a warning); empty is fine too.
  std::vector<std::string> warnings;
  EXPECT_NO_THROW(parse_srdf(R"(<robot name="r"><link name="a"/><group name="g"/></robot>)",
                             "mixed.srdf", nullptr, &warnings));
  EXPECT_FALSE(warnings.empty());
  EXPECT_NO_THROW(parse_srdf(R"(<robot name="r"></robot>)", "empty.srdf"));
}

// An SRDF of groups g0 .. g<depth>, each g<i> naming g<i+1> `times` times; the last holds `last`.
std::string nested_groups_srdf(const std::string& robot, int depth, int times,
                               const std::string& last = "") {
  std::string srdf = "<robot name=\"" + robot + "\">\n";
  for (int i = 0; i < depth; ++i) {
    srdf += "<group name=\"g" + std::to_string(i) + "\">";
    for (int k = 0; k < times; ++k) srdf += "<group name=\"g" + std::to_string(i + 1) + "\"/>";
    srdf += "</group>\n";
  }
  return srdf + "<group name=\"g" + std::to_string(depth) + "\">" + last + "</group>\n</robot>\n";
}

// Subgroups are searched for cycles once per group, without recursion: a chain of groups each
// naming the next twice (2^40 paths through it) used to hang the loader, and 100,000 nested groups
// load (group names are looked up, not scanned: that took 27 s). A cycle is still refused, naming
// a group in it.
TEST(Srdf, SubgroupsAreSearchedOnceAtAnyDepthAndCyclesAreRefused) {
  SemanticModel s;
  ASSERT_NO_THROW(s = parse_srdf(nested_groups_srdf("r", 40, 2),
                                 "chain.srdf"));  // (2^40 steps would not return)
  EXPECT_EQ(s.groups.size(), 41u);
  // Nesting deeper than a call stack would take.
  constexpr int kDepth = 100000;
  ASSERT_NO_THROW(s = parse_srdf(nested_groups_srdf("r", kDepth, 1), "deep.srdf"));
  EXPECT_EQ(s.groups.size(), static_cast<std::size_t>(kDepth + 1));

  // A cycle, and a group that only leads into one (not the group named).
  const std::string cycle =
      "<group name=\"a\"><group name=\"b\"/></group>\n<group name=\"b\"><group "
      "name=\"a\"/></group>\n";
  for (const auto& [groups, expected] :
       {std::pair{cycle, "2: group 'a' contains itself through its subgroups"},
        std::pair{"<group name=\"x\"><group name=\"a\"/></group>\n" + cycle,
                  "3: group 'a' contains itself through its subgroups"}}) {
    const std::string srdf = "<robot name=\"r\">\n" + groups + "</robot>";
    const Error e =
        expect_error([&srdf] { parse_srdf(srdf, "cycle.srdf"); }, ErrorCode::InvalidModel);
    EXPECT_THAT(e.message(), HasSubstr(std::string("cycle.srdf:") + expected));
  }
}

// The loader accepts subgroups nested to any depth; resolving such a group to its variables
// recursed once per level, scanning every group each time: 100,000 levels overflowed the stack (a
// segfault in a release build) and 20,000 took 0.7 s.
TEST(Srdf, DeeplyNestedSubgroupsResolveToTheirVariables) {
  const fs::path urdf = library_dir() / "tiny_gripper" / "robot.urdf";
  constexpr int kDepth = 100000;
  TempDir dir;
  const auto model = load_robot_file(
      urdf.string(), dir.write("deep.srdf", nested_groups_srdf("tiny_gripper", kDepth, 1,
                                                               "<joint name=\"elbow\"/>"))
                         .string());
  EXPECT_EQ(model->group_variables("g0"), (std::vector<int>{model->variable_index("elbow")}));
  EXPECT_EQ(model->group_variables("g" + std::to_string(kDepth)), model->group_variables("g0"));
}

// --- Library ---------------------------------------------------------------------------------

TEST_F(BuiltinLibrary, ListsTheRobotsInTheLibraryFolder) {
  EXPECT_EQ(builtin_robot_directory(), library_dir().string());
  const auto robots = builtin_robots();
  ASSERT_EQ(robots.size(), 2u);
  EXPECT_EQ(robots[0].name, "tiny_arm");
  EXPECT_EQ(robots[0].manufacturer, "Kinetic Test Robots");
  EXPECT_EQ(robots[0].model, "Tiny Arm");
  EXPECT_EQ(robots[0].dof, 3);
  EXPECT_EQ(robots[0].directory, (library_dir() / "tiny_arm").string());
  EXPECT_EQ(robots[1].name, "tiny_gripper");
  EXPECT_EQ(robots[1].dof, 4);
}

TEST_F(BuiltinLibrary, LoadsByNameWithConfigAndLimits) {
  const auto model = load_builtin_robot("tiny_arm");
  EXPECT_EQ(model->name(), "tiny_arm");
  EXPECT_EQ(model->dof(), 3);
  EXPECT_EQ(model->config().model, "Tiny Arm");
  EXPECT_TRUE(model->semantic().empty());
  EXPECT_TRUE(model->load_warnings().empty());
  EXPECT_EQ(model->source_path(), (library_dir() / "tiny_arm" / "robot.urdf").string());
  // Acceleration / jerk: kinetic.toml overrides, else the documented factors.
  EXPECT_DOUBLE_EQ(model->joint("joint1").limits.acceleration, 3.0);
  EXPECT_DOUBLE_EQ(model->joint("joint1").limits.jerk, 30.0);
  EXPECT_DOUBLE_EQ(model->joint("joint2").limits.acceleration, 3.0);  // 2 x 1.5
  EXPECT_DOUBLE_EQ(model->joint("joint2").limits.jerk, 40.0);
  EXPECT_DOUBLE_EQ(model->joint("joint3").limits.acceleration, 6.0);
  EXPECT_TRUE(model->named_pose("home").isApprox(Eigen::Vector3d(0.0, 0.5, -0.5)));
  EXPECT_EQ(model->named_pose_names(), (std::vector<std::string>{"home", "zero"}));
  EXPECT_EQ(model->group_variables(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(model->group_names(), (std::vector<std::string>{"arm"}));
  const Error e = expect_error([&] { model->named_pose("hmoe"); }, ErrorCode::InvalidValue);
  EXPECT_THAT(e.hint(), HasSubstr("'home'"));

  // Case-insensitive names.
  EXPECT_EQ(load_builtin_robot("Tiny_Arm")->name(), "tiny_arm");
}

TEST_F(BuiltinLibrary, NamedPosesFollowTheFirstGroupOrAllVariables) {
  const auto model = load_builtin_robot("tiny_gripper");
  EXPECT_EQ(model->dof(), 4);
  EXPECT_FALSE(model->semantic().empty());
  EXPECT_DOUBLE_EQ(model->joint("elbow").limits.acceleration, 5.0);  // default_acceleration
  EXPECT_DOUBLE_EQ(model->joint("elbow").limits.jerk, 50.0);
  // "ready" lists the 3 arm joints; the finger keeps its zero configuration.
  EXPECT_TRUE(model->named_pose("ready").isApprox(Eigen::Vector4d(0.5, -0.5, 1.0, 0.0)));
  // "all" lists every variable.
  EXPECT_TRUE(model->named_pose("all").isApprox(Eigen::Vector4d(0.1, 0.2, 0.3, 0.02)));
  // kinetic.toml groups come first; SRDF groups are still reachable by name.
  EXPECT_EQ(model->group_variables(), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(model->group_variables("gripper"), (std::vector<int>{3}));
  // kinetic.toml and SRDF poses together.
  EXPECT_EQ(model->named_pose_names(), (std::vector<std::string>{"all", "ready", "open", "home"}));
  // The start pose: "home" before "ready", wherever each is defined.
  EXPECT_EQ(model->default_pose_name(), "home");
  EXPECT_EQ(model->default_configuration(), model->named_pose("home"));
}

TEST_F(BuiltinLibrary, UnknownNameSuggestsCloseNames) {
  Error e = expect_error([] { load_builtin_robot("tiny_amr"); }, ErrorCode::UnknownRobot);
  EXPECT_THAT(e.message(), HasSubstr("'tiny_amr'"));
  EXPECT_THAT(e.hint(), HasSubstr("'tiny_arm'"));
  e = expect_error([] { load_builtin_robot("gripper"); }, ErrorCode::UnknownRobot);
  EXPECT_THAT(e.hint(), HasSubstr("'tiny_gripper'"));
  // Manufacturer and model names lead to the library name too.
  e = expect_error([] { load_builtin_robot("kinetic test"); }, ErrorCode::UnknownRobot);
  EXPECT_THAT(e.hint(), HasSubstr("'tiny_arm' or 'tiny_gripper'"));
  e = expect_error([] { load_builtin_robot("xxxxxxxxxxxx"); }, ErrorCode::UnknownRobot);
  EXPECT_THAT(e.hint(), HasSubstr("known names"));
}

TEST(BuiltinLibraryLocation, EnvironmentThenSourceTree) {
  {
    ScopedEnv env("KINETIC_ROBOT_CONFIGS", "/somewhere/else");
    EXPECT_EQ(builtin_robot_directory(), "/somewhere/else");
    EXPECT_TRUE(builtin_robots().empty());
    const Error e = expect_error([] { load_builtin_robot("ur5e"); }, ErrorCode::UnknownRobot);
    EXPECT_THAT(e.hint(), HasSubstr("KINETIC_ROBOT_CONFIGS"));
  }
  ScopedEnv env("KINETIC_ROBOT_CONFIGS", "");
  EXPECT_FALSE(builtin_robot_directory().empty());
}

}  // namespace
}  // namespace kinetic
