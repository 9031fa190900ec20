#include "app/session/session_actions.hpp"

#include <QAction>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMainWindow>
#include <QMenu>
#include <QSettings>
#include <QStatusBar>

#include "app/document/studio_document.hpp"
#include "app/robot/robot_features.hpp"
#include "app/session/autosave.hpp"
#include "app/session/new_session.hpp"

namespace kinetic::app {

SessionActions::SessionActions(QMainWindow& window, StudioDocument& document, QSettings& settings,
                               Report report, RobotFeatures& robots,
                               UnsavedChangesQuestion unsaved_question, ViewportSource viewport)
    : QObject(&window),
      window_(window),
      viewport_(std::move(viewport)),
      document_(document),
      settings_(settings),
      recent_(settings),
      report_(std::move(report)),
      robots_(robots),
      tracker_(document, this),
      unsaved_question_(std::move(unsaved_question)) {
  setObjectName(QStringLiteral("SessionActions"));
  connect(&tracker_, &SessionTracker::changed, this, [this] { show_session_in_title(); });
  show_session_in_title();
  window_.installEventFilter(this);
  connect(&robots_, &RobotFeatures::robotOpened, this, &SessionActions::remember_robot);
  build_actions();
}

void SessionActions::build_actions() {
  const auto make = [this](const QString& text, auto slot, const QKeySequence& key) {
    auto* action = new QAction(text, this);
    action->setShortcut(key);
    connect(action, &QAction::triggered, this, slot);
    return action;
  };
  new_session_ = make(
      tr("New session"), [this] { new_session(); }, QKeySequence::New);
  open_session_ = make(
      tr("Open session…"), [this] { choose_and_open_session(); }, QKeySequence::Open);
  save_session_ = make(
      tr("Save session"), [this] { save_session(); }, QKeySequence::Save);
  save_session_as_ = make(
      tr("Save session as…"), [this] { choose_and_save_session(); }, QKeySequence::SaveAs);
}

void SessionActions::open_session(const QString& path) {
  if (!settle_unsaved_changes(tr("opening %1").arg(QFileInfo(path).fileName()))) return;
  const SessionLoadResult result = load_session_with_view(viewport_(), document_, path);
  if (!result.ok()) {
    report_(tr("Could not open the session"), result.error);
    return;
  }
  tracker_.mark_saved(QFileInfo(path).absoluteFilePath());
  recent_.add({RecentEntry::Kind::Session, QFileInfo(path).absoluteFilePath(), {}, {}});
  if (!result.warnings.isEmpty())
    report_(tr("Session opened with warnings"), result.warnings.join(QLatin1Char('\n')));
  status(tr("Opened session %1").arg(path));
}

void SessionActions::choose_and_open_session() {
  const QString path = QFileDialog::getOpenFileName(
      &window_, tr("Open session"), last_folder(panels::FileDialogKind::Session),
      tr("Kinetic sessions (*.kinetic-session);;All files (*)"));
  if (path.isEmpty()) return;
  remember_folder(panels::FileDialogKind::Session, path);
  open_session(path);
}

bool SessionActions::save_session() {
  if (tracker_.path().isEmpty()) return choose_and_save_session();
  return save_session_to(tracker_.path());
}

bool SessionActions::choose_and_save_session() {
  // The session's own file when it has one, else the folder sessions were last used in.
  const QString start =
      tracker_.path().isEmpty() ? last_folder(panels::FileDialogKind::Session) : tracker_.path();
  QString path = QFileDialog::getSaveFileName(&window_, tr("Save session as"), start,
                                              tr("Kinetic sessions (*.kinetic-session)"));
  if (path.isEmpty()) return false;
  remember_folder(panels::FileDialogKind::Session, path);
  if (!path.endsWith(QStringLiteral(".kinetic-session")))
    path += QStringLiteral(".kinetic-session");
  return save_session_to(path);
}

bool SessionActions::save_session_to(const QString& path) {
  const QString error = save_session_with_view(viewport_(), document_, path);
  if (!error.isEmpty()) {
    report_(tr("Could not save the session"), error);
    return false;
  }
  tracker_.mark_saved(QFileInfo(path).absoluteFilePath());
  recent_.add({RecentEntry::Kind::Session, QFileInfo(path).absoluteFilePath(), {}, {}});
  status(tr("Saved session %1").arg(path));
  return true;
}

void SessionActions::new_session() {
  if (!settle_unsaved_changes(tr("starting a new session"))) return;
  clear_to_new_session(document_);
  tracker_.start_untitled();
  if (autosave_) autosave_->start_over();
  status(tr("New session"));
}

bool SessionActions::settle_unsaved_changes(const QString& action) {
  if (!tracker_.modified()) return true;
  switch (unsaved_question_(&window_, tracker_.display_name(), action)) {
    case UnsavedChoice::Save:
      return save_session();
    case UnsavedChoice::Discard:
      return true;  // still modified: a session that then fails to open leaves the work as it was
    case UnsavedChoice::Cancel:
      break;
  }
  return false;
}

void SessionActions::show_session_in_title() {
  window_.setWindowTitle(tr("%1[*] — Kinetic Studio").arg(tracker_.display_name()));
  window_.setWindowModified(tracker_.modified());
}

void SessionActions::remember_robot(const QString& reference) {
  if (document_.robot_is_file())
    recent_.add({RecentEntry::Kind::Robot, QFileInfo(reference).absoluteFilePath(),
                 document_.robot_srdf(), document_.robot_config()});
}

void SessionActions::fill_recent_menu(QMenu* menu) {
  menu->clear();
  const QList<RecentEntry> entries = recent_.entries();
  for (const RecentEntry& entry : entries) {
    const QString kind = entry.kind == RecentEntry::Kind::Session ? tr("session") : tr("robot");
    menu->addAction(QStringLiteral("%1  (%2)").arg(QFileInfo(entry.path).fileName(), kind), this,
                    [this, entry] { open_recent(entry); })
        ->setToolTip(entry.path);
  }
  if (entries.isEmpty()) menu->addAction(tr("(none)"))->setEnabled(false);
}

void SessionActions::open_recent(const RecentEntry& entry) {
  if (!QFileInfo(entry.path).isFile()) {
    recent_.remove(entry.path);
    report_(tr("File not found"),
            tr("%1 no longer exists; it was removed from the recent files.").arg(entry.path));
    return;
  }
  if (entry.kind == RecentEntry::Kind::Session)
    open_session(entry.path);
  else
    robots_.load_robot(entry.path, entry.srdf, entry.config);
}

void SessionActions::status(const QString& message) {
  window_.statusBar()->showMessage(message, 5000);
}

QString SessionActions::last_folder(panels::FileDialogKind kind) const {
  return panels::last_dialog_folder(kind, settings_);
}

void SessionActions::remember_folder(panels::FileDialogKind kind, const QString& chosen) {
  panels::remember_dialog_folder(kind, chosen, settings_);
}

bool SessionActions::eventFilter(QObject* watched, QEvent* event) {
  if (watched != &window_ || event->type() != QEvent::Close)
    return QObject::eventFilter(watched, event);
  if (!settle_unsaved_changes(tr("closing"))) {
    event->ignore();
    return true;
  }
  // Closing with changes still unsaved means the user let them go: the autosave goes too.
  if (tracker_.modified()) tracker_.discard_changes();
  return false;
}

}  // namespace kinetic::app
