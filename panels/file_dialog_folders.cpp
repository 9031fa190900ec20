#include "panels/file_dialog_folders.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

namespace kinetic::panels {

namespace {

QString settings_key(FileDialogKind kind) {
  switch (kind) {
    case FileDialogKind::Trajectory:
      return QStringLiteral("file_dialogs/trajectory");
    case FileDialogKind::Scene:
      return QStringLiteral("file_dialogs/scene");
    case FileDialogKind::Mesh:
      return QStringLiteral("file_dialogs/mesh");
    case FileDialogKind::Session:
      return QStringLiteral("file_dialogs/session");
    case FileDialogKind::Robot:
      return QStringLiteral("file_dialogs/robot");
  }
  return QStringLiteral("file_dialogs/other");
}

}  // namespace

QString last_dialog_folder(FileDialogKind kind) {
  return last_dialog_folder(kind, QSettings());
}

QString last_dialog_folder(FileDialogKind kind, const QSettings& settings) {
  const QString folder = settings.value(settings_key(kind)).toString();
  // An unmounted drive or a deleted project folder: the dialog's default beats an error.
  return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QString();
}

void remember_dialog_folder(FileDialogKind kind, const QString& chosen) {
  QSettings settings;
  remember_dialog_folder(kind, chosen, settings);
}

void remember_dialog_folder(FileDialogKind kind, const QString& chosen, QSettings& settings) {
  if (chosen.isEmpty()) return;
  settings.setValue(settings_key(kind), QFileInfo(chosen).absolutePath());
}

QString in_last_dialog_folder(FileDialogKind kind, const QString& file_name) {
  return in_last_dialog_folder(kind, file_name, QSettings());
}

QString in_last_dialog_folder(FileDialogKind kind, const QString& file_name,
                              const QSettings& settings) {
  const QString folder = last_dialog_folder(kind, settings);
  return folder.isEmpty() ? file_name : QDir(folder).filePath(file_name);
}

}  // namespace kinetic::panels
