#include "app/session/data_features.hpp"

#include <QAction>
#include <QCoreApplication>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <optional>

#include "app/document/studio_document.hpp"
#include "app/robot/joints_panel_binding.hpp"
#include "app/robot/robot_features.hpp"
#include "app/robot/robot_loader.hpp"
#include "app/scene/scene_features.hpp"
#include "app/session/session_actions.hpp"
#include "app/viewport/viewport_window.hpp"
#include "panels/joints_panel.hpp"

namespace kinetic::app {

namespace {

using Report = std::function<void(const QString&, const QString&)>;

QString plain(QString title) {
  return title.remove(QLatin1Char('&'));
}

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
    if (action->shortcut() == QKeySequence(QKeySequence::Quit) ||
        plain(action->text()) == QStringLiteral("Quit"))
      return action;
  return nullptr;
}

// The File menu's data section (robots, recent files, sessions, scenes, between separators, before
// Quit) and Settings → Package search paths.
void build_menus(QMainWindow& window, RobotFeatures& robots, SceneFeatures& scene,
                 SessionActions& sessions) {
  QMenu* file = find_or_add_menu(window, QObject::tr("&File"));
  QAction* before = quit_action(file);
  const auto separator = [&] {
    auto* line = new QAction(file);
    line->setSeparator(true);
    file->insertAction(before, line);
  };
  separator();
  file->insertActions(before, {robots.open_robot_action(), robots.reload_robot_action()});
  auto* recent = new QMenu(QObject::tr("Recent files"), file);
  QObject::connect(recent, &QMenu::aboutToShow, &sessions,
                   [&sessions, recent] { sessions.fill_recent_menu(recent); });
  file->insertMenu(before, recent);
  file->insertActions(before, {sessions.new_session_action(), sessions.open_session_action(),
                               sessions.save_session_action(), sessions.save_session_as_action(),
                               scene.load_scene_action(), scene.save_scene_action()});
  separator();

  QMenu* settings = find_or_add_menu(window, QObject::tr("&Settings"));
  settings->addAction(robots.package_paths_action());
}

// Autosave of the session (with the view's camera) and, when `options` ask for it, the offer to
// restore an autosave a crash left behind.
Autosave* install_autosave(QMainWindow& window, StudioDocument& document,
                           const DataFeatureOptions& options, SessionActions& sessions,
                           const ViewportSource& viewport_source, const Report& report) {
  auto* autosave = new Autosave(document, options.autosave_path, &window);
  autosave->set_interval_seconds(options.autosave_interval_seconds);
  sessions.set_autosave(autosave);
  autosave->set_camera_source([viewport_source] { return session_camera_of(viewport_source()); });
  QObject::connect(autosave, &Autosave::failed, &window, [&window](const QString& message) {
    window.statusBar()->showMessage(message, 10000);
  });
  // An end that did not pass the window's close (QCoreApplication::exit, as a script's
  // --quit-after does) with unsaved changes leaves them in the autosave, offered at the next start.
  QObject::connect(qApp, &QCoreApplication::aboutToQuit, autosave, [autosave, &sessions] {
    if (!sessions.tracker().modified()) return;
    if (autosave->save_if_changed().isEmpty()) autosave->keep_file_on_exit();
  });
  if (options.offer_recovery) {
    // After the window is up, so the question has a parent on screen.
    const QString path = autosave->path();
    const RecoveryQuestion question = options.recovery_question;
    QTimer::singleShot(0, &window, [viewport_source, &document, path, question, report] {
      const RecoveryResult result = offer_orphaned_autosave(document, path, question);
      if (result.restored && result.camera) show_session_camera(viewport_source(), *result.camera);
      if (!result.error.isEmpty())
        report(QObject::tr("Could not restore the autosaved session"), result.error);
      else if (!result.warnings.isEmpty())
        report(QObject::tr("Session restored with warnings"),
               result.warnings.join(QLatin1Char('\n')));
    });
  }
  return autosave;
}

}  // namespace

DataFeatures install_data_features(QMainWindow& window, StudioDocument& document,
                                   const DataFeatureOptions& options) {
  DataFeatures features;
  features.settings = options.settings_file.isEmpty()
                          ? new QSettings(&window)
                          : new QSettings(options.settings_file, QSettings::IniFormat, &window);
  Report report = options.report_error;
  if (!report)
    report = [&window](const QString& title, const QString& message) {
      window.statusBar()->showMessage(message, 10000);
      QMessageBox::warning(&window, title, message);
    };

  // The Scene dock first: the View menu lists the docks in the order they were made.
  auto* scene = new SceneFeatures(window, document, *features.settings, report);
  auto* robots = new RobotFeatures(window, document, *features.settings, report);
  window.tabifyDockWidget(scene->scene_dock(), robots->library_dock());
  scene->scene_dock()->raise();
  features.scene_panel = scene->scene_panel();
  features.robot_library = robots->library();
  features.robot_loader = &robots->loader();
  features.file_watcher = robots->file_watcher();
  features.open_robot = robots->open_robot_action();

  // The 3D view, handed in by the window (attached after this, so asked for each time it is
  // needed).
  const ViewportSource viewport_source =
      options.viewport ? options.viewport
                       : ViewportSource([]() -> ViewportWindow* { return nullptr; });
  auto* sessions =
      new SessionActions(window, document, *features.settings, report, *robots,
                         options.unsaved_changes_question ? options.unsaved_changes_question
                                                          : ask_unsaved_changes_with_message_box,
                         viewport_source);
  features.session = &sessions->tracker();
  features.open_session = [sessions](const QString& path) { sessions->open_session(path); };
  features.new_session = sessions->new_session_action();
  features.save_session = sessions->save_session_action();
  features.save_session_as = sessions->save_session_as_action();
  // The 3D view reads a robot's display meshes on the loader's worker too (asked at each request:
  // the view is attached after this).
  features.robot_loader->set_mesh_warmer_source([viewport_source]() -> RobotLoader::MeshWarmer {
    if (ViewportWindow* viewport = viewport_source()) return viewport->mesh_warmer();
    return {};
  });
  build_menus(window, *robots, *scene, *sessions);
  QMenu* view = find_or_add_menu(window, QObject::tr("&View"));
  view->addAction(scene->scene_dock()->toggleViewAction());
  view->addAction(robots->library_dock()->toggleViewAction());

  if (auto* joints = window.findChild<panels::JointsPanel*>())
    bind_joints_panel_extras(*joints, document);

  features.autosave =
      install_autosave(window, document, options, *sessions, viewport_source, report);
  return features;
}

}  // namespace kinetic::app
