#pragma once
// The words the studio says about a robot's files: which SRDF and kinetic.toml came with a URDF,
// and how they were found, so a file picked up beside the URDF never goes unnoticed.
#include <QString>

#include "engine/model/robot_companions.hpp"

namespace kinetic::app {

class StudioDocument;

// After a load: "Loaded panda (SRDF: ../srdf/panda.srdf, found in the package's srdf folder)",
// "Loaded ur10 (no SRDF found)", "Loaded panda (without an SRDF, as asked)"; a built-in robot
// just "Loaded ur5e". `verb` replaces "Loaded" ("Reloaded").
QString robot_loaded_message(const StudioDocument& document, const QString& verb = {});

// Appended to a load error when the search found files nobody named (one of them may be why it
// failed), with how to open the URDF without them; "" when it found none.
QString found_files_note(const RobotCompanions& found);

}  // namespace kinetic::app
