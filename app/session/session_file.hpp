#pragma once
// Session files (JSON, "format": "kinetic-session", "version": 1; documented in docs/user-guide.md,
// "Session files"): the robot reference, the joint state by joint name, the planning scene (the
// scene file's JSON), the goal, the named trajectories (the trajectory file's JSON) and,
// optionally, the user's stored states (session_stored_states.hpp), the Planner and Trajectories
// panels' settings and the Task panel's setup (session_settings.hpp) and the camera.
//
// Loading validates the whole file — JSON, every field, the robot files, the scene against the
// robot — before it touches the document, so a bad file changes nothing. Errors name the file and
// the field ("session.json: joints.values[2]: not a number").
#include <QString>
#include <QStringList>
#include <optional>
#include <string>

#include "engine/core/types.hpp"

namespace kinetic::app {

class StudioDocument;

inline constexpr int kSessionFormatVersion = 1;

// Where the viewport camera looks from; the viewer owns the camera, the session only carries it.
struct SessionCamera {
  Vector3 target = Vector3::Zero();
  double distance = 2.0;   // m
  double azimuth = 0.0;    // rad, about world z
  double elevation = 0.0;  // rad
};

std::string session_to_json(const StudioDocument& document,
                            const std::optional<SessionCamera>& camera = std::nullopt);

// Atomic write (temporary file + rename). Returns "" on success, else the reason naming the file.
QString save_session(const StudioDocument& document, const QString& path,
                     const std::optional<SessionCamera>& camera = std::nullopt);

struct SessionLoadResult {
  QString error;         // "" on success; the document is unchanged when set
  QStringList warnings;  // e.g. joints in the file the robot does not have
  std::optional<SessionCamera> camera;
  bool ok() const { return error.isEmpty(); }
};

// Reads, validates, then applies the session to the document (the robot is loaded through
// StudioDocument::load_robot; joints are matched by name). Relative robot file paths in the file
// resolve against the session file's folder.
SessionLoadResult load_session(StudioDocument& document, const QString& path);
// The same from text; `source` names the input in messages, `base_dir` resolves relative paths.
SessionLoadResult apply_session_json(StudioDocument& document, const std::string& text,
                                     const QString& source, const QString& base_dir);

}  // namespace kinetic::app
