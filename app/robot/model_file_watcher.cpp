#include "app/robot/model_file_watcher.hpp"

#include <QFileInfo>

#include "app/document/studio_document.hpp"

namespace kinetic::app {

ModelFileWatcher::ModelFileWatcher(StudioDocument& document, QObject* parent)
    : QObject(parent), document_(document) {
  debounce_.setSingleShot(true);
  debounce_.setInterval(kDefaultDebounceMs);
  connect(&debounce_, &QTimer::timeout, this, &ModelFileWatcher::reload);
  connect(&watcher_, &QFileSystemWatcher::fileChanged, this, &ModelFileWatcher::on_changed);
  // A file replaced by rename drops out of the watcher; its folder reports the new one.
  connect(&watcher_, &QFileSystemWatcher::directoryChanged, this, [this] {
    for (const QString& file : files_)
      if (!watcher_.files().contains(file) && QFileInfo(file).isFile()) on_changed(file);
  });
  connect(&document_, &StudioDocument::robotChanged, this, &ModelFileWatcher::watch_robot_files);
  watch_robot_files();
}

void ModelFileWatcher::watch_robot_files() {
  if (!watcher_.files().isEmpty()) watcher_.removePaths(watcher_.files());
  if (!watcher_.directories().isEmpty()) watcher_.removePaths(watcher_.directories());
  files_.clear();
  const QString reference = document_.robot_reference();
  // Built-in robots are loaded by name and not edited in place; files are watched.
  QStringList paths{reference, document_.robot_srdf(), document_.robot_config()};
  // A xacro description is also made of the files it includes (its macros, often).
  if (document_.robot())
    for (const std::string& included : document_.robot()->included_files())
      paths << QString::fromStdString(included);
  for (const QString& path : paths) {
    const QFileInfo info(path);
    if (path.isEmpty() || !info.isFile() || files_.contains(info.absoluteFilePath())) continue;
    files_ << info.absoluteFilePath();
  }
  if (files_.isEmpty()) return;
  watcher_.addPaths(files_);
  QStringList folders;
  for (const QString& file : files_)
    if (!folders.contains(QFileInfo(file).absolutePath()))
      folders << QFileInfo(file).absolutePath();
  watcher_.addPaths(folders);
}

void ModelFileWatcher::on_changed(const QString& path) {
  if (!files_.contains(path)) return;
  changed_ = path;
  if (QFileInfo(path).isFile() && !watcher_.files().contains(path)) watcher_.addPath(path);
  debounce_.start();
}

void ModelFileWatcher::reload() {
  const QString changed = changed_;
  if (loader_) {
    loader_->reload(this, [this, changed](const QString& error) { reload_done(changed, error); });
    return;
  }
  reload_done(changed, document_.reload_robot());
}

void ModelFileWatcher::reload_done(const QString& changed, const QString& error) {
  if (!error.isEmpty()) {
    // The robot stays; keep watching so the next save is tried again.
    for (const QString& file : files_)
      if (QFileInfo(file).isFile() && !watcher_.files().contains(file)) watcher_.addPath(file);
    emit reloadFailed(
        tr("Reloading %1 failed; the loaded robot was kept.\n%2").arg(changed, error));
    return;
  }
  emit reloaded(changed);
}

}  // namespace kinetic::app
