#pragma once
// Acting on the studio as a user does, from a test: finding its menu entries, and answering the
// real modal dialogs an action opens (file dialogs, message boxes) in order, so the code under
// test runs through them as a user's clicks would.
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QTimer>
#include <QtTest>
#include <functional>
#include <vector>

namespace kinetic::test {

// The entry `text` of the window's menu `menu` ("File", without the & of its shortcut), or null.
inline QAction* menu_action(QMainWindow& window, const QString& menu, const QString& text) {
  for (QAction* entry : window.menuBar()->actions())
    if (entry->menu() && entry->text().remove('&') == menu)
      for (QAction* action : entry->menu()->actions())
        if (action->text() == text) return action;
  return nullptr;
}

// Answers the modal dialogs that open from now on, one handler each, in order; a dialog no
// handler is left for is rejected and counted, so a test never blocks on an unexpected question.
class ModalAnswers : public QObject {
 public:
  using Handler = std::function<void(QWidget*)>;
  explicit ModalAnswers(std::vector<Handler> handlers) : handlers_(std::move(handlers)) {
    connect(&poll_, &QTimer::timeout, this, [this] {
      QWidget* modal = QApplication::activeModalWidget();
      if (!modal || modal == last_) return;  // (a dialog that is gone leaves last_ null)
      last_ = modal;
      if (next_ < handlers_.size())
        handlers_[next_++](modal);
      else {
        ++unexpected_;
        QMetaObject::invokeMethod(modal, "reject", Qt::QueuedConnection);
      }
    });
    poll_.start(20);
  }
  std::size_t answered() const { return next_; }
  int unexpected() const { return unexpected_; }

 private:
  std::vector<Handler> handlers_;
  std::size_t next_ = 0;
  int unexpected_ = 0;
  QPointer<QWidget> last_;
  QTimer poll_;
};

// Types the path into the dialog's file name field, as a user would, and accepts.
inline ModalAnswers::Handler choose_file(const QString& path) {
  return [path](QWidget* modal) {
    auto* dialog = qobject_cast<QFileDialog*>(modal);
    QVERIFY2(dialog, "expected a file dialog");
    auto* name = dialog->findChild<QLineEdit*>(QStringLiteral("fileNameEdit"));
    QVERIFY2(name, "the file dialog has no file name field");
    name->setText(path);
    QMetaObject::invokeMethod(dialog, "accept", Qt::QueuedConnection);
  };
}

inline ModalAnswers::Handler cancel_file_dialog() {
  return [](QWidget* modal) {
    QVERIFY2(qobject_cast<QFileDialog*>(modal), "expected a file dialog");
    QMetaObject::invokeMethod(modal, "reject", Qt::QueuedConnection);
  };
}

}  // namespace kinetic::test
