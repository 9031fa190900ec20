#include "app/session/data_features.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDialog>
#include <QDockWidget>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QWindow>
#include <memory>
#include <optional>

#include "app/robot/model_file_watcher.hpp"
#include "app/robot/robot_files_dialog.hpp"
#include "app/document/robot_files_text.hpp"
#include "app/robot/robot_load_warnings.hpp"
#include "app/robot/robot_loader.hpp"
#include "app/robot/joints_panel_binding.hpp"
#include "app/robot/robot_package_scan.hpp"
#include "app/session/new_session.hpp"
#include "app/session/package_paths_dialog.hpp"
#include "app/session/recent_files.hpp"
#include "app/session/session_file.hpp"
#include "app/session/session_tracker.hpp"
#include "app/scene/scene_panel_binding.hpp"
#include "app/document/studio_document.hpp"
#include "app/viewport/viewport_window.hpp"
#include "engine/model/moveit_config_package.hpp"
#include "panels/file_dialog_folders.hpp"
#include "panels/joints_panel.hpp"
#include "panels/robot_library_panel.hpp"
#include "panels/scene_panel.hpp"

namespace kinetic::app {

namespace {

using Report = std::function<void(const QString&, const QString&)>;

QString plain(QString title) { return title.remove(QLatin1Char('&')); }

// The window's menu with this title (ignoring '&'), created at the end of the bar when missing.
QMenu* find_or_add_menu(QMainWindow& window, const QString& title) {
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && plain(action->text()) == plain(title)) return action->menu();
  // Help stays the last menu.
  for (QAction* action : window.menuBar()->actions())
    if (action->menu() && plain(action->text()) == QStringLiteral("Help")) {
      auto* menu = new QMenu(title, window.menuBar());
      window.menuBar()->insertMenu(action, menu);
      return menu;
    }
  return window.menuBar()->addMenu(title);
}

// Inserts before the File menu's Quit entry so Quit stays last.
QAction* quit_action(QMenu* file) {
  for (QAction* action : file->actions())
    if (action->shortcut() == QKeySequence(QKeySequence::Quit) || plain(action->text()) == QStringLiteral("Quit"))
      return action;
  return nullptr;
}


SessionCamera to_session_camera(const viewer::Camera& camera) {
  SessionCamera session;
  session.target = camera.target.cast<double>();
  session.distance = camera.distance;
  session.azimuth = camera.yaw;
  session.elevation = camera.pitch;
  return session;
}

viewer::Camera to_view_camera(viewer::Camera camera, const SessionCamera& session) {
  camera.target = session.target.cast<float>();
  camera.distance = static_cast<float>(session.distance);
  camera.yaw = static_cast<float>(session.azimuth);
  camera.pitch = static_cast<float>(session.elevation);
  return camera;
}

// URDF with optional SRDF and kinetic.toml ("" for none): the URDF chosen first (in the folder
// robots were last opened from), then the dialog with what was found for it.
struct RobotFiles {
  QString urdf, srdf, config;
  bool moveit_config = false;  // urdf names a MoveIt config package: srdf and config unused
};

std::optional<RobotFiles> ask_robot_files(QWidget* parent, QSettings& settings) {
  using panels::FileDialogKind;
  const QString first = QFileDialog::getOpenFileName(parent, QObject::tr("Open robot"),
                                                     panels::last_dialog_folder(FileDialogKind::Robot, settings),
                                                     QObject::tr("Robot descriptions and MoveIt configs (*.urdf *.xacro *.srdf "
                                                                 ".setup_assistant package.xml);;All files (*)"));
  if (first.isEmpty()) return std::nullopt;
  panels::remember_dialog_folder(FileDialogKind::Robot, first, settings);
  // A MoveIt config package names its description, SRDF and YAML files itself.
  if (moveit_config_folder(first.toStdString())) return RobotFiles{first, {}, {}, true};
  RobotFilesDialog dialog(first, parent);
  if (dialog.exec() != QDialog::Accepted || dialog.urdf().isEmpty()) return std::nullopt;
  return RobotFiles{dialog.urdf(), dialog.srdf(), dialog.config()};
}

// Everything the menu actions share; owned by the window.
class DataActions : public QObject {
 public:
  DataActions(QMainWindow& window, StudioDocument& document, QSettings& settings, Report report,
              panels::ScenePanel& scene_panel, UnsavedChangesQuestion unsaved_question, ViewportSource viewport)
      : QObject(&window), window_(window), viewport_(std::move(viewport)), document_(document), settings_(settings),
        recent_(settings),
        report_(std::move(report)), scene_panel_(scene_panel), tracker_(document, this),
        unsaved_question_(std::move(unsaved_question)), loader_(new RobotLoader(document, this)) {
    connect(&tracker_, &SessionTracker::changed, this, [this] { show_session_in_title(); });
    show_session_in_title();
    window_.installEventFilter(this);
    show_robot_loading();
  }

