#pragma once
// kinetic.toml: per-robot configuration (format: docs/robot-configuration.md).
#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/core/types.hpp"

namespace kinetic {

struct PlanningGroupConfig {
  std::string name;
  std::string base_link;  // chain = [base_link, tip_link]
  std::string tip_link;
  std::vector<std::string> joints;  // alternative to a chain; active joints only
};

struct EndEffectorConfig {
  std::string name;
  std::string group;            // planning group the TCP belongs to
  std::string parent_link;      // link the TCP is fixed to
  Pose tcp = Pose::Identity();  // parent_link -> tool centre point
};

// Ortho-parallel spherical-wrist parameters (Brandstötter et al., "An analytical solution of the
// inverse kinematics problem of industrial serial manipulators with an ortho-parallel basis and a
// spherical wrist"), in metres and radians.
struct OpwParameters {
  double a1 = 0, a2 = 0, b = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;
  std::array<double, 6> offsets{};  // added to the OPW joint angles
  std::array<int, 6> sign_corrections{1, 1, 1, 1, 1, 1};
};

// Universal-Robots-style DH parameters (offset wrist), metres.
struct UrParameters {
  double d1 = 0, a2 = 0, a3 = 0, d4 = 0, d5 = 0, d6 = 0;
};

struct IkConfig {
  std::string solver = "auto";          // auto | opw | ur | numeric | sweep
  std::string group;                    // planning group ("" = the first group)
  double position_tolerance = 1e-4;     // m
  double orientation_tolerance = 1e-3;  // rad
  double timeout_ms = 5.0;
  int max_iterations = 200;     // per attempt (numeric)
  std::string redundant_joint;  // 7-DOF sweep: the joint swept ("" = chosen automatically)
  int sweep_samples = 16;
  std::optional<OpwParameters> opw;
  std::optional<UrParameters> ur;
};

struct CollisionConfig {
  double padding = 0.0;  // m, added around every link
  std::vector<std::pair<std::string, std::string>> skip_pairs;
};

// Reference data for the built-in library's validation test: the tool position the
// manufacturer publishes for the "home" pose, and how closely FK must match it.
struct ValidationConfig {
  std::optional<Vector3> home_tcp_position;
  double tolerance = 1e-3;
};

// The named pose a MoveIt config's initial_positions.yaml makes (RobotModel::named_pose).
inline constexpr const char* kInitialPositionsPose = "initial_positions";

struct RobotConfig {
  std::string name;
  std::string manufacturer;
  std::string model;  // e.g. "UR5e"
  std::string urdf = "robot.urdf";
  std::string srdf;  // optional
  std::vector<PlanningGroupConfig> planning_groups;
  std::vector<EndEffectorConfig> end_effectors;
  IkConfig ik;
  std::map<std::string, std::vector<double>> named_poses;  // radians / metres, group joint order
  std::map<std::string, double> velocity_limits;           // joint -> limit (replaces the URDF's)
  std::map<std::string, double> acceleration_limits;       // joint -> limit
  std::map<std::string, double> jerk_limits;
  double default_acceleration = 0.0;  // 0 = use the documented factor of the velocity limit
  // From a MoveIt config's joint_limits.yaml (kinetic.toml has no keys for them):
  std::map<std::string, std::pair<double, double>> position_limits;  // joint -> lower, upper
  double default_velocity_scaling = 1.0;      // (0, 1]: default_velocity_scaling_factor
  double default_acceleration_scaling = 1.0;  // (0, 1]: default_acceleration_scaling_factor
  // From its initial_positions.yaml: joint -> value, the pose the robot opens in (the named pose
  // kInitialPositionsPose).
  std::map<std::string, double> initial_positions;
  CollisionConfig collision;
  ValidationConfig validation;
};

}  // namespace kinetic
