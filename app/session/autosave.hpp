#pragma once
// Autosave and crash recovery. While the studio runs, the session is written every few seconds
// (only when the document changed since the last write) to an autosave file; a clean shutdown
// removes it. An autosave found at start-up therefore means the last run did not end cleanly, or
// ended with changes no session file holds, and the user is offered to restore it.
//
// Each running studio has its own autosave file, held by a lock beside it: a second studio
// neither offers the first's autosave as a crash nor removes it; only files whose studio is gone
// are offered.
#include <QLockFile>
#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>
#include <optional>

#include "app/session/session_file.hpp"

namespace kinetic::app {

class StudioDocument;

class Autosave : public QObject {
  Q_OBJECT
 public:
  static constexpr int kDefaultIntervalSeconds = 30;

  // path "" = default_path().
  explicit Autosave(StudioDocument& document, QString path = {}, QObject* parent = nullptr);
  // Destruction is the clean shutdown: the autosave file is removed (unless keep_file_on_exit()).
  ~Autosave() override;

  // QStandardPaths::AppLocalDataLocation/studio-<process id>.autosave.kinetic-session: one per
  // running studio.
  static QString default_path();
  const QString& path() const { return path_; }

  // Where the viewport camera is, written with every autosave (the viewer owns the camera).
  using CameraSource = std::function<std::optional<SessionCamera>()>;
  void set_camera_source(CameraSource source) { camera_source_ = std::move(source); }

  void set_interval_seconds(int seconds);
  int interval_seconds() const { return timer_.interval() / 1000; }
  bool has_unsaved_changes() const { return dirty_; }

  // Writes the session now if it changed since the last write. Returns "" or the reason.
  QString save_if_changed();
  // Removes the autosave file (clean exit, or the user discarded the recovery).
  void remove_file();
  // The document was replaced by a fresh session (File → New session): the old work's autosave
  // goes, and nothing is written until the fresh session changes, so a crash never offers the
  // old work, nor an empty session, as unsaved changes.
  void start_over();
  // The studio is ending with changes no session file holds: leave them for the next start.
  void keep_file_on_exit() { keep_on_exit_ = true; }

 signals:
  void saved(const QString& path);
  void failed(const QString& message);

 private:
  StudioDocument& document_;
  QString path_;
  QTimer timer_;
  bool dirty_ = false;
  bool keep_on_exit_ = false;
  CameraSource camera_source_;
  QLockFile lock_;  // says the file belongs to a running studio
};

// Autosaves in the folder of `own_path` left by studios no longer running (their lock is free),
// newest first; `own_path` itself when it exists (what an earlier run with this path left).
QStringList orphaned_autosaves(const QString& own_path);

// Later: the question went unanswered (the studio was quit while it was open): the file stays.
enum class RecoveryChoice { Restore, Discard, Later };
// Asked when an autosave exists; the default shows a QMessageBox with Restore / Discard.
using RecoveryQuestion = std::function<RecoveryChoice(const QString& autosave_path)>;
RecoveryChoice ask_recovery_with_message_box(const QString& autosave_path);

struct RecoveryResult {
  bool offered = false;   // an autosave existed
  bool restored = false;  // and was loaded into the document
  QString error;          // restoring failed: the reason (the file is kept as <path>.failed)
  QStringList warnings;
  std::optional<SessionCamera> camera;  // the restored session's camera, for the viewport
};

// If `autosave_path` exists, asks `question`; Restore loads it into the document (then it stays
// for the running session's autosave to replace), Discard removes it.
RecoveryResult offer_recovery(StudioDocument& document, const QString& autosave_path,
                              const RecoveryQuestion& question = ask_recovery_with_message_box);

// offer_recovery for the newest of orphaned_autosaves(own_path); a restored one becomes this
// studio's own autosave (replaced by its next write, removed at its clean exit).
RecoveryResult offer_orphaned_autosave(
    StudioDocument& document, const QString& own_path,
    const RecoveryQuestion& question = ask_recovery_with_message_box);

}  // namespace kinetic::app
