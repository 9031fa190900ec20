// Controller exports: the ROS 2 JointTrajectory YAML and the URScript program. The YAML is read
// back by a small reader of its fixed layout and compared value by value with the trajectory; the
// URScript's servoj targets are compared with the trajectory sampled on the controller's period.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "engine/trajectory/controller_export.hpp"
#include "engine/trajectory/time_optimal.hpp"
#include "engine/trajectory/trajectory_io.hpp"
#include "engine/trajectory/trapezoidal.hpp"
#include "model_test_helpers.hpp"

namespace kinetic {
namespace {

using test::expect_error;
namespace fs = std::filesystem;

TrajectoryLimits ur_limits(std::string robot, std::vector<std::string> names) {
  TrajectoryLimits limits = TrajectoryLimits::uniform(6, 1.5, 3.0, 30.0);
  limits.robot = std::move(robot);
  limits.joint_names = std::move(names);
  return limits;
}

std::vector<std::string> numbered_joints(int count) {
  std::vector<std::string> names;
  for (int i = 1; i <= count; ++i) names.push_back("joint" + std::to_string(i));
  return names;
}

const JointPath& ur_path() {
  static const JointPath path{JointVector::Zero(6),
                              (JointVector(6) << 0.4, -0.6, 0.9, -0.3, 0.2, 1.0).finished(),
                              (JointVector(6) << 1.1, -1.2, 1.5, 0.4, -0.5, 0.3).finished()};
  return path;
}

// A trapezoidal profile: its ramps' ends are acceleration steps (two samples at one instant).
Trajectory ur5e_with_steps() {
  return trapezoidal(ur_path(), ur_limits("ur5e", numbered_joints(6)));
}

struct RosPoint {
  std::vector<double> positions, velocities, accelerations;
  long long sec = -1, nanosec = -1;
};

struct RosMessage {
  std::vector<std::string> joint_names;
  std::vector<RosPoint> points;
};

std::vector<double> numbers_in(const std::string& list, std::vector<std::string>* texts = nullptr) {
  std::vector<double> values;
  std::stringstream stream(list.substr(list.find('[') + 1, list.rfind(']') - list.find('[') - 1));
  std::string item;
  while (std::getline(stream, item, ',')) {
    item.erase(0, item.find_first_not_of(' '));
    if (item.empty()) continue;
    if (texts) texts->push_back(item);
    values.push_back(std::strtod(item.c_str(), nullptr));
  }
  return values;
}

// Reads the layout trajectory_to_ros_yaml writes; every number's text goes to `numbers`.
RosMessage read_ros_yaml(const std::string& text, std::vector<std::string>& numbers) {
  RosMessage message;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("joint_names: [", 0) == 0) {
      std::stringstream names(line.substr(14, line.size() - 15));
      std::string name;
      while (std::getline(names, name, ',')) {
        name.erase(0, name.find_first_not_of(' '));
        message.joint_names.push_back(name.substr(1, name.size() - 2));  // unquoted
      }
    } else if (line.rfind("  - positions: ", 0) == 0) {
      message.points.emplace_back();
      message.points.back().positions = numbers_in(line, &numbers);
    } else if (line.rfind("    velocities: ", 0) == 0) {
      message.points.back().velocities = numbers_in(line, &numbers);
    } else if (line.rfind("    accelerations: ", 0) == 0) {
      message.points.back().accelerations = numbers_in(line, &numbers);
    } else if (line.rfind("      sec: ", 0) == 0) {
      message.points.back().sec = std::stoll(line.substr(11));
    } else if (line.rfind("      nanosec: ", 0) == 0) {
      message.points.back().nanosec = std::stoll(line.substr(15));
    }
  }
  return message;
}

void expect_values(const std::vector<double>& written,
                   const Eigen::Ref<const JointVector>& expected, const char* what,
                   std::size_t point) {
  ASSERT_EQ(written.size(), static_cast<std::size_t>(expected.size()))
      << what << " of point " << point;
  for (std::size_t j = 0; j < written.size(); ++j)
    EXPECT_EQ(written[j], expected[static_cast<Eigen::Index>(j)])
        << what << " of point " << point << ", joint " << j;
}