  SessionTracker& tracker() { return tracker_; }
  RobotLoader& loader() { return *loader_; }
  // Made after the actions; New session starts it over.
  void set_autosave(Autosave* autosave) { autosave_ = autosave; }

  // srdf / config as StudioDocument::load_robot takes them (std::nullopt: the file found beside
  // the URDF). Loads in the background (RobotLoader); the recent entry keeps the files actually used.
  void load_robot(const QString& reference, const std::optional<QString>& srdf = std::nullopt,
                  const std::optional<QString>& config = std::nullopt) {
    const RobotLoadRequest request{reference, srdf, config, stored_package_paths(settings_)};
    loader_->load(request, this, [this, reference](const QString& error) {
      if (!error.isEmpty()) {
        report_(tr("Could not load %1").arg(reference), error);
        return;
      }
      if (document_.robot_is_file())
        recent_.add({RecentEntry::Kind::Robot, QFileInfo(reference).absoluteFilePath(), document_.robot_srdf(),
                     document_.robot_config()});
      const QString loaded = robot_loaded_message(document_);
      status(loaded);
      report_load_warnings(tr("%1 with warnings").arg(loaded));
    });
  }

  // "Loading <name>…" in the status bar while a load runs (the window keeps working meanwhile);
  // what came of it replaces it.
  void show_robot_loading() {
    connect(loader_, &RobotLoader::started, this, [this](const QString& name) {
      loading_message_ = tr("Loading %1…").arg(name);
      window_.statusBar()->showMessage(loading_message_);
    });
    connect(loader_, &RobotLoader::busyChanged, this, [this](bool busy) {
      if (!busy && window_.statusBar()->currentMessage() == loading_message_) window_.statusBar()->clearMessage();
    });
    connect(loader_, &RobotLoader::dropped, this, [this](const QString& why) { status(why); });
  }

  // A mesh the loader could not find is drawn as a placeholder (and a collision mesh cannot be
  // checked): say so, with where to search, on every load and reload rather than let it pass.
  void report_load_warnings(const QString& title) {
    if (!document_.robot()->load_warnings().empty()) report_(title, robot_load_warnings_text(*document_.robot()));
  }

  void open_robot_files() {
    if (const auto files = ask_robot_files(&window_, settings_)) {
      if (files->moveit_config) load_robot(files->urdf);
      else load_robot(files->urdf, files->srdf, files->config);
    }
  }

  void open_session(const QString& path) {
    if (!settle_unsaved_changes(tr("opening %1").arg(QFileInfo(path).fileName()))) return;
    const SessionLoadResult result = load_session_with_view(viewport_(), document_, path);
    if (!result.ok()) {
      report_(tr("Could not open the session"), result.error);
      return;
    }
    tracker_.mark_saved(QFileInfo(path).absoluteFilePath());
    recent_.add({RecentEntry::Kind::Session, QFileInfo(path).absoluteFilePath(), {}, {}});
    if (!result.warnings.isEmpty())
      report_(tr("Session opened with warnings"), result.warnings.join(QLatin1Char('\n')));
    status(tr("Opened session %1").arg(path));
  }

