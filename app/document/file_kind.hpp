#pragma once
// What kind of Kinetic file a user gave, by its "format" field (or, for a URDF, by its look), so a
// file given where another kind belongs is said as what it is ("this is a Kinetic session file,
// not a job: open it in the studio ...") rather than as the first of its fields the reader does
// not know. One wording for every reader: headless jobs, --scene, sessions.
#include <string>

namespace kinetic::app {

// Scene includes MoveIt's planning scenes (.yaml / .yml with a "world", .scene text);
// MotionPlanRequest: a MoveIt motion plan request (.yaml / .yml with "goal_constraints").
enum class FileKind { Job, Session, Scene, Trajectory, Urdf, MotionPlanRequest, Other };

// By a JSON file's "format" value ("kinetic-job", ...); Other for any other.
FileKind kind_of_format(const std::string& format);

// By the file's text and name: a URDF when the name ends in .urdf or .xacro or the text starts with
// '<' (XML); a MoveIt scene or request by its name (.scene; .yaml / .yml with a top-level "world:"
// or "goal_constraints:"); else the "format" of a JSON object; Other when it is neither (malformed
// JSON, no "format", an unknown one), left to the reader to say what is wrong.
FileKind file_kind(const std::string& text, const std::string& name);

// For a file of kind `found` at `path` given where a file of kind `expected` belongs: "this is a
// scene file, not a job: pass it with --scene PATH ..."; "" when found is expected or Other.
std::string wrong_kind_message(FileKind found, FileKind expected, const std::string& path);

}  // namespace kinetic::app
