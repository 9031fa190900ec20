#pragma once
// The Scene dock and its file entries: the Scene panel bound to the document (its errors said in
// the status bar), and File → Load scene… / Save scene… (the dialogs open where the last scene
// file was, remembered in the settings; errors through `report`). The caller puts the actions in
// its File menu.
#include <QObject>
#include <QString>
#include <functional>

class QAction;
class QDockWidget;
class QMainWindow;
class QSettings;

namespace kinetic::panels {
class ScenePanel;
}  // namespace kinetic::panels

namespace kinetic::app {

class StudioDocument;

class SceneFeatures : public QObject {
  Q_OBJECT
 public:
  // Shows an error the user caused (a title and what went wrong).
  using Report = std::function<void(const QString& title, const QString& message)>;
  SceneFeatures(QMainWindow& window, StudioDocument& document, QSettings& settings, Report report);

  panels::ScenePanel* scene_panel() const { return scene_panel_; }
  QDockWidget* scene_dock() const { return scene_dock_; }
  QAction* load_scene_action() const { return load_scene_; }
  QAction* save_scene_action() const { return save_scene_; }

 private:
  void choose_and_load_scene();
  void choose_and_save_scene();

  QMainWindow& window_;
  QSettings& settings_;
  Report report_;
  panels::ScenePanel* scene_panel_ = nullptr;
  QDockWidget* scene_dock_ = nullptr;
  QAction* load_scene_ = nullptr;
  QAction* save_scene_ = nullptr;
};

}  // namespace kinetic::app
