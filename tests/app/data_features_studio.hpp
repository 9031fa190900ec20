#pragma once
// A test window with the studio's data features (File menu, sessions, autosave, scene panel) on a
// real document and UR5e, its autosave and settings in a folder of its own: what the session tests
// (unsaved changes, new session) drive through the real actions.
#include <QAction>
#include <QMainWindow>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <memory>

#include "app/document/studio_document.hpp"
#include "app/session/data_features.hpp"
#include "app/session/session_file.hpp"
#include "panels/scene_panel.hpp"
#include "user_actions.hpp"

namespace kinetic::test {

struct DataFeaturesStudio {
  QTemporaryDir dir;
  app::StudioDocument document;
  std::unique_ptr<QMainWindow> window = std::make_unique<QMainWindow>();
  app::DataFeatures features;
  QStringList reported;  // errors the features reported, "title: message"

  // `adjust` changes the options before the features are installed.
  explicit DataFeaturesStudio(const std::function<void(app::DataFeatureOptions&)>& adjust = {}) {
    document.load_robot(QStringLiteral("ur5e"));
    app::DataFeatureOptions options;
    options.autosave_path = dir.filePath(QStringLiteral("autosave.kinetic-session"));
    options.settings_file = dir.filePath(QStringLiteral("settings.ini"));
    options.offer_recovery = false;
    options.report_error = [this](const QString& title, const QString& message) {
      reported << title + ": " + message;
    };
    if (adjust) adjust(options);
    features = app::install_data_features(*window, document, options);
    window->show();
  }

  QString path(const char* name) const { return dir.filePath(QString::fromUtf8(name)); }
  void add_box() { QVERIFY(features.scene_panel->add_primitive(Shape::Type::Box).isEmpty()); }
  QAction* file_action(const QString& text) const {
    return menu_action(*window, QStringLiteral("File"), text);
  }
};

// Whether the session file at `path` opens and has obstacle `name`.
inline bool session_has_obstacle(const QString& path, const char* name) {
  app::StudioDocument reader;
  return app::load_session(reader, path).ok() && reader.scene().has_obstacle(name);
}

}  // namespace kinetic::test