  void choose_and_open_session() {
    const QString path = QFileDialog::getOpenFileName(&window_, tr("Open session"), last_folder(FileDialogKind::Session),
                                                      tr("Kinetic sessions (*.kinetic-session);;All files (*)"));
    if (path.isEmpty()) return;
    remember_folder(FileDialogKind::Session, path);
    open_session(path);
  }

  // To the session file last opened or saved, or asks for one. True when the session was written.
  bool save_session() {
    if (tracker_.path().isEmpty()) return choose_and_save_session();
    return save_session_to(tracker_.path());
  }

  bool choose_and_save_session() {
    // The session's own file when it has one, else the folder sessions were last used in.
    const QString start = tracker_.path().isEmpty() ? last_folder(FileDialogKind::Session) : tracker_.path();
    QString path = QFileDialog::getSaveFileName(&window_, tr("Save session as"), start,
                                                tr("Kinetic sessions (*.kinetic-session)"));
    if (path.isEmpty()) return false;
    remember_folder(FileDialogKind::Session, path);
    if (!path.endsWith(QStringLiteral(".kinetic-session"))) path += QStringLiteral(".kinetic-session");
    return save_session_to(path);
  }

  bool save_session_to(const QString& path) {
    const QString error = save_session_with_view(viewport_(), document_, path);
    if (!error.isEmpty()) {
      report_(tr("Could not save the session"), error);
      return false;
    }
    tracker_.mark_saved(QFileInfo(path).absoluteFilePath());
    recent_.add({RecentEntry::Kind::Session, QFileInfo(path).absoluteFilePath(), {}, {}});
    status(tr("Saved session %1").arg(path));
    return true;
  }

  // File → New session: after the unsaved-changes question, the document as the robot opens, no
  // session file (the next Save asks for one) and no autosave of the old work.
  void new_session() {
    if (!settle_unsaved_changes(tr("starting a new session"))) return;
    clear_to_new_session(document_);
    tracker_.start_untitled();
    if (autosave_) autosave_->start_over();
    status(tr("New session"));
  }

  // Before unsaved work would be replaced or closed: asks Save / Discard / Cancel. True when it
  // may go ahead (nothing unsaved, saved now, or discarded).
  bool settle_unsaved_changes(const QString& action) {
    if (!tracker_.modified()) return true;
    switch (unsaved_question_(&window_, tracker_.display_name(), action)) {
      case UnsavedChoice::Save:
        return save_session();
      case UnsavedChoice::Discard:
        return true;  // still modified: a session that then fails to open leaves the work as it was
      case UnsavedChoice::Cancel:
        break;
    }
    return false;
  }

  void show_session_in_title() {
    window_.setWindowTitle(tr("%1[*] — Kinetic Studio").arg(tracker_.display_name()));
    window_.setWindowModified(tracker_.modified());
  }


