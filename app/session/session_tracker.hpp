#pragma once
// Which session file the studio is working on, and whether the document changed since it was
// last opened or saved: the window title shows both ("cell.kinetic-session* — Kinetic Studio"),
// Save session writes to that file, and closing the window, opening another session or starting a
// new one with unsaved changes asks first (Save / Discard / Cancel).
#include <QObject>
#include <QString>
#include <functional>

class QWidget;

namespace kinetic::app {

class StudioDocument;

class SessionTracker : public QObject {
  Q_OBJECT
 public:
  explicit SessionTracker(StudioDocument& document, QObject* parent = nullptr);

  // The session file last opened or saved ("" = none yet: the work is untitled).
  const QString& path() const { return path_; }
  // The document changed (robot, joints, scene, goal, trajectories, stored states) since then, or
  // since start-up.
  bool modified() const { return modified_; }
  // "cell.kinetic-session", or "Untitled session".
  QString display_name() const;

  // After the document was loaded from, or written to, `path`.
  void mark_saved(const QString& path);
  // The user chose to let the unsaved changes go (closing the window).
  void discard_changes();
  // A fresh session replaced the work (File → New session): no file yet, so the next Save asks
  // for one, and nothing unsaved.
  void start_untitled();

 signals:
  void changed();

 private:
  QString path_;
  bool modified_ = false;
};

enum class UnsavedChoice { Save, Discard, Cancel };
// Asked before unsaved work would be lost; `action` says what is about to happen ("closing",
// "opening another session", "starting a new session"). The default shows a QMessageBox.
using UnsavedChangesQuestion = std::function<UnsavedChoice(
    QWidget* parent, const QString& session_name, const QString& action)>;
UnsavedChoice ask_unsaved_changes_with_message_box(QWidget* parent, const QString& session_name,
                                                   const QString& action);

}  // namespace kinetic::app
