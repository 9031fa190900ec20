// A trajectory as a URScript program for Universal Robots arms (controller_export.hpp).
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "engine/core/error.hpp"
#include "engine/trajectory/controller_export.hpp"

namespace kinetic {
namespace {

// The six joints of every UR arm, base to wrist, as Universal Robots' own descriptions name them
// (a prefix such as "left_" is allowed).
constexpr std::array<const char*, 6> kUrJointNames = {"shoulder_pan_joint", "shoulder_lift_joint",
                                                      "elbow_joint",        "wrist_1_joint",
                                                      "wrist_2_joint",      "wrist_3_joint"};

bool ends_with(const std::string& text, const std::string& end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// "ur5e", "UR10", "ur16e_cell": a UR model number at the start of the robot's name.
bool named_like_a_ur(const std::string& robot) {
  return robot.size() >= 3 && std::tolower(static_cast<unsigned char>(robot[0])) == 'u' &&
         std::tolower(static_cast<unsigned char>(robot[1])) == 'r' &&
         std::isdigit(static_cast<unsigned char>(robot[2]));
}

// The controller's cycle for `robot`: CB3 arms (UR3, UR5, UR10 without the "e") run at 125 Hz,
// e-Series and later controllers at 500 Hz.
double controller_period(const std::string& robot) {
  if (!named_like_a_ur(robot)) return 0.002;
  std::size_t end = 2;
  while (end < robot.size() && std::isdigit(static_cast<unsigned char>(robot[end]))) ++end;
  const std::string model = robot.substr(2, end - 2);
  const bool e_series =
      end < robot.size() && std::tolower(static_cast<unsigned char>(robot[end])) == 'e';
  const bool cb3 = !e_series && (model == "3" || model == "5" || model == "10");
  return cb3 ? 0.008 : 0.002;
}

bool ur_joint_names(const std::vector<std::string>& names) {
  for (std::size_t j = 0; j < kUrJointNames.size(); ++j)
    if (!ends_with(names[j], kUrJointNames[j])) return false;
  return true;
}

bool identifier(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

void require_option(bool ok, const char* field, const char* why) {
  if (!ok)
    throw Error(ErrorCode::InvalidValue, std::string("URScript export: ") + field + " " + why);
}

// Joint positions in radians, fixed point (URScript's float literals), a tenth of a microradian.
std::string joint_list(const Eigen::Ref<const JointVector>& q) {
  std::string out = "[";
  char number[32];
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    if (!std::isfinite(q[i]))
      throw Error(ErrorCode::InvalidValue, "URScript export: joint values must be finite numbers");
    std::snprintf(number, sizeof number, "%s%.7f", i > 0 ? ", " : "", q[i] == 0.0 ? 0.0 : q[i]);
    out += number;
  }
  return out + "]";
}

}  // namespace

void check_urscript_robot(const std::string& robot_name,
                          const std::vector<std::string>& joint_names,
                          const std::vector<PositionUnit>& units) {
  const std::string robot = robot_name.empty() ? std::string("this robot") : "'" + robot_name + "'";
  if (joint_names.size() != kUrJointNames.size())
    throw Error(ErrorCode::Unsupported,
                "URScript export is for 6-joint Universal Robots arms; " + robot +
                    "'s trajectory has " + std::to_string(joint_names.size()) + " joints",
                "export a ROS JointTrajectory (.yaml), JSON or CSV instead");
  if (!named_like_a_ur(robot_name) && !ur_joint_names(joint_names))
    throw Error(ErrorCode::Unsupported,
                "URScript export is for Universal Robots arms; " + robot +
                    " is not one (its name does not start with ur3/ur5/ur10/ur16/... and its "
                    "joints are not "
                    "shoulder_pan_joint ... wrist_3_joint)",
                "export a ROS JointTrajectory (.yaml), JSON or CSV instead");
  for (PositionUnit unit : units)
    if (unit != PositionUnit::Radian)
      throw Error(ErrorCode::Unsupported,
                  "URScript export: every joint must be revolute (radians)");
}

std::string trajectory_to_urscript(const Trajectory& trajectory, const UrScriptOptions& options) {
  require_option(options.period >= 0.0 && options.period <= 0.1, "period",
                 "must be in (0, 0.1] s (e-Series: 0.002, CB3: 0.008), or 0 to take the robot's "
                 "controller cycle");
  require_option(options.lookahead_time >= 0.03 && options.lookahead_time <= 0.2, "lookahead_time",
                 "must be in [0.03, 0.2] s");
  require_option(options.gain >= 100.0 && options.gain <= 2000.0, "gain", "must be in [100, 2000]");
  require_option(options.approach_speed > 0.0 && options.approach_speed <= M_PI, "approach_speed",
                 "must be in (0, pi] rad/s");
  require_option(options.approach_acceleration > 0.0 && options.approach_acceleration <= 40.0,
                 "approach_acceleration", "must be in (0, 40] rad/s²");
  require_option(identifier(options.program_name), "program_name",
                 "must be a name of letters, digits and '_'");
  if (trajectory.empty())
    throw Error(ErrorCode::InvalidValue, "URScript export: the trajectory has no samples");
  check_urscript_robot(trajectory.robot(), trajectory.joint_names(), trajectory.units());
  const std::string robot =
      trajectory.robot().empty() ? std::string("this robot") : "'" + trajectory.robot() + "'";
  const double period =
      options.period > 0.0 ? options.period : controller_period(trajectory.robot());

  const double t0 = trajectory.start_time(), t1 = trajectory.end_time();
  const long steps = static_cast<long>(std::ceil((t1 - t0) / period - 1e-9));
  char line[256];
  std::string out;
  std::snprintf(line, sizeof line,
                "# URScript exported by Kinetic Studio: robot %s, %.3f s streamed as %ld servoj "
                "steps of %g ms.\n",
                robot.c_str(), t1 - t0, std::max(steps, 0L), period * 1e3);
  out += line;
  out +=
      "# Send it to the controller's secondary interface (port 30002) or run it from a Script "
      "node.\n";
  std::snprintf(line, sizeof line,
                "# The arm first moves to the trajectory's start with movej at %g rad/s: clear "
                "that path first.\n",
                options.approach_speed);
  out += line;
  out += "def " + options.program_name + "():\n";
  out += "  textmsg(\"Kinetic Studio: moving to the start\")\n";
  std::snprintf(line, sizeof line, ", a=%g, v=%g)\n", options.approach_acceleration,
                options.approach_speed);
  out += "  movej(" + joint_list(trajectory.samples().front().position) + line;
  std::snprintf(line, sizeof line, "  textmsg(\"Kinetic Studio: playing %.3f s\")\n", t1 - t0);
  out += line;
  std::snprintf(line, sizeof line, ", t=%g, lookahead_time=%g, gain=%g)\n", period,
                options.lookahead_time, options.gain);
  const std::string servo_tail = line;
  for (long k = 1; k <= steps; ++k) {
    const double t = std::min(t0 + static_cast<double>(k) * period, t1);
    out += "  servoj(" + joint_list(trajectory.sample(t).position) + servo_tail;
  }
  out += "  stopj(2.0)\n";
  out += "  textmsg(\"Kinetic Studio: done\")\n";
  out += "end\n";
  return out;
}

}  // namespace kinetic
