#include "app/session/session_tracker.hpp"

#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>

#include "app/document/studio_document.hpp"

namespace kinetic::app {

SessionTracker::SessionTracker(StudioDocument& document, QObject* parent) : QObject(parent) {
  on_session_content_changed(document, this, [this] {
    if (modified_) return;
    modified_ = true;
    emit changed();
  });
}

QString SessionTracker::display_name() const {
  return path_.isEmpty() ? tr("Untitled session") : QFileInfo(path_).fileName();
}

void SessionTracker::mark_saved(const QString& path) {
  path_ = path;
  modified_ = false;
  emit changed();
}

void SessionTracker::discard_changes() {
  modified_ = false;
  emit changed();
}

void SessionTracker::start_untitled() {
  path_.clear();
  modified_ = false;
  emit changed();
}

UnsavedChoice ask_unsaved_changes_with_message_box(QWidget* parent, const QString& session_name,
                                                   const QString& action) {
  QMessageBox box(QMessageBox::Warning, QObject::tr("Unsaved changes"),
                  QObject::tr("%1 has changes that are not saved.").arg(session_name),
                  QMessageBox::NoButton, parent);
  box.setInformativeText(QObject::tr("Save them before %1?").arg(action));
  QPushButton* save = box.addButton(QMessageBox::Save);
  QPushButton* discard = box.addButton(QMessageBox::Discard);
  box.addButton(QMessageBox::Cancel);
  box.setDefaultButton(save);
  box.exec();
  if (box.clickedButton() == save) return UnsavedChoice::Save;
  if (box.clickedButton() == discard) return UnsavedChoice::Discard;
  return UnsavedChoice::Cancel;  // Cancel, Escape or the box closed
}

}  // namespace kinetic::app
