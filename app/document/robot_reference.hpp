#pragma once
// Whether a robot reference (a command-line argument, a session's "robot.reference", a recent
// entry) names a robot file or a built-in robot. One rule for every reader, so a session saved
// from a run opens the same robot in any other run.
#include <QString>

namespace kinetic::app {

// A file when it is written as a path (ends in ".urdf", or has a '/': a folder given by mistake
// included, so its error names the file), or when it is a word naming no built-in robot and a
// file of that name exists in `folder` (relative to the current directory when empty). Built-in
// names are plain words and win over a file of the same name: "./ur5e" opens such a file.
bool is_robot_file_reference(const QString& reference, const QString& folder = {});

// Whether two references name the same robot: the same file (however the path is written) or the
// same built-in robot (in any case). Loading the robot a document has is a reload, which keeps its
// pose; any other robot opens in its own rest pose.
bool same_robot_reference(const QString& a, const QString& b);

}  // namespace kinetic::app
