// Qt Test (offscreen) on the studio's session file handling, through its real dialogs: the window
// title names the session and marks unsaved changes, Save session writes to the current file
// (asking for one the first time), and closing the window or opening another session with unsaved
// changes asks Save / Discard / Cancel; an exit that did not ask leaves the changes in the
// autosave.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QLineEdit>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>
#include <memory>

#include "app/document/studio_document.hpp"
#include "app/session/data_features.hpp"
#include "app/session/session_file.hpp"
#include "app/session/session_tracker.hpp"
#include "data_features_studio.hpp"
#include "panels/scene_panel.hpp"
#include "user_actions.hpp"

using kinetic::app::DataFeatureOptions;
using kinetic::app::DataFeatures;
using kinetic::app::StudioDocument;
using kinetic::app::UnsavedChoice;
using kinetic::test::cancel_file_dialog;
using kinetic::test::choose_file;
using kinetic::test::ModalAnswers;
using kinetic::test::session_has_obstacle;

namespace {

using UnsavedChangesStudio = kinetic::test::DataFeaturesStudio;

// Clicks the unsaved-changes box's button, after checking what the box says.
ModalAnswers::Handler answer_box(QMessageBox::StandardButton button, const QString& names,
                                 const QString& action) {
  return [=](QWidget* modal) {
    auto* box = qobject_cast<QMessageBox*>(modal);
    QVERIFY2(box, "expected the unsaved-changes question");
    QVERIFY2(box->text().contains(names), qPrintable(box->text()));
    QVERIFY2(box->informativeText().contains(action), qPrintable(box->informativeText()));
    for (auto wanted : {QMessageBox::Save, QMessageBox::Discard, QMessageBox::Cancel})
      QVERIFY(box->button(wanted));
    QAbstractButton* chosen = box->button(button);
    QTimer::singleShot(0, chosen, &QAbstractButton::click);
  };
}

}  // namespace

class UnsavedChangesTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

  void the_title_names_the_session_and_save_writes_to_it() {
    UnsavedChangesStudio studio;
    QCOMPARE(studio.window->windowTitle(), QStringLiteral("Untitled session[*] — Kinetic Studio"));
    QVERIFY(!studio.window->isWindowModified());
    QVERIFY(studio.features.save_session && studio.features.save_session_as);
    QCOMPARE(studio.features.save_session->shortcut(), QKeySequence(QKeySequence::Save));
    QCOMPARE(studio.file_action(QStringLiteral("Save session")), studio.features.save_session);

    studio.add_box();
    QVERIFY(studio.features.session->modified());
    QVERIFY(studio.window->isWindowModified());

    // The first Save asks where, through the real file dialog; the extension is added.
    {
      ModalAnswers answers({choose_file(studio.path("cell"))});
      studio.features.save_session->trigger();
      QCOMPARE(answers.answered(), std::size_t(1));
    }
    const QString cell = studio.path("cell.kinetic-session");
    QCOMPARE(studio.features.session->path(), cell);
    QCOMPARE(studio.window->windowTitle(),
             QStringLiteral("cell.kinetic-session[*] — Kinetic Studio"));
    QVERIFY(!studio.window->isWindowModified());
    QVERIFY(session_has_obstacle(cell, "box1"));

    // The next Save writes to the same file without asking.
    studio.add_box();
    QVERIFY(studio.window->isWindowModified());
    {
      ModalAnswers answers({});
      studio.features.save_session->trigger();
      QTest::qWait(60);
      QCOMPARE(answers.unexpected(), 0);
    }
    QVERIFY(!studio.window->isWindowModified());
    QVERIFY(session_has_obstacle(cell, "box2"));

    // Save as moves the work to another file; cancelling its dialog changes nothing.
    studio.add_box();
    {
      ModalAnswers answers({cancel_file_dialog()});
      studio.features.save_session_as->trigger();
      QCOMPARE(answers.answered(), std::size_t(1));
    }
    QVERIFY(studio.window->isWindowModified());
    QCOMPARE(studio.features.session->path(), cell);
    {
      ModalAnswers answers({choose_file(studio.path("copy.kinetic-session"))});
      studio.features.save_session_as->trigger();
    }
    QCOMPARE(studio.features.session->path(), studio.path("copy.kinetic-session"));
    QVERIFY(session_has_obstacle(studio.path("copy.kinetic-session"), "box3"));
    QVERIFY(!session_has_obstacle(cell, "box3"));
    QVERIFY(studio.reported.isEmpty());
  }

  void closing_with_unsaved_changes_asks_save_discard_or_cancel() {
    UnsavedChangesStudio studio;
    // Nothing changed: closes without a question.
    {
      ModalAnswers answers({});
      QVERIFY(studio.window->close());
      QCOMPARE(answers.unexpected(), 0);
    }
    studio.window->show();
    studio.add_box();
    const QString names = QStringLiteral("Untitled session");
    // Cancel keeps the window and the changes.
    {
      ModalAnswers answers({answer_box(QMessageBox::Cancel, names, QStringLiteral("closing"))});
      QVERIFY(!studio.window->close());
      QCOMPARE(answers.answered(), std::size_t(1));
    }
    QVERIFY(studio.window->isVisible());
    QVERIFY(studio.window->isWindowModified());
    // Save, then cancelling the file dialog: nothing was saved, so the window stays.
    {
      ModalAnswers answers(
          {answer_box(QMessageBox::Save, names, QStringLiteral("closing")), cancel_file_dialog()});
      QVERIFY(!studio.window->close());
      QCOMPARE(answers.answered(), std::size_t(2));
    }
    QVERIFY(studio.window->isVisible());
    // Save into a place that cannot be written (under a plain file): said, and the window stays.
    {
      QFile blocker(studio.path("not_a_folder"));
      QVERIFY(blocker.open(QIODevice::WriteOnly));
    }
    {
      ModalAnswers answers({answer_box(QMessageBox::Save, names, QStringLiteral("closing")),
                            choose_file(studio.path("not_a_folder/kept.kinetic-session"))});
      QVERIFY(!studio.window->close());
      QCOMPARE(answers.answered(), std::size_t(2));
    }
    QCOMPARE(studio.reported.size(), 1);
    QVERIFY2(studio.reported.first().startsWith(QStringLiteral("Could not save the session")),
             qPrintable(studio.reported.first()));
    QVERIFY(studio.window->isVisible());
    QVERIFY(studio.window->isWindowModified());
    studio.reported.clear();
    // Save into a file: written, then the window closes.
    {
      ModalAnswers answers({answer_box(QMessageBox::Save, names, QStringLiteral("closing")),
                            choose_file(studio.path("kept.kinetic-session"))});
      QVERIFY(studio.window->close());
      QCOMPARE(answers.answered(), std::size_t(2));
    }
    QVERIFY(session_has_obstacle(studio.path("kept.kinetic-session"), "box1"));
    QVERIFY(!studio.window->isVisible());

    // Discard closes and, being a clean exit, the autosave goes with the window.
    studio.window->show();
    studio.add_box();
    QVERIFY(studio.features.autosave->save_if_changed().isEmpty());
    const QString autosave = studio.features.autosave->path();
    QVERIFY(QFileInfo::exists(autosave));
    {
      ModalAnswers answers({answer_box(QMessageBox::Discard, QStringLiteral("kept.kinetic-session"),
                                       QStringLiteral("closing"))});
      QVERIFY(studio.window->close());
    }
    QVERIFY(!session_has_obstacle(studio.path("kept.kinetic-session"), "box2"));
    studio.window.reset();
    QVERIFY(!QFileInfo::exists(autosave));
  }

  void opening_another_session_asks_first() {
    QStringList actions;
    UnsavedChoice next = UnsavedChoice::Cancel;
    UnsavedChangesStudio studio([&](DataFeatureOptions& options) {
      options.unsaved_changes_question = [&](QWidget*, const QString& name, const QString& action) {
        actions << name + " / " + action;
        return next;
      };
    });
    StudioDocument other;
    QVERIFY(other.load_robot(QStringLiteral("panda")).isEmpty());
    const QString other_path = studio.path("other.kinetic-session");
    QVERIFY(kinetic::app::save_session(other, other_path).isEmpty());
    QAction* open = studio.file_action(QStringLiteral("Open session…"));
    QVERIFY(open);

    studio.add_box();
    // Cancel: the edited work stays.
    {
      ModalAnswers answers({choose_file(other_path)});
      open->trigger();
    }
    QCOMPARE(actions,
             QStringList{QStringLiteral("Untitled session / opening other.kinetic-session")});
    QCOMPARE(studio.document.robot_reference(), QStringLiteral("ur5e"));
    QVERIFY(studio.document.scene().has_obstacle("box1"));
    // Discard, then the file turns out unreadable: the work is as it was, and still unsaved.
    next = UnsavedChoice::Discard;
    const QString broken = studio.path("broken.kinetic-session");
    {
      QFile file(broken);
      QVERIFY(file.open(QIODevice::WriteOnly));
      file.write("{ \"format\": \"kinetic-session\", ");
    }
    {
      ModalAnswers answers({choose_file(broken)});
      open->trigger();
    }
    QCOMPARE(actions.size(), 2);
    QCOMPARE(studio.reported.size(), 1);
    QVERIFY(studio.document.scene().has_obstacle("box1"));
    QVERIFY(studio.window->isWindowModified());
    QVERIFY(studio.features.session->path().isEmpty());
    studio.reported.clear();
    // Discard: the other session replaces it and becomes the current file, unmodified.
    {
      ModalAnswers answers({choose_file(other_path)});
      open->trigger();
    }
    QCOMPARE(actions.size(), 3);
    QCOMPARE(studio.document.robot_reference(), QStringLiteral("panda"));
    QCOMPARE(studio.features.session->path(), other_path);
    QCOMPARE(studio.window->windowTitle(),
             QStringLiteral("other.kinetic-session[*] — Kinetic Studio"));
    QVERIFY(!studio.window->isWindowModified());
    // Nothing unsaved: no question.
    {
      ModalAnswers answers({choose_file(other_path)});
      open->trigger();
    }
    QCOMPARE(actions.size(), 3);
    QVERIFY(studio.reported.isEmpty());
    // Changes made after a discard are unsaved work like any other.
    studio.add_box();
    QVERIFY(studio.window->isWindowModified());
  }

  // Last: it runs and ends the application's event loop. An end that did not pass the window's
  // close (QCoreApplication::exit, as --quit-after does) keeps unsaved changes in the autosave,
  // and the next start offers them.
  void an_exit_that_did_not_ask_keeps_unsaved_changes_for_the_next_start() {
    QString autosave;
    {
      UnsavedChangesStudio studio([](DataFeatureOptions& options) {
        options.unsaved_changes_question = [](QWidget*, const QString&, const QString&) {
          return UnsavedChoice::Discard;
        };
      });
      autosave = studio.features.autosave->path();
      // Changes discarded for another session, then new ones: those are what must survive.
      const QString other = studio.path("other.kinetic-session");
      QVERIFY(kinetic::app::save_session(studio.document, other).isEmpty());
      studio.add_box();
      {
        ModalAnswers answers({choose_file(other)});
        studio.file_action(QStringLiteral("Open session…"))->trigger();
      }
      QVERIFY(!studio.document.scene().has_obstacle("box1"));
      studio.add_box();
      QTimer::singleShot(0, qApp, [] { QCoreApplication::exit(0); });
      QApplication::exec();
      QVERIFY(QFileInfo::exists(autosave));
      studio.window.reset();  // the autosave outlives the window
      QVERIFY(QFileInfo::exists(autosave));
      // Out of the test's folder, which goes with `studio`.
      const QString kept =
          QDir::temp().filePath(QStringLiteral("unsaved_changes_test.kinetic-session"));
      QFile::remove(kept);
      QVERIFY(QFile::rename(autosave, kept));
      autosave = kept;
    }
    QVERIFY(session_has_obstacle(autosave, "box1"));
    int offered = 0;
    UnsavedChangesStudio next([&](DataFeatureOptions& options) {
      options.autosave_path = autosave;
      options.offer_recovery = true;
      options.recovery_question = [&](const QString&) {
        ++offered;
        return kinetic::app::RecoveryChoice::Restore;
      };
    });
    QTRY_COMPARE(offered, 1);
    QVERIFY(next.document.scene().has_obstacle("box1"));
    QVERIFY(next.window->isWindowModified());  // restored work is not in any session file
    next.window.reset();
    QVERIFY(!QFileInfo::exists(autosave));
  }
};

QTEST_MAIN(UnsavedChangesTest)
#include "unsaved_changes_test.moc"
