#pragma once
// Reloads the robot when its URDF, SRDF or kinetic.toml (or a file a xacro one includes) changes on
// disk. Changes are debounced (editors write in several steps), and files that an editor replaced
// (write a new file, rename it over the old one) are watched again. A failed reload keeps the
// loaded robot and reports why.
#include <QFileSystemWatcher>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QTimer>

#include "app/robot/robot_loader.hpp"

namespace kinetic::app {

class StudioDocument;

class ModelFileWatcher : public QObject {
  Q_OBJECT
 public:
  static constexpr int kDefaultDebounceMs = 300;

  explicit ModelFileWatcher(StudioDocument& document, QObject* parent = nullptr);

  void set_debounce_ms(int ms) { debounce_.setInterval(ms); }
  // Reloads through this loader, in the background (the studio's); without one, at once.
  void set_loader(RobotLoader* loader) { loader_ = loader; }
  // The robot files being watched (empty for a built-in robot loaded by name).
  QStringList watched_files() const { return files_; }

 signals:
  void reloaded(const QString& changed_file);
  void reloadFailed(const QString& message);

 private:
  void watch_robot_files();
  void on_changed(const QString& path);
  void reload();
  void reload_done(const QString& changed, const QString& error);

  StudioDocument& document_;
  QPointer<RobotLoader> loader_;
  QFileSystemWatcher watcher_;
  QTimer debounce_;
  QStringList files_;
  QString changed_;
};

}  // namespace kinetic::app
