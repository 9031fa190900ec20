#pragma once
// Tools → "Generate collision matrix…" (MoveIt Setup Assistant's self-collision step, in the
// studio): samples the current robot's self-collisions in the background behind a progress dialog
// that can cancel, says what it found, and saves the skipped pairs into the robot's kinetic.toml
// — or, for a built-in robot or a URDF opened without one, into a kinetic.toml the user picks
// (a new file starts as a copy of the robot's current configuration). Saving into the file the
// robot was loaded with reloads the robot, so the new pairs apply at once.
#include <QString>
#include <functional>

#include "engine/collision/acm_generator.hpp"

class QAction;
class QMainWindow;

namespace kinetic::app {

class StudioDocument;

QAction* install_collision_matrix_feature(
    QMainWindow& window, StudioDocument& document,
    std::function<void(const QString&, const QString&)> report_error);

// The kinetic.toml the document's robot was loaded with: its own file, the built-in library's
// file for a built-in robot, or "" when there is none.
QString robot_config_file(const StudioDocument& document);

// Writes the result's skipped pairs into `path` (only skip_pairs changes; a missing file starts as
// a copy of robot_config_file()); reloads the robot when `path` is its configuration. Returns the
// error to show, or "" on success.
QString save_collision_matrix(StudioDocument& document, const AcmGeneratorResult& result,
                              const QString& path);

}  // namespace kinetic::app
