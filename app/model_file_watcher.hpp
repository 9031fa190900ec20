#pragma once
// Reloads the robot when its URDF, SRDF or kinetic.toml changes on disk. Changes are debounced
// (editors write in several steps), and files that an editor replaced (write a new file, rename
// it over the old one) are watched again. A failed reload keeps the loaded robot and reports why.
#include <QFileSystemWatcher>
#include <QObject>
#include <QStringList>
#include <QTimer>

namespace kinetic::app {

class StudioDocument;

class ModelFileWatcher : public QObject {
  Q_OBJECT
 public:
  static constexpr int kDefaultDebounceMs = 300;

  explicit ModelFileWatcher(StudioDocument& document, QObject* parent = nullptr);

  void set_debounce_ms(int ms) { debounce_.setInterval(ms); }
  // The robot files being watched (empty for a built-in robot loaded by name).
  QStringList watched_files() const { return files_; }

 signals:
  void reloaded(const QString& changed_file);
  void reloadFailed(const QString& message);

 private:
  void watch_robot_files();
  void on_changed(const QString& path);
  void reload();

  StudioDocument& document_;
  QFileSystemWatcher watcher_;
  QTimer debounce_;
  QStringList files_;
  QString changed_;
};

}  // namespace kinetic::app
