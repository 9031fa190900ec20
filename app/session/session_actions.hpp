#pragma once
// The File menu's session entries: New session, Open session…, Save session, Save session as…
// and Recent files (sessions and robots). Keeps the current session file and whether it has
// unsaved changes (SessionTracker), shows them in the window title, and asks Save / Discard /
// Cancel before unsaved work is replaced or the window closes. The caller puts the actions in
// its File menu.
#include <QObject>
#include <QString>
#include <functional>

#include "app/session/recent_files.hpp"
#include "app/session/session_tracker.hpp"
#include "app/session/session_view.hpp"
#include "panels/file_dialog_folders.hpp"

class QAction;
class QEvent;
class QMainWindow;
class QMenu;
class QSettings;

namespace kinetic::app {

class Autosave;
class RobotFeatures;
class StudioDocument;

class SessionActions : public QObject {
  Q_OBJECT
 public:
  // Shows an error the user caused (a title and what went wrong).
  using Report = std::function<void(const QString& title, const QString& message)>;
  // `robots` opens the recent robots, and tells of the robots opened for the recent list.
  SessionActions(QMainWindow& window, StudioDocument& document, QSettings& settings, Report report,
                 RobotFeatures& robots, UnsavedChangesQuestion unsaved_question,
                 ViewportSource viewport);

  SessionTracker& tracker() { return tracker_; }
  // Made after the actions; New session starts it over.
  void set_autosave(Autosave* autosave) { autosave_ = autosave; }

  QAction* new_session_action() const { return new_session_; }  // Ctrl+N
  QAction* open_session_action() const { return open_session_; }
  QAction* save_session_action() const { return save_session_; }
  QAction* save_session_as_action() const { return save_session_as_; }
  // Fills File → Recent files as it opens.
  void fill_recent_menu(QMenu* menu);

  // As File → Open session does with `path`: asks about unsaved changes, reports errors.
  void open_session(const QString& path);

 protected:
  // Closing the window (its close button, File → Quit) with unsaved changes asks first.
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void build_actions();
  void choose_and_open_session();
  // To the session file last opened or saved, or asks for one. True when the session was written.
  bool save_session();
  bool choose_and_save_session();
  bool save_session_to(const QString& path);
  // File → New session: after the unsaved-changes question, the document as the robot opens, no
  // session file (the next Save asks for one) and no autosave of the old work.
  void new_session();
  // Before unsaved work would be replaced or closed: asks Save / Discard / Cancel. True when it
  // may go ahead (nothing unsaved, saved now, or discarded).
  bool settle_unsaved_changes(const QString& action);
  void show_session_in_title();
  void remember_robot(const QString& reference);
  void open_recent(const RecentEntry& entry);
  void status(const QString& message);
  // Each kind of file dialog opens where the last one of its kind left off (in these settings).
  QString last_folder(panels::FileDialogKind kind) const;
  void remember_folder(panels::FileDialogKind kind, const QString& chosen);

  QMainWindow& window_;
  ViewportSource viewport_;
  StudioDocument& document_;
  QSettings& settings_;
  RecentFiles recent_;
  Report report_;
  RobotFeatures& robots_;
  SessionTracker tracker_;
  UnsavedChangesQuestion unsaved_question_;
  Autosave* autosave_ = nullptr;
  QAction* new_session_ = nullptr;
  QAction* open_session_ = nullptr;
  QAction* save_session_ = nullptr;
  QAction* save_session_as_ = nullptr;
};

}  // namespace kinetic::app
