#pragma once
// The robot's data features: opening a robot (File → Open URDF with SRDF / kinetic.toml…, the
// Robot library dock with the built-ins and the robot packages found on the package search paths),
// reloading it (File → Reload robot, and when its files change on disk), and Settings → Package
// search paths. Robots load in the background (RobotLoader), "Loading <name>…" in the status bar
// meanwhile; what came of a load is said there too, its errors and warnings through `report`.
// The caller puts the actions in its menus.
#include <QObject>
#include <QString>
#include <functional>
#include <optional>

class QAction;
class QDockWidget;
class QMainWindow;
class QSettings;

namespace kinetic::panels {
class RobotLibraryPanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class ModelFileWatcher;
class RobotLoader;
class RobotPackageScan;
class StudioDocument;

class RobotFeatures : public QObject {
  Q_OBJECT
 public:
  // Shows an error the user caused (a title and what went wrong).
  using Report = std::function<void(const QString& title, const QString& message)>;
  RobotFeatures(QMainWindow& window, StudioDocument& document, QSettings& settings, Report report);

  RobotLoader& loader() const { return *loader_; }
  panels::RobotLibraryPanel* library() const { return library_; }
  QDockWidget* library_dock() const { return library_dock_; }
  ModelFileWatcher* file_watcher() const { return file_watcher_; }
  QAction* open_robot_action() const { return open_robot_; }      // Ctrl+Shift+O
  QAction* reload_robot_action() const { return reload_robot_; }  // F5
  QAction* package_paths_action() const {
    return package_paths_;
  }  // Settings → Package search paths…

  // srdf / config as StudioDocument::load_robot takes them (std::nullopt: the file found beside
  // the URDF). Loads in the background; robotOpened when it loaded.
  void load_robot(const QString& reference, const std::optional<QString>& srdf = std::nullopt,
                  const std::optional<QString>& config = std::nullopt);

 signals:
  // load_robot() loaded `reference` (before the status bar says so): File → Recent files keeps it.
  void robotOpened(const QString& reference);

 private:
  void build_library_dock(QMainWindow& window);
  // The library lists the robot packages on the machine too, found off the GUI thread, again when
  // the package search paths change.
  void scan_packages();
  // The library marks the robot loaded now: a built-in one by name, one from a package row by path.
  void mark_loaded();
  void build_actions();
  void watch_files();
  // "Loading <name>…" in the status bar while a load runs (the window keeps working meanwhile);
  // what came of it replaces it.
  void show_robot_loading();
  // A mesh the loader could not find is drawn as a placeholder (and a collision mesh cannot be
  // checked): say so, with where to search, on every load and reload rather than let it pass.
  void report_load_warnings(const QString& title);
  void open_robot_files();
  void reload_robot();
  void edit_package_paths();
  void status(const QString& message);

  QMainWindow& window_;
  StudioDocument& document_;
  QSettings& settings_;
  Report report_;
  RobotLoader* loader_ = nullptr;
  panels::RobotLibraryPanel* library_ = nullptr;
  QDockWidget* library_dock_ = nullptr;
  RobotPackageScan* package_scan_ = nullptr;
  ModelFileWatcher* file_watcher_ = nullptr;
  QAction* open_robot_ = nullptr;
  QAction* reload_robot_ = nullptr;
  QAction* package_paths_ = nullptr;
  QString loading_message_;
};

}  // namespace kinetic::app