  void choose_and_load_scene() {
    const QString path = QFileDialog::getOpenFileName(&window_, tr("Load scene"), last_folder(FileDialogKind::Scene),
                                                      tr("Kinetic scenes (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    remember_folder(FileDialogKind::Scene, path);
    const QString error = scene_panel_.load_scene_file(path);
    if (!error.isEmpty()) report_(tr("Could not load the scene"), error);
  }

  void choose_and_save_scene() {
    QString path = QFileDialog::getSaveFileName(&window_, tr("Save scene"), last_folder(FileDialogKind::Scene),
                                                tr("Kinetic scenes (*.json)"));
    if (path.isEmpty()) return;
    remember_folder(FileDialogKind::Scene, path);
    if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) path += QStringLiteral(".json");
    const QString error = scene_panel_.save_scene_file(path);
    if (!error.isEmpty()) report_(tr("Could not save the scene"), error);
  }

  void reload_robot() {
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

  void edit_package_paths() {
    PackagePathsDialog dialog(stored_package_paths(settings_), &window_);
    if (dialog.exec() != QDialog::Accepted) return;
    store_package_paths(settings_, dialog.paths());
    if (package_paths_changed_) package_paths_changed_();
  }
  // Called when the package search paths were changed (the Robot library scans them again).
  void set_package_paths_changed(std::function<void()> changed) { package_paths_changed_ = std::move(changed); }

  void fill_recent_menu(QMenu* menu) {
    menu->clear();
    const QList<RecentEntry> entries = recent_.entries();
    for (const RecentEntry& entry : entries) {
      const QString kind = entry.kind == RecentEntry::Kind::Session ? tr("session") : tr("robot");
      menu->addAction(QStringLiteral("%1  (%2)").arg(QFileInfo(entry.path).fileName(), kind), this,
                      [this, entry] { open_recent(entry); })
          ->setToolTip(entry.path);
    }
    if (entries.isEmpty()) menu->addAction(tr("(none)"))->setEnabled(false);
  }

  void open_recent(const RecentEntry& entry) {
    if (!QFileInfo(entry.path).isFile()) {
      recent_.remove(entry.path);
      report_(tr("File not found"), tr("%1 no longer exists; it was removed from the recent files.").arg(entry.path));
      return;
    }
    if (entry.kind == RecentEntry::Kind::Session) open_session(entry.path);
    else load_robot(entry.path, entry.srdf, entry.config);
  }

  void status(const QString& message) { window_.statusBar()->showMessage(message, 5000); }

  // Each kind of file dialog opens where the last one of its kind left off (in these settings).
  using FileDialogKind = panels::FileDialogKind;
  QString last_folder(FileDialogKind kind) const { return panels::last_dialog_folder(kind, settings_); }
  void remember_folder(FileDialogKind kind, const QString& chosen) {
    panels::remember_dialog_folder(kind, chosen, settings_);
  }

 protected:
  // Closing the window (its close button, File → Quit) with unsaved changes asks first.
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched != &window_ || event->type() != QEvent::Close) return QObject::eventFilter(watched, event);
    if (!settle_unsaved_changes(tr("closing"))) {
      event->ignore();
      return true;
    }
    // Closing with changes still unsaved means the user let them go: the autosave goes too.
    if (tracker_.modified()) tracker_.discard_changes();
    return false;
  }

 private:
  QMainWindow& window_;
  ViewportSource viewport_;
  StudioDocument& document_;
  QSettings& settings_;
  RecentFiles recent_;
  Report report_;
  panels::ScenePanel& scene_panel_;
  SessionTracker tracker_;
  UnsavedChangesQuestion unsaved_question_;
  Autosave* autosave_ = nullptr;
  RobotLoader* loader_;
  QString loading_message_;
  std::function<void()> package_paths_changed_;
};

void build_menus(QMainWindow& window, DataActions& actions, DataFeatures& features) {
  QMenu* file = find_or_add_menu(window, QObject::tr("&File"));
  QAction* before = quit_action(file);
  const auto add = [&](const QString& text, auto slot, const QKeySequence& key = {}) {
    auto* action = new QAction(text, file);
    action->setShortcut(key);
    QObject::connect(action, &QAction::triggered, &actions, slot);
    file->insertAction(before, action);
    return action;
  };
  auto* separator = new QAction(file);
  separator->setSeparator(true);
  file->insertAction(before, separator);
  features.open_robot =
      add(QObject::tr("Open URDF with SRDF / kinetic.toml…"), [&actions] { actions.open_robot_files(); },
          QKeySequence(QStringLiteral("Ctrl+Shift+O")));
  add(QObject::tr("Reload robot"), [&actions] { actions.reload_robot(); }, QKeySequence(Qt::Key_F5));
  auto* recent = new QMenu(QObject::tr("Recent files"), file);
  QObject::connect(recent, &QMenu::aboutToShow, &actions, [&actions, recent] { actions.fill_recent_menu(recent); });
  file->insertMenu(before, recent);
  features.new_session = add(QObject::tr("New session"), [&actions] { actions.new_session(); }, QKeySequence::New);
  add(QObject::tr("Open session…"), [&actions] { actions.choose_and_open_session(); }, QKeySequence::Open);
  features.save_session = add(QObject::tr("Save session"), [&actions] { actions.save_session(); }, QKeySequence::Save);
  features.save_session_as =
      add(QObject::tr("Save session as…"), [&actions] { actions.choose_and_save_session(); }, QKeySequence::SaveAs);
  add(QObject::tr("Load scene…"), [&actions] { actions.choose_and_load_scene(); });
  add(QObject::tr("Save scene…"), [&actions] { actions.choose_and_save_scene(); });
  auto* end = new QAction(file);
  end->setSeparator(true);
  file->insertAction(before, end);

  QMenu* settings = find_or_add_menu(window, QObject::tr("&Settings"));
  settings->addAction(QObject::tr("Package search paths…"), &actions, [&actions] { actions.edit_package_paths(); });
}


}  // namespace

