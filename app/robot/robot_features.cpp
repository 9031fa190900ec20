#include "app/robot/robot_features.hpp"

#include <QAction>
#include <QDialog>
#include <QDockWidget>
#include <QFileInfo>
#include <QKeySequence>
#include <QMainWindow>
#include <QSettings>
#include <QStatusBar>

#include "app/document/robot_files_text.hpp"
#include "app/document/studio_document.hpp"
#include "app/robot/model_file_watcher.hpp"
#include "app/robot/package_paths_dialog.hpp"
#include "app/robot/robot_files_dialog.hpp"
#include "app/robot/robot_load_warnings.hpp"
#include "app/robot/robot_loader.hpp"
#include "app/robot/robot_package_scan.hpp"
#include "panels/robot_library_panel.hpp"

namespace kinetic::app {

RobotFeatures::RobotFeatures(QMainWindow& window, StudioDocument& document, QSettings& settings,
                             Report report)
    : QObject(&window),
      window_(window),
      document_(document),
      settings_(settings),
      report_(std::move(report)) {
  setObjectName(QStringLiteral("RobotFeatures"));
  build_library_dock(window);
  loader_ = new RobotLoader(document_, this);
  show_robot_loading();
  connect(library_, &panels::RobotLibraryPanel::loadRequested, this,
          [this](const QString& reference) { load_robot(reference); });
  package_scan_ = new RobotPackageScan(library_);
  scan_packages();
  connect(&document_, &StudioDocument::robotChanged, this, &RobotFeatures::mark_loaded);
  mark_loaded();
  build_actions();
  watch_files();
}

void RobotFeatures::build_library_dock(QMainWindow& window) {
  library_ = new panels::RobotLibraryPanel(&window);
  library_dock_ = new QDockWidget(tr("Robot library"), &window);
  library_dock_->setObjectName(QStringLiteral("RobotLibraryDock"));
  library_dock_->setWidget(library_);
  window.addDockWidget(Qt::RightDockWidgetArea, library_dock_);
}

void RobotFeatures::scan_packages() {
  package_scan_->start(stored_package_paths(settings_),
                       [library = library_](const std::vector<RobotPackageEntry>& found) {
                         library->set_packages(found);
                       });
}

void RobotFeatures::mark_loaded() {
  library_->set_loaded_name(!document_.robot() ? QString()
                            : document_.robot_is_file()
                                ? QFileInfo(document_.robot_reference()).absoluteFilePath()
                                : document_.robot_reference());
}

void RobotFeatures::build_actions() {
  open_robot_ = new QAction(tr("Open URDF with SRDF / kinetic.toml…"), this);
  open_robot_->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+O")));
  connect(open_robot_, &QAction::triggered, this, [this] { open_robot_files(); });
  reload_robot_ = new QAction(tr("Reload robot"), this);
  reload_robot_->setShortcut(QKeySequence(Qt::Key_F5));
  connect(reload_robot_, &QAction::triggered, this, [this] { reload_robot(); });
  package_paths_ = new QAction(tr("Package search paths…"), this);
  connect(package_paths_, &QAction::triggered, this, [this] { edit_package_paths(); });
}

void RobotFeatures::watch_files() {
  file_watcher_ = new ModelFileWatcher(document_, &window_);
  file_watcher_->set_loader(loader_);
  connect(file_watcher_, &ModelFileWatcher::reloaded, this, [this](const QString& file) {
    status(tr("Reloaded after %1 changed").arg(file));
    report_load_warnings(tr("Reloaded after %1 changed, with warnings").arg(file));
  });
  connect(file_watcher_, &ModelFileWatcher::reloadFailed, this,
          [this](const QString& message) { report_(tr("Automatic reload failed"), message); });
}

void RobotFeatures::load_robot(const QString& reference, const std::optional<QString>& srdf,
                               const std::optional<QString>& config) {
  const RobotLoadRequest request{reference, srdf, config, stored_package_paths(settings_)};
  loader_->load(request, this, [this, reference](const QString& error) {
    if (!error.isEmpty()) {
      report_(tr("Could not load %1").arg(reference), error);
      return;
    }
    emit robotOpened(reference);
    const QString loaded = robot_loaded_message(document_);
    status(loaded);
    report_load_warnings(tr("%1 with warnings").arg(loaded));
  });
}

void RobotFeatures::show_robot_loading() {
  connect(loader_, &RobotLoader::started, this, [this](const QString& name) {
    loading_message_ = tr("Loading %1…").arg(name);
    window_.statusBar()->showMessage(loading_message_);
  });
  connect(loader_, &RobotLoader::busyChanged, this, [this](bool busy) {
    if (!busy && window_.statusBar()->currentMessage() == loading_message_)
      window_.statusBar()->clearMessage();
  });
  connect(loader_, &RobotLoader::dropped, this, [this](const QString& why) { status(why); });
}

void RobotFeatures::report_load_warnings(const QString& title) {
  if (!document_.robot()->load_warnings().empty())
    report_(title, robot_load_warnings_text(*document_.robot()));
}

void RobotFeatures::open_robot_files() {
  if (const auto files = ask_robot_files(&window_, settings_)) {
    if (files->moveit_config)
      load_robot(files->urdf);
    else
      load_robot(files->urdf, files->srdf, files->config);
  }
}

void RobotFeatures::reload_robot() {
  const auto done = [this](const QString& error) {
    if (!error.isEmpty()) {
      report_(tr("Reload failed; the loaded robot was kept"), error);
      return;
    }
    const QString reloaded = robot_loaded_message(document_, tr("Reloaded"));
    status(reloaded);
    report_load_warnings(tr("%1 with warnings").arg(reloaded));
  };
  if (!loader_->reload(this, done)) done(tr("No robot to reload."));
}

void RobotFeatures::edit_package_paths() {
  PackagePathsDialog dialog(stored_package_paths(settings_), &window_);
  if (dialog.exec() != QDialog::Accepted) return;
  store_package_paths(settings_, dialog.paths());
  scan_packages();  // the library lists what the new paths hold
}

void RobotFeatures::status(const QString& message) {
  window_.statusBar()->showMessage(message, 5000);
}

}  // namespace kinetic::app
