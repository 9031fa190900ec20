#pragma once
// Trajectory files: JSON and CSV, schema version kTrajectoryFormatVersion, documented in
// docs/trajectory-format.md. Doubles are written in their shortest round-trip form, so
// import(export(x)) == x bit for bit. Saving is atomic (see atomic_file.hpp). Reading a bad file
// throws Error naming the file, the line or sample, and the problem (ParseError; Unsupported for
// a newer format version).
#include <filesystem>
#include <string>
#include <vector>

#include "engine/trajectory/trajectory.hpp"

namespace kinetic {

inline constexpr int kTrajectoryFormatVersion = 1;

std::string trajectory_to_json(const Trajectory& trajectory);
Trajectory trajectory_from_json(const std::string& text, const std::string& source = "<json>");

std::string trajectory_to_csv(const Trajectory& trajectory);
Trajectory trajectory_from_csv(const std::string& text, const std::string& source = "<csv>");

// By extension: .json or .csv (anything else: Error(Unsupported)). save_trajectory also writes the
// controller exports of controller_export.hpp — .yaml / .yml (ROS JointTrajectory) and .script
// (URScript) — which load_trajectory refuses, naming the .json / .csv to import instead.
void save_trajectory(const Trajectory& trajectory, const std::filesystem::path& path);
// The extensions save_trajectory writes: .json .csv .yaml .yml .script.
const std::vector<std::string>& trajectory_save_extensions();
Trajectory load_trajectory(const std::filesystem::path& path);

}  // namespace kinetic
