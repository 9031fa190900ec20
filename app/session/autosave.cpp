#include "app/session/autosave.hpp"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardPaths>
#include <algorithm>

#include "app/document/studio_document.hpp"

namespace kinetic::app {

namespace {

const QString kLockSuffix = QStringLiteral(".lock");
const QString kAutosavePattern = QStringLiteral("*autosave.kinetic-session");

}  // namespace

Autosave::Autosave(StudioDocument& document, QString path, QObject* parent)
    : QObject(parent),
      document_(document),
      path_(path.isEmpty() ? default_path() : std::move(path)),
      lock_(path_ + kLockSuffix) {
  QDir().mkpath(QFileInfo(path_).absolutePath());
  lock_.setStaleLockTime(0);  // held for the studio's whole run; a dead studio's lock is stale
  lock_.tryLock(0);
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
      .filePath(QStringLiteral("studio-%1.autosave.kinetic-session")
                    .arg(QCoreApplication::applicationPid()));
}

void Autosave::set_interval_seconds(int seconds) {
  timer_.setInterval(std::max(1, seconds) * 1000);
}

QString Autosave::save_if_changed() {
  if (!dirty_ || !document_.robot()) return {};
  QDir().mkpath(QFileInfo(path_).absolutePath());
  const QString error =
      save_session(document_, path_, camera_source_ ? camera_source_() : std::nullopt);
  if (!error.isEmpty()) {
    emit failed(error);
    return error;
  }
  dirty_ = false;
  emit saved(path_);
  return {};
}

void Autosave::remove_file() {
  QFile::remove(path_);
}

void Autosave::start_over() {
  remove_file();
  dirty_ = false;
}

QStringList orphaned_autosaves(const QString& own_path) {
  const QFileInfo own(own_path);
  QFileInfoList orphans;
  if (own.isFile()) orphans << own;  // what an earlier run with this path left, whatever its name
  for (const QFileInfo& file : own.absoluteDir().entryInfoList({kAutosavePattern}, QDir::Files)) {
    if (file.absoluteFilePath() == own.absoluteFilePath()) continue;
    // Free only when no running studio holds it (QLockFile tells a dead studio's stale lock;
    // never by age: a studio's lock is as old as its run).
    QLockFile lock(file.absoluteFilePath() + kLockSuffix);
    lock.setStaleLockTime(0);
    if (lock.tryLock(0)) orphans << file;
  }
  std::sort(orphans.begin(), orphans.end(), [](const QFileInfo& a, const QFileInfo& b) {
    return a.lastModified() > b.lastModified();
  });
  QStringList paths;
  for (const QFileInfo& file : orphans) paths << file.absoluteFilePath();
  return paths;
}

RecoveryChoice ask_recovery_with_message_box(const QString& autosave_path) {
  const QFileInfo file(autosave_path);
  QMessageBox box(
      QMessageBox::Question, QObject::tr("Recover session"),
      QObject::tr(
          "Kinetic Studio did not shut down cleanly, or ended with unsaved changes. A session "
          "autosaved at %1 was found:\n%2\n\n"
          "Restore it, or discard it and keep the current session?")
          .arg(file.lastModified().toString(Qt::TextDate),
               QDir::toNativeSeparators(file.absoluteFilePath())));
  QPushButton* restore = box.addButton(QObject::tr("Restore"), QMessageBox::AcceptRole);
  QPushButton* discard = box.addButton(QObject::tr("Discard"), QMessageBox::DestructiveRole);
  box.setDefaultButton(restore);
  box.exec();
  // Neither button: the studio is quitting (--quit-after, the session ending) with the question
  // open.
  if (box.clickedButton() == restore) return RecoveryChoice::Restore;
  return box.clickedButton() == discard ? RecoveryChoice::Discard : RecoveryChoice::Later;
}

RecoveryResult offer_recovery(StudioDocument& document, const QString& autosave_path,
                              const RecoveryQuestion& question) {
  RecoveryResult result;
  if (!QFileInfo(autosave_path).isFile()) return result;
  result.offered = true;
  const RecoveryChoice choice = question(autosave_path);
  if (choice == RecoveryChoice::Later) return result;
  if (choice == RecoveryChoice::Discard) {
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

RecoveryResult offer_orphaned_autosave(StudioDocument& document, const QString& own_path,
                                       const RecoveryQuestion& question) {
  const QStringList orphans = orphaned_autosaves(own_path);
  if (orphans.isEmpty()) return {};
  const QString& orphan = orphans.front();
  RecoveryResult result = offer_recovery(document, orphan, question);
  if (result.restored &&
      QFileInfo(orphan).absoluteFilePath() != QFileInfo(own_path).absoluteFilePath()) {
    QFile::remove(own_path);
    QFile::rename(orphan, own_path);
  }
  return result;
}

}  // namespace kinetic::app
