#pragma once
// The studio's features around the user's data, installed into a main window in one call: the
// Scene dock with Load / Save scene (app/scene), the Robot library dock, opening and reloading
// robots and the package search paths (app/robot), the sessions (app/session: new / open / save,
// recent files, the unsaved-changes question, the session in the window title), autosave with
// crash recovery, and the joints panel's collision-free random pose; their File and Settings menu
// entries are laid out here. Everything is parented to the window.
#include <QString>
#include <functional>

#include "app/session/autosave.hpp"
#include "app/session/session_file.hpp"
#include "app/session/session_tracker.hpp"
#include "app/session/session_view.hpp"

class QAction;
class QMainWindow;
class QSettings;

namespace kinetic::panels {
class JointsPanel;
class RobotLibraryPanel;
class ScenePanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class StudioDocument;
class ModelFileWatcher;
class RobotLoader;

struct DataFeatureOptions {
  ViewportSource viewport;  // empty: no 3D view (sessions then carry no camera)
  QString autosave_path;    // "" = Autosave::default_path()
  int autosave_interval_seconds = Autosave::kDefaultIntervalSeconds;
  bool offer_recovery = true;  // at start-up (on the next event-loop turn)
  RecoveryQuestion recovery_question = ask_recovery_with_message_box;
  QString settings_file;  // "" = the application's QSettings; else an INI file (tests)
  // Shows an error the user caused; default: status bar + warning box.
  std::function<void(const QString& title, const QString& message)> report_error;
  // Asked before unsaved changes would be lost (closing the window, opening another session,
  // starting a new one); empty = ask_unsaved_changes_with_message_box.
  UnsavedChangesQuestion unsaved_changes_question;
};

struct DataFeatures {
  panels::ScenePanel* scene_panel = nullptr;
  panels::RobotLibraryPanel* robot_library = nullptr;
  Autosave* autosave = nullptr;
  ModelFileWatcher* file_watcher = nullptr;
  // Loads robots in the background for the File menu, the Robot library and reloads (F5, a file
  // changed on disk), saying "Loading <name>…" in the status bar meanwhile.
  RobotLoader* robot_loader = nullptr;
  QSettings* settings = nullptr;
  // File menu entries the main toolbar shows too.
  QAction* open_robot = nullptr;
  QAction* save_session = nullptr;  // to the current session file (asks for one the first time)
  QAction* save_session_as = nullptr;
  QAction* new_session = nullptr;  // File → New session (Ctrl+N): the robot kept, the rest emptied
  SessionTracker* session = nullptr;  // the current session file and whether it has unsaved changes
  // Opens a session file as File → Open session does (asks about unsaved changes, reports errors).
  std::function<void(const QString& path)> open_session;
};

DataFeatures install_data_features(QMainWindow& window, StudioDocument& document,
                                   const DataFeatureOptions& options = {});

}  // namespace kinetic::app
