// A trajectory as a ROS 2 trajectory_msgs/msg/JointTrajectory in YAML (controller_export.hpp).
#include <charconv>
#include <cmath>
#include <cstdio>

#include "engine/core/error.hpp"
#include "engine/trajectory/controller_export.hpp"

namespace kinetic {
namespace {

// The shortest form that reads back to the same double, always with a decimal point: the YAML
// 1.1 readers of ROS tools (PyYAML) take "1e-05" or "5" for a string or an integer, and a
// float64 field refuses both.
void append_float(std::string& out, double value) {
  if (!std::isfinite(value))
    throw Error(ErrorCode::InvalidValue,
                "ROS trajectory export: joint values must be finite numbers");
  char buffer[40];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string number(buffer, result.ptr);
  if (number.find('.') == std::string::npos) {
    const std::size_t exponent = number.find('e');
    number.insert(exponent == std::string::npos ? number.size() : exponent, ".0");
  }
  out += number;
}

// `lead`: the item's indent ("    "), or "  - " for its first field.
void append_list(std::string& out, const char* lead, const char* key,
                 const Eigen::Ref<const JointVector>& values) {
  out += lead;
  out += key;
  out += ": [";
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (i > 0) out += ", ";
    append_float(out, values[i]);
  }
  out += "]\n";
}

// A YAML single-quoted scalar: nothing in it is special but the quote, which is doubled.
std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += (c == '\n' || c == '\r') ? ' ' : c;
  }
  return out + "'";
}

long long nanoseconds(double seconds) {
  return std::llround(seconds * 1e9);
}

void append_duration(std::string& out, long long ns) {
  out += "    time_from_start:\n      sec: " + std::to_string(ns / 1000000000) +
         "\n      nanosec: " + std::to_string(ns % 1000000000) + "\n";
}

}  // namespace

std::string trajectory_to_ros_yaml(const Trajectory& trajectory) {
  if (trajectory.empty())
    throw Error(ErrorCode::InvalidValue, "ROS trajectory export: the trajectory has no samples");
  const TrajectorySamples samples = trajectory.samples();
  const double t0 = trajectory.start_time();
  std::string points;
  std::size_t count = 0;
  for (std::size_t i = 0; i < samples.size(); ++i) {
    const long long ns = nanoseconds(samples[i].t - t0);
    // Of samples at one instant (an acceleration step) the last, as sample(t) answers there.
    if (i + 1 < samples.size() && nanoseconds(samples[i + 1].t - t0) <= ns) continue;
    const TrajectorySampleRef s = samples[i];
    append_list(points, "  - ", "positions", s.position);
    append_list(points, "    ", "velocities", s.velocity);
    append_list(points, "    ", "accelerations", s.acceleration);
    points += "    effort: []\n";
    append_duration(points, ns);
    ++count;
  }
  char summary[96];
  std::snprintf(summary, sizeof summary, "; %zu points, %.3f s\n", count, trajectory.duration());
  std::string out = "# trajectory_msgs/msg/JointTrajectory (ROS 2), exported by Kinetic Studio\n";
  out += "# robot: " + quoted(trajectory.robot()) + summary;
  out +=
      "# send: ros2 topic pub --once /<controller>/joint_trajectory "
      "trajectory_msgs/msg/JointTrajectory \"$(cat FILE)\"\n";
  out += "header:\n  stamp:\n    sec: 0\n    nanosec: 0\n  frame_id: ''\n";
  out += "joint_names: [";
  for (std::size_t j = 0; j < trajectory.joint_names().size(); ++j)
    out += (j > 0 ? ", " : "") + quoted(trajectory.joint_names()[j]);
  out += "]\npoints:\n";
  return out + points;
}

}  // namespace kinetic
