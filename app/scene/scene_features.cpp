#include "app/scene/scene_features.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QSettings>
#include <QStatusBar>

#include "app/scene/scene_panel_binding.hpp"
#include "panels/file_dialog_folders.hpp"
#include "panels/scene_panel.hpp"

namespace kinetic::app {

SceneFeatures::SceneFeatures(QMainWindow& window, StudioDocument& document, QSettings& settings,
                             Report report)
    : QObject(&window), window_(window), settings_(settings), report_(std::move(report)) {
  setObjectName(QStringLiteral("SceneFeatures"));
  scene_panel_ = new panels::ScenePanel(&window);
  bind_scene_panel(*scene_panel_, document);
  connect(scene_panel_, &panels::ScenePanel::errorOccurred, &window,
          [&window](const QString& message) { window.statusBar()->showMessage(message, 10000); });
  scene_dock_ = new QDockWidget(tr("Scene"), &window);
  scene_dock_->setObjectName(QStringLiteral("SceneDock"));
  scene_dock_->setWidget(scene_panel_);
  window.addDockWidget(Qt::RightDockWidgetArea, scene_dock_);

  load_scene_ = new QAction(tr("Load scene…"), this);
  connect(load_scene_, &QAction::triggered, this, [this] { choose_and_load_scene(); });
  save_scene_ = new QAction(tr("Save scene…"), this);
  connect(save_scene_, &QAction::triggered, this, [this] { choose_and_save_scene(); });
}

void SceneFeatures::choose_and_load_scene() {
  using panels::FileDialogKind;
  const QString path = QFileDialog::getOpenFileName(
      &window_, tr("Load scene"), panels::last_dialog_folder(FileDialogKind::Scene, settings_),
      tr("Kinetic scenes (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  panels::remember_dialog_folder(FileDialogKind::Scene, path, settings_);
  const QString error = scene_panel_->load_scene_file(path);
  if (!error.isEmpty()) report_(tr("Could not load the scene"), error);
}

void SceneFeatures::choose_and_save_scene() {
  using panels::FileDialogKind;
  QString path = QFileDialog::getSaveFileName(
      &window_, tr("Save scene"), panels::last_dialog_folder(FileDialogKind::Scene, settings_),
      tr("Kinetic scenes (*.json)"));
  if (path.isEmpty()) return;
  panels::remember_dialog_folder(FileDialogKind::Scene, path, settings_);
  if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) path += QStringLiteral(".json");
  const QString error = scene_panel_->save_scene_file(path);
  if (!error.isEmpty()) report_(tr("Could not save the scene"), error);
}

}  // namespace kinetic::app
