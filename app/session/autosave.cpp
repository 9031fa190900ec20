#include "app/session/autosave.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>

#include "app/studio_document.hpp"

namespace kinetic::app {

Autosave::Autosave(StudioDocument& document, QString path, QObject* parent)
    : QObject(parent), document_(document), path_(path.isEmpty() ? default_path() : std::move(path)) {
  on_session_content_changed(document_, this, [this] { dirty_ = true; });
  timer_.setInterval(kDefaultIntervalSeconds * 1000);
  connect(&timer_, &QTimer::timeout, this, [this] { save_if_changed(); });
  timer_.start();
}

Autosave::~Autosave() {
  if (!keep_on_exit_) remove_file();
}

QString Autosave::default_path() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
      .filePath(QStringLiteral("autosave.kinetic-session"));
}

void Autosave::set_interval_seconds(int seconds) { timer_.setInterval(std::max(1, seconds) * 1000); }

QString Autosave::save_if_changed() {
  if (!dirty_ || !document_.robot()) return {};
  QDir().mkpath(QFileInfo(path_).absolutePath());
  const QString error = save_session(document_, path_, camera_source_ ? camera_source_() : std::nullopt);
  if (!error.isEmpty()) {
    emit failed(error);
    return error;
  }
  dirty_ = false;
  emit saved(path_);
  return {};
}

void Autosave::remove_file() { QFile::remove(path_); }

void Autosave::start_over() {
  remove_file();
  dirty_ = false;
}

RecoveryChoice ask_recovery_with_message_box(const QString& autosave_path) {
  QMessageBox box(QMessageBox::Question, QObject::tr("Recover session"),
                  QObject::tr("Kinetic Studio did not shut down cleanly, or ended with unsaved changes. A session "
                              "autosaved at %1 was found.\n\n"
                              "Restore it, or discard it and keep the current session?")
                      .arg(QFileInfo(autosave_path).lastModified().toString(Qt::TextDate)));
  QPushButton* restore = box.addButton(QObject::tr("Restore"), QMessageBox::AcceptRole);
  box.addButton(QObject::tr("Discard"), QMessageBox::DestructiveRole);
  box.setDefaultButton(restore);
  box.exec();
  return box.clickedButton() == restore ? RecoveryChoice::Restore : RecoveryChoice::Discard;
}

RecoveryResult offer_recovery(StudioDocument& document, const QString& autosave_path, const RecoveryQuestion& question) {
  RecoveryResult result;
  if (!QFileInfo(autosave_path).isFile()) return result;
  result.offered = true;
  if (question(autosave_path) == RecoveryChoice::Discard) {
    QFile::remove(autosave_path);
    return result;
  }
  const SessionLoadResult loaded = load_session(document, autosave_path);
  if (!loaded.ok()) {
    // Keep the file for the user to inspect, out of the way of the next autosave.
    const QString kept = autosave_path + QStringLiteral(".failed");
    QFile::remove(kept);
    QFile::rename(autosave_path, kept);
    result.error = QObject::tr("%1\nThe autosave was kept as %2.").arg(loaded.error, kept);
    return result;
  }
  result.restored = true;
  result.warnings = loaded.warnings;
  result.camera = loaded.camera;
  return result;
}

}  // namespace kinetic::app