TEST(RosJointTrajectoryExport, WritesEverySampleExactlyWithStrictlyIncreasingTimes) {
  const Trajectory trajectory = ur5e_with_steps();
  const std::string yaml = trajectory_to_ros_yaml(trajectory);
  std::vector<std::string> numbers;
  const RosMessage message = read_ros_yaml(yaml, numbers);
  EXPECT_NE(yaml.find("# trajectory_msgs/msg/JointTrajectory (ROS 2)"), std::string::npos);
  EXPECT_NE(yaml.find("header:\n  stamp:\n    sec: 0\n    nanosec: 0\n  frame_id: ''\n"),
            std::string::npos);
  EXPECT_EQ(message.joint_names, trajectory.joint_names());

  // Two samples at one instant become one point: the later, holding the acceleration after the
  // step.
  const TrajectorySamples samples = trajectory.samples();
  std::vector<std::size_t> kept;
  for (std::size_t i = 0; i < samples.size(); ++i)
    if (i + 1 == samples.size() || samples[i + 1].t > samples[i].t) kept.push_back(i);
  ASSERT_LT(kept.size(), samples.size())
      << "the trapezoidal profile should have acceleration steps";
  ASSERT_EQ(message.points.size(), kept.size());
  long long previous = -1;
  for (std::size_t p = 0; p < kept.size(); ++p) {
    const TrajectorySampleRef s = samples[kept[p]];
    expect_values(message.points[p].positions, s.position, "positions", p);
    expect_values(message.points[p].velocities, s.velocity, "velocities", p);
    expect_values(message.points[p].accelerations, s.acceleration, "accelerations", p);
    const long long ns = message.points[p].sec * 1000000000LL + message.points[p].nanosec;
    EXPECT_GE(message.points[p].nanosec, 0);
    EXPECT_LT(message.points[p].nanosec, 1000000000LL);
    EXPECT_NEAR(static_cast<double>(ns) * 1e-9, s.t - trajectory.start_time(), 0.6e-9)
        << "point " << p;
    EXPECT_GT(ns, previous) << "time_from_start must increase strictly (point " << p << ")";
    previous = ns;
  }
  // The acceleration after a step, as sample(t) answers at that instant.
  const TrajectoryState at_step = trajectory.sample(samples[kept[1]].t);
  expect_values(message.points[1].accelerations, at_step.acceleration, "accelerations at a step",
                1);
}