QString save_session_with_view(ViewportWindow* viewport, const StudioDocument& document, const QString& path) {
  std::optional<SessionCamera> camera;
  if (viewport) camera = to_session_camera(viewport->camera());
  return save_session(document, path, camera);
}

SessionLoadResult load_session_with_view(ViewportWindow* viewport, StudioDocument& document, const QString& path) {
  SessionLoadResult result = load_session(document, path);
  if (result.ok() && result.camera && viewport)
    viewport->set_camera(to_view_camera(viewport->camera(), *result.camera));
  return result;
}

DataFeatures install_data_features(QMainWindow& window, StudioDocument& document, const DataFeatureOptions& options) {
  DataFeatures features;
  features.settings = options.settings_file.isEmpty() ? new QSettings(&window)
                                                      : new QSettings(options.settings_file, QSettings::IniFormat, &window);
  Report report = options.report_error;
  if (!report)
    report = [&window](const QString& title, const QString& message) {
      window.statusBar()->showMessage(message, 10000);
      QMessageBox::warning(&window, title, message);
    };

  features.scene_panel = new panels::ScenePanel(&window);
  bind_scene_panel(*features.scene_panel, document);
  QObject::connect(features.scene_panel, &panels::ScenePanel::errorOccurred, &window,
                   [&window](const QString& message) { window.statusBar()->showMessage(message, 10000); });
  auto* scene_dock = new QDockWidget(QObject::tr("Scene"), &window);
  scene_dock->setObjectName(QStringLiteral("SceneDock"));
  scene_dock->setWidget(features.scene_panel);
  window.addDockWidget(Qt::RightDockWidgetArea, scene_dock);

  features.robot_library = new panels::RobotLibraryPanel(&window);
  auto* library_dock = new QDockWidget(QObject::tr("Robot library"), &window);
  library_dock->setObjectName(QStringLiteral("RobotLibraryDock"));
  library_dock->setWidget(features.robot_library);
  window.addDockWidget(Qt::RightDockWidgetArea, library_dock);
  window.tabifyDockWidget(scene_dock, library_dock);
  scene_dock->raise();

  // The 3D view, handed in by the window (attached after this, so asked for each time it is needed).
  const ViewportSource viewport_source =
      options.viewport ? options.viewport : ViewportSource([]() -> ViewportWindow* { return nullptr; });
  auto* actions = new DataActions(window, document, *features.settings, report, *features.scene_panel,
                                  options.unsaved_changes_question ? options.unsaved_changes_question
                                                                   : ask_unsaved_changes_with_message_box,
                                  viewport_source);
  features.session = &actions->tracker();
  features.open_session = [actions](const QString& path) { actions->open_session(path); };
  features.robot_loader = &actions->loader();
  // The 3D view reads a robot's display meshes on the loader's worker too (asked at each request:
  // the view is attached after this).
  features.robot_loader->set_mesh_warmer_source([viewport_source]() -> RobotLoader::MeshWarmer {
    if (ViewportWindow* viewport = viewport_source()) return viewport->mesh_warmer();
    return {};
  });
  QObject::connect(features.robot_library, &panels::RobotLibraryPanel::loadRequested, actions,
                   [actions](const QString& reference) { actions->load_robot(reference); });
  // The library lists the robot packages on the machine too, found off the GUI thread, again when
  // the package search paths change.
  auto* package_scan = new RobotPackageScan(features.robot_library);
  const auto scan_packages = [package_scan, library = features.robot_library, settings = features.settings] {
    package_scan->start(stored_package_paths(*settings),
                        [library](const std::vector<RobotPackageEntry>& found) { library->set_packages(found); });
  };
  actions->set_package_paths_changed(scan_packages);
  scan_packages();
  // The library marks the robot loaded now: a built-in one by name, one from a package row by path.
  const auto mark_loaded = [library = features.robot_library, &document] {
    library->set_loaded_name(!document.robot()           ? QString()
                             : document.robot_is_file() ? QFileInfo(document.robot_reference()).absoluteFilePath()
                                                        : document.robot_reference());
  };
  QObject::connect(&document, &StudioDocument::robotChanged, features.robot_library, mark_loaded);
  mark_loaded();
  build_menus(window, *actions, features);
  QMenu* view = find_or_add_menu(window, QObject::tr("&View"));
  view->addAction(scene_dock->toggleViewAction());
  view->addAction(library_dock->toggleViewAction());

  if (auto* joints = window.findChild<panels::JointsPanel*>()) bind_joints_panel_extras(*joints, document);

  features.file_watcher = new ModelFileWatcher(document, &window);
  features.file_watcher->set_loader(features.robot_loader);
  QObject::connect(features.file_watcher, &ModelFileWatcher::reloaded, actions,
                   [actions](const QString& file) {
                     actions->status(QObject::tr("Reloaded after %1 changed").arg(file));
                     actions->report_load_warnings(QObject::tr("Reloaded after %1 changed, with warnings").arg(file));
                   });
  QObject::connect(features.file_watcher, &ModelFileWatcher::reloadFailed, actions,
                   [report](const QString& message) { report(QObject::tr("Automatic reload failed"), message); });

  features.autosave = new Autosave(document, options.autosave_path, &window);
  features.autosave->set_interval_seconds(options.autosave_interval_seconds);
  actions->set_autosave(features.autosave);
  features.autosave->set_camera_source([viewport_source]() -> std::optional<SessionCamera> {
    if (ViewportWindow* viewport = viewport_source()) return to_session_camera(viewport->camera());
    return std::nullopt;
  });
  QObject::connect(features.autosave, &Autosave::failed, &window,
                   [&window](const QString& message) { window.statusBar()->showMessage(message, 10000); });
  // An end that did not pass the window's close (QCoreApplication::exit, as a script's
  // --quit-after does) with unsaved changes leaves them in the autosave, offered at the next start.
  QObject::connect(qApp, &QCoreApplication::aboutToQuit, features.autosave,
                   [autosave = features.autosave, actions] {
                     if (!actions->tracker().modified()) return;
                     if (autosave->save_if_changed().isEmpty()) autosave->keep_file_on_exit();
                   });
  if (options.offer_recovery) {
    // After the window is up, so the question has a parent on screen.
    const QString path = features.autosave->path();
    const RecoveryQuestion question = options.recovery_question;
    QTimer::singleShot(0, &window, [viewport_source, &document, path, question, report] {
      const RecoveryResult result = offer_orphaned_autosave(document, path, question);
      if (result.restored && result.camera)
        if (ViewportWindow* viewport = viewport_source())
          viewport->set_camera(to_view_camera(viewport->camera(), *result.camera));
      if (!result.error.isEmpty())
        report(QObject::tr("Could not restore the autosaved session"), result.error);
      else if (!result.warnings.isEmpty())
        report(QObject::tr("Session restored with warnings"), result.warnings.join(QLatin1Char('\n')));
    });
  }
  return features;
}

}  // namespace kinetic::app
