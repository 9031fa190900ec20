#pragma once
// kinetic.toml -> RobotConfig (format: docs/robot-configuration.md), read with toml++.
#include <string>
#include <vector>

#include "engine/model/robot_config.hpp"

namespace kinetic {

class RobotModel;

// The kinetic.toml format this build reads: a file's top-level `format_version` (1 when left out,
// as every file written before the key existed) above it is refused, naming both.
inline constexpr int kRobotConfigFormatVersion = 1;

// Parses kinetic.toml text. `source` names the document in messages (a path, or
// "<kinetic.toml string>"). Malformed TOML, a value of the wrong type or a missing required key ->
// Error(ParseError) naming source:line and the key (e.g. "ik.timeout_ms"); a value outside its
// meaning (negative tolerance, unknown solver) -> Error(InvalidValue) naming the key. Unknown keys
// are reported in `warnings` and otherwise ignored. A `format_version` newer than
// kRobotConfigFormatVersion -> Error(Unsupported).
// `base`: what the file's keys are read over (a MoveIt config's YAML files): keys the file sets
// replace its values, the rest are kept.
RobotConfig parse_robot_config(const std::string& text, const std::string& source,
                               std::vector<std::string>* warnings = nullptr, RobotConfig base = {});

// Reads and parses a kinetic.toml file (Error(FileNotFound) when unreadable).
RobotConfig load_robot_config_file(const std::string& path,
                                   std::vector<std::string>* warnings = nullptr);

// Cross-checks a configuration against a robot model: unknown links -> Error(MissingLink),
// unknown joints -> Error(MissingJoint), a chain whose tip does not descend from its base ->
// Error(InvalidModel), a named pose of the wrong length -> Error(DimensionMismatch) naming the
// pose, NaN/inf values or unknown group names -> Error(InvalidValue). `source` names the file.
void validate_robot_config(const RobotConfig& config, const RobotModel& model,
                           const std::string& source);

}  // namespace kinetic