// PyYAML's float: [-+]? digits '.' digits* ([eE] [-+] digits)? (std::regex trips GCC 12's
// maybe-uninitialized warning under the sanitizers).
bool yaml11_float(const std::string& text) {
  std::size_t i = (!text.empty() && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  const auto digits = [&] {
    const std::size_t begin = i;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
    return i - begin;
  };
  if (digits() == 0 || i == text.size() || text[i] != '.') return false;
  ++i;
  digits();
  if (i == text.size()) return true;
  if (text[i] != 'e' && text[i] != 'E') return false;
  ++i;
  if (i == text.size() || (text[i] != '-' && text[i] != '+')) return false;
  ++i;
  return digits() > 0 && i == text.size();
}

TEST(RosJointTrajectoryExport, EveryNumberIsAFloatToYaml11Readers) {
  // PyYAML (ros2 topic pub) reads "5" as an integer and "1e-05" as a string; float64 fields refuse
  // both.
  std::vector<TrajectorySample> samples;
  JointVector q(3), zero = JointVector::Zero(3);
  q << 5.0, 1e-5, -2.5e20;
  samples.push_back({0.0, zero, zero, zero});
  samples.push_back({1.5, q, zero, -q});
  const Trajectory trajectory("odd 'robot'", {"a", "it's", "c"},
                              std::vector<PositionUnit>(3, PositionUnit::Radian), samples);
  std::vector<std::string> numbers;
  const RosMessage message = read_ros_yaml(trajectory_to_ros_yaml(trajectory), numbers);
  ASSERT_EQ(numbers.size(), 18u);
  for (const std::string& n : numbers) EXPECT_TRUE(yaml11_float(n)) << n;
  expect_values(message.points[1].positions, q, "positions", 1);
  EXPECT_EQ(message.joint_names[1], "it''s");  // YAML's single-quote escape
  EXPECT_EQ(message.points[1].sec, 1);
  EXPECT_EQ(message.points[1].nanosec, 500000000);
}

std::vector<std::vector<double>> servoj_targets(const std::string& script,
                                                std::string* options = nullptr) {
  std::vector<std::vector<double>> targets;
  std::istringstream lines(script);
  std::string line;
  while (std::getline(lines, line))
    if (line.rfind("  servoj([", 0) == 0) {
      targets.push_back(numbers_in(line.substr(0, line.find(']') + 1)));
      if (options) *options = line.substr(line.find(']') + 1);
    }
  return targets;
}

TEST(UrScriptExport, MovesToTheStartThenStreamsTheTrajectoryAtTheControllerPeriod) {
  const Trajectory trajectory = time_optimal(ur_path(), ur_limits("ur5e", numbered_joints(6)));
  const std::string script = trajectory_to_urscript(trajectory);
  EXPECT_NE(script.find("\ndef kinetic_trajectory():\n"), std::string::npos);
  EXPECT_EQ(script.substr(script.size() - 4), "end\n");
  const std::size_t movej = script.find("  movej([");
  ASSERT_NE(movej, std::string::npos);
  EXPECT_LT(movej, script.find("  servoj(")) << "the arm must reach the start before streaming";
  EXPECT_NE(script.find("], a=1, v=0.5)\n", movej), std::string::npos);
  EXPECT_NE(script.find("  stopj(2.0)\n"), std::string::npos);

  std::string servo_options;
  const auto targets = servoj_targets(script, &servo_options);
  EXPECT_EQ(servo_options, ", t=0.002, lookahead_time=0.1, gain=300)");
  const double period = 0.002;
  ASSERT_EQ(targets.size(),
            static_cast<std::size_t>(std::ceil(trajectory.duration() / period - 1e-9)));
  for (std::size_t k = 0; k < targets.size(); ++k) {
    const double t = std::min(trajectory.start_time() + static_cast<double>(k + 1) * period,
                              trajectory.end_time());
    const JointVector expected = trajectory.sample(t).position;
    ASSERT_EQ(targets[k].size(), 6u);
    for (int j = 0; j < 6; ++j)
      ASSERT_NEAR(targets[k][static_cast<std::size_t>(j)], expected[j], 5.1e-8) << "step " << k;
  }
  for (int j = 0; j < 6; ++j)
    EXPECT_NEAR(targets.back()[static_cast<std::size_t>(j)], ur_path().back()[j], 5.1e-8);
}

TEST(UrScriptExport, TakesTheOptionsOfACb3Controller) {
  UrScriptOptions options;
  options.period = 0.008;
  options.gain = 500;
  options.lookahead_time = 0.05;
  options.program_name = "pick_1";
  const Trajectory trajectory = ur5e_with_steps();
  std::string servo_options;
  const std::string script = trajectory_to_urscript(trajectory, options);
  const auto targets = servoj_targets(script, &servo_options);
  EXPECT_EQ(targets.size(),
            static_cast<std::size_t>(std::ceil(trajectory.duration() / 0.008 - 1e-9)));
  EXPECT_EQ(servo_options, ", t=0.008, lookahead_time=0.05, gain=500)");
  EXPECT_NE(script.find("\ndef pick_1():\n"), std::string::npos);
}

// Without a period asked for, servoj runs at the robot's controller cycle: CB3 arms (UR3, UR5,
// UR10, as the shared ur_description names them) at 8 ms, e-Series and later at 2 ms. An asked
// period wins.
TEST(UrScriptExport, TakesTheControllerCycleFromTheRobotsName) {
  // ", t=0.008" and the number of servoj steps, which must stream the whole motion at that period.
  const auto servo_period = [](const std::string& robot, double asked = 0.0) {
    UrScriptOptions options;
    options.period = asked;
    const Trajectory trajectory = trapezoidal(ur_path(), ur_limits(robot, numbered_joints(6)));
    std::string servo_options;
    const auto targets =
        servoj_targets(trajectory_to_urscript(trajectory, options), &servo_options);
    const double period = std::stod(servo_options.substr(4, 5));
    EXPECT_EQ(targets.size(),
              static_cast<std::size_t>(std::ceil(trajectory.duration() / period - 1e-9)))
        << robot;
    return servo_options.substr(0, 9);
  };
  for (const char* cb3 : {"ur3", "ur5", "UR10", "ur5_cell"})
    EXPECT_EQ(servo_period(cb3), ", t=0.008") << cb3;
  for (const char* e_series : {"ur3e", "ur5e", "ur10e", "ur16e", "ur20", "ur30", "UR5e_left"})
    EXPECT_EQ(servo_period(e_series), ", t=0.002") << e_series;
  EXPECT_EQ(servo_period("ur5", 0.004), ", t=0.004");
  // Known only by UR's joint names: the current controllers' cycle.
  const std::vector<std::string> ur_names{"shoulder_pan_joint", "shoulder_lift_joint",
                                          "elbow_joint",        "wrist_1_joint",
                                          "wrist_2_joint",      "wrist_3_joint"};
  std::string servo_options;
  servoj_targets(trajectory_to_urscript(trapezoidal(ur_path(), ur_limits("work_cell", ur_names))),
                 &servo_options);
  EXPECT_EQ(servo_options.substr(0, 9), ", t=0.002");
}

TEST(UrScriptExport, RefusesWhatIsNotAUniversalRobotsArm) {
  const JointPath seven{JointVector::Zero(7), JointVector::Constant(7, 0.3)};
  TrajectoryLimits panda = TrajectoryLimits::uniform(7, 1.0, 2.0, 10.0);
  panda.robot = "panda";
  const Error joints = expect_error([&] { trajectory_to_urscript(time_optimal(seven, panda)); },
                                    ErrorCode::Unsupported);
  EXPECT_NE(joints.message().find("7 joints"), std::string::npos) << joints.message();
  EXPECT_NE(joints.hint().find(".yaml"), std::string::npos);

  // Six joints, but a KUKA: by name nor by joints a UR.
  const Error kuka = expect_error(
      [&] {
        trajectory_to_urscript(
            time_optimal(ur_path(), ur_limits("kr6_r700_sixx", numbered_joints(6))));
      },
      ErrorCode::Unsupported);
  EXPECT_NE(kuka.message().find("'kr6_r700_sixx' is not one"), std::string::npos) << kuka.message();

  // Any robot name, with UR's joint names (a prefix allowed): a UR in a cell.
  const std::vector<std::string> ur_names{"left_shoulder_pan_joint", "left_shoulder_lift_joint",
                                          "left_elbow_joint",        "left_wrist_1_joint",
                                          "left_wrist_2_joint",      "left_wrist_3_joint"};
  EXPECT_NO_THROW(
      trajectory_to_urscript(time_optimal(ur_path(), ur_limits("work_cell", ur_names))));

  TrajectoryLimits prismatic = ur_limits("ur10e_on_rail", numbered_joints(6));
  prismatic.units[0] = PositionUnit::Metre;
  expect_error([&] { trajectory_to_urscript(time_optimal(ur_path(), prismatic)); },
               ErrorCode::Unsupported);
}

// The robot alone, before any motion exists, is refused (or passed) as its trajectories would be.
TEST(UrScriptExport, TheRobotAloneIsCheckedAsItsTrajectoriesWouldBe) {
  TrajectoryLimits panda = TrajectoryLimits::uniform(7, 1.0, 2.0, 10.0);
  const Error joints =
      expect_error([&] { check_urscript_robot("panda", panda.joint_names, panda.units); },
                   ErrorCode::Unsupported);
  EXPECT_NE(joints.message().find("'panda''s trajectory has 7 joints"), std::string::npos)
      << joints.message();
  const TrajectoryLimits kuka = ur_limits("kr6_r700_sixx", numbered_joints(6));
  expect_error([&] { check_urscript_robot(kuka.robot, kuka.joint_names, kuka.units); },
               ErrorCode::Unsupported);
  const TrajectoryLimits ur = ur_limits("ur5e", numbered_joints(6));
  EXPECT_NO_THROW(check_urscript_robot(ur.robot, ur.joint_names, ur.units));
}

TEST(UrScriptExport, RejectsBadOptionsAndAnEmptyTrajectory) {
  const Trajectory trajectory = ur5e_with_steps();
  const auto with = [&](auto change) {
    UrScriptOptions options;
    change(options);
    return expect_error([&] { trajectory_to_urscript(trajectory, options); },
                        ErrorCode::InvalidValue);
  };
  EXPECT_NE(with([](UrScriptOptions& o) { o.period = -0.002; }).message().find("period"),
            std::string::npos);
  EXPECT_NE(with([](UrScriptOptions& o) { o.period = std::nan(""); }).message().find("period"),
            std::string::npos);
  EXPECT_NE(with([](UrScriptOptions& o) { o.gain = 50; }).message().find("gain"),
            std::string::npos);
  EXPECT_NE(
      with([](UrScriptOptions& o) { o.lookahead_time = 0.5; }).message().find("lookahead_time"),
      std::string::npos);
  EXPECT_NE(with([](UrScriptOptions& o) { o.approach_speed = std::nan(""); })
                .message()
                .find("approach_speed"),
            std::string::npos);
  EXPECT_NE(with([](UrScriptOptions& o) { o.program_name = "1 bad name"; })
                .message()
                .find("program_name"),
            std::string::npos);
  expect_error([] { trajectory_to_urscript(Trajectory()); }, ErrorCode::InvalidValue);
  expect_error([] { trajectory_to_ros_yaml(Trajectory()); }, ErrorCode::InvalidValue);
}

TEST(ControllerExportFiles, SaveWritesThemByExtensionAndLoadPointsToTheJsonInstead) {
  test::TempDir dir;
  const Trajectory trajectory = ur5e_with_steps();
  const auto read = [](const fs::path& p) {
    std::ifstream in(p);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  save_trajectory(trajectory, dir.path() / "motion.yaml");
  save_trajectory(trajectory, dir.path() / "motion.yml");
  save_trajectory(trajectory, dir.path() / "motion.script");
  EXPECT_EQ(read(dir.path() / "motion.yaml"), trajectory_to_ros_yaml(trajectory));
  EXPECT_EQ(read(dir.path() / "motion.yml"), trajectory_to_ros_yaml(trajectory));
  EXPECT_EQ(read(dir.path() / "motion.script"), trajectory_to_urscript(trajectory));
  for (const char* name : {"motion.yaml", "motion.script"}) {
    const Error e =
        expect_error([&] { load_trajectory(dir.path() / name); }, ErrorCode::Unsupported);
    EXPECT_NE(e.message().find("does not read back"), std::string::npos) << e.message();
    EXPECT_NE(e.hint().find(".json"), std::string::npos);
  }
  // A refused URScript export writes nothing.
  const JointPath seven{JointVector::Zero(7), JointVector::Constant(7, 0.3)};
  EXPECT_ANY_THROW(save_trajectory(time_optimal(seven, TrajectoryLimits::uniform(7, 1, 2, 10)),
                                   dir.path() / "panda.script"));
  EXPECT_FALSE(fs::exists(dir.path() / "panda.script"));
  const Error unknown = expect_error(
      [&] { save_trajectory(trajectory, dir.path() / "motion.txt"); }, ErrorCode::Unsupported);
  EXPECT_NE(unknown.hint().find(".script"), std::string::npos);
}

}  // namespace
}  // namespace kinetic
