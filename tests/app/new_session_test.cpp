// Qt Test (offscreen) on File → New session, through the real action: with unsaved changes it asks
// Save / Discard / Cancel first, as opening another session does; then the document is what the
// robot opens with (the robot kept in its rest pose; no scene, goal, trajectories, stored states
// or undo history; the Planner settings kept), the session file is forgotten (the title says
// Untitled, the next Save asks for a file and leaves the old one alone) and the autosave does not
// keep the old work.
#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>
#include <memory>

#include "app/document/studio_document.hpp"
#include "app/planning/planning_features.hpp"
#include "app/session/data_features.hpp"
#include "app/session/session_file.hpp"
#include "app/session/session_tracker.hpp"
#include "app/studio_window_factory.hpp"
#include "data_features_studio.hpp"
#include "engine/planning/rest_pose.hpp"
#include "panels/planner_panel.hpp"
#include "panels/scene_panel.hpp"
#include "user_actions.hpp"

using kinetic::JointVector;
using kinetic::app::DataFeatureOptions;
using kinetic::app::DataFeatures;
using kinetic::app::StudioDocument;
using kinetic::app::UnsavedChoice;
using kinetic::test::cancel_file_dialog;
using kinetic::test::choose_file;
using kinetic::test::ModalAnswers;
using kinetic::test::session_has_obstacle;

namespace {

const QString kUntitledTitle = QStringLiteral("Untitled session[*] — Kinetic Studio");
const QString kStarting = QStringLiteral("starting a new session");

// The data features' test window, the unsaved-changes question answered by `next` (each question
// asked is kept).
struct NewSessionStudio : kinetic::test::DataFeaturesStudio {
  QStringList asked;
  UnsavedChoice next = UnsavedChoice::Cancel;

  NewSessionStudio()
      : DataFeaturesStudio([this](DataFeatureOptions& options) {
          // Called only later, when a question is asked: `asked` and `next` exist by then.
          options.unsaved_changes_question = [this](QWidget*, const QString& name,
                                                    const QString& action) {
            asked << name + " / " + action;
            return next;
          };
        }) {}

  // Saves through Save session, choosing `file` in its dialog.
  void save_as(const QString& file) {
    ModalAnswers answers({choose_file(file)});
    features.save_session->trigger();
    QCOMPARE(answers.answered(), std::size_t(1));
  }
  // File → New session, answering no dialog (the question is `next`).
  void new_session() {
    ModalAnswers answers({});
    features.new_session->trigger();
    QTest::qWait(60);
    QCOMPARE(answers.unexpected(), 0);
  }
};

JointVector off_rest() {
  return (JointVector(6) << 0.4, -1.0, 1.1, -1.3, -1.57, 0.2).finished();
}

kinetic::Trajectory short_motion(const StudioDocument& document) {
  const JointVector rest = JointVector::Zero(6);
  return kinetic::Trajectory(
      "ur5e", document.robot()->variable_names(),
      std::vector<kinetic::PositionUnit>(6, kinetic::PositionUnit::Radian),
      {{0.0, off_rest(), rest, rest}, {1.0, JointVector::Zero(6), rest, rest}});
}

// Everything a session holds, some of each, with undo steps.
void fill(NewSessionStudio& studio) {
  StudioDocument& document = studio.document;
  document.edit_joints(off_rest());
  studio.add_box();
  document.set_selected_object(QStringLiteral("box1"));
  kinetic::app::GoalState goal;
  goal.joints = off_rest();
  document.edit_goal(goal);
  document.add_trajectory(QStringLiteral("pick"), short_motion(document));
  document.store_state(
      kinetic::panels::stored_state_of(*document.robot(), QStringLiteral("above bin"), off_rest()));
  QVERIFY(document.undo_stack().count() > 0);
}

// What the robot opens with: its rest pose and nothing else.
void expect_fresh(StudioDocument& document) {
  QCOMPARE(document.robot_reference(), QStringLiteral("ur5e"));
  QVERIFY((document.joints() - kinetic::rest_pose(document.robot()).q).norm() < 1e-12);
  QVERIFY(document.scene().empty());
  QVERIFY(document.selected_object().isEmpty());
  QVERIFY(document.goal().empty());
  QVERIFY(document.trajectories().empty());
  QCOMPARE(document.shown_trajectory(), -1);
  QVERIFY(document.stored_states().empty());
  QVERIFY(!document.playback_joints());
  QCOMPARE(document.undo_stack().count(), 0);
}

}  // namespace

class NewSessionTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    QStandardPaths::setTestModeEnabled(true);
    qputenv("KINETIC_NO_RECOVERY", "1");  // the real window below, outside CTest too
  }

  void the_document_is_emptied_and_the_session_file_forgotten() {
    NewSessionStudio studio;
    QCOMPARE(studio.features.new_session,
             kinetic::test::menu_action(*studio.window, QStringLiteral("File"),
                                        QStringLiteral("New session")));
    QCOMPARE(studio.features.new_session->shortcut(), QKeySequence(QKeySequence::New));
    fill(studio);
    kinetic::panels::PlannerSettings planner;
    planner.velocity_scaling = 0.3;
    studio.document.set_planner_settings(planner);
    const QString cell = studio.path("cell.kinetic-session");
    studio.save_as(cell);
    QCOMPARE(studio.window->windowTitle(),
             QStringLiteral("cell.kinetic-session[*] — Kinetic Studio"));
    studio.add_box();  // box2: unsaved

    studio.next = UnsavedChoice::Discard;
    studio.new_session();
    QCOMPARE(studio.asked, QStringList{QStringLiteral("cell.kinetic-session / ") + kStarting});
    expect_fresh(studio.document);
    // Preferences, not the work: the Planner settings stay.
    QVERIFY(studio.document.planner_settings());
    QCOMPARE(studio.document.planner_settings()->velocity_scaling, 0.3);
    QVERIFY(studio.features.session->path().isEmpty());
    QVERIFY(!studio.features.session->modified());
    QCOMPARE(studio.window->windowTitle(), kUntitledTitle);
    QVERIFY(!studio.window->isWindowModified());
    // Discarded: the old file is as it was saved.
    QVERIFY(session_has_obstacle(cell, "box1"));
    QVERIFY(!session_has_obstacle(cell, "box2"));

    // The fresh work is unsaved work like any other, and its first Save asks for a file.
    studio.add_box();
    QVERIFY(studio.window->isWindowModified());
    const QString fresh = studio.path("fresh.kinetic-session");
    studio.save_as(fresh);
    QCOMPARE(studio.features.session->path(), fresh);
    QVERIFY(session_has_obstacle(fresh, "box1"));
    StudioDocument old;
    QVERIFY(kinetic::app::load_session(old, cell).ok());
    QCOMPARE(old.trajectories().size(),
             std::size_t(1));  // Ctrl+S did not overwrite the old session
    QVERIFY(studio.reported.isEmpty());
  }

  void cancel_keeps_the_work_and_save_writes_it_first() {
    NewSessionStudio studio;
    fill(studio);
    const QString cell = studio.path("cell.kinetic-session");
    studio.save_as(cell);
    studio.add_box();  // box2: unsaved

    // Cancel: nothing changes.
    studio.new_session();
    QCOMPARE(studio.asked.size(), 1);
    QVERIFY(studio.document.scene().has_obstacle("box2"));
    QCOMPARE(studio.document.trajectories().size(), std::size_t(1));
    QCOMPARE(studio.features.session->path(), cell);
    QVERIFY(studio.window->isWindowModified());

    // Save: written to the session's own file first, then the fresh session.
    studio.next = UnsavedChoice::Save;
    studio.new_session();
    QCOMPARE(studio.asked.size(), 2);
    QVERIFY(session_has_obstacle(cell, "box2"));
    expect_fresh(studio.document);
    QCOMPARE(studio.window->windowTitle(), kUntitledTitle);

    // Untitled work, Save, and the file dialog cancelled: nothing was saved, so nothing is lost.
    studio.add_box();
    {
      ModalAnswers answers({cancel_file_dialog()});
      studio.features.new_session->trigger();
      QCOMPARE(answers.answered(), std::size_t(1));
    }
    QCOMPARE(studio.asked.size(), 3);
    QCOMPARE(studio.asked.last(), QStringLiteral("Untitled session / ") + kStarting);
    QVERIFY(studio.document.scene().has_obstacle("box1"));
    QVERIFY(studio.window->isWindowModified());
    QVERIFY(studio.reported.isEmpty());
  }

  void nothing_unsaved_asks_nothing() {
    NewSessionStudio studio;
    fill(studio);
    studio.save_as(studio.path("cell.kinetic-session"));
    studio.new_session();
    QVERIFY(studio.asked.isEmpty());
    expect_fresh(studio.document);
    // A fresh session is nothing to lose: closing does not ask either.
    {
      ModalAnswers answers({});
      QVERIFY(studio.window->close());
      QCOMPARE(answers.unexpected(), 0);
    }
    QVERIFY(studio.asked.isEmpty());
  }

  // The autosave held the old work: it goes with it, and the fresh session is written only once
  // it changes, so a crash never offers the old work (nor an empty session) back.
  void the_autosave_does_not_keep_the_old_work() {
    NewSessionStudio studio;
    fill(studio);
    studio.add_box();  // box2
    kinetic::app::Autosave& autosave = *studio.features.autosave;
    QVERIFY(autosave.save_if_changed().isEmpty());
    QVERIFY(session_has_obstacle(autosave.path(), "box2"));

    studio.next = UnsavedChoice::Discard;
    studio.new_session();
    QVERIFY(!QFileInfo::exists(autosave.path()));
    QVERIFY(!autosave.has_unsaved_changes());
    QVERIFY(autosave.save_if_changed().isEmpty());
    QVERIFY(!QFileInfo::exists(autosave.path()));

    studio.add_box();  // box1 of the fresh session
    QVERIFY(autosave.has_unsaved_changes());
    QVERIFY(autosave.save_if_changed().isEmpty());
    QVERIFY(session_has_obstacle(autosave.path(), "box1"));
    QVERIFY(!session_has_obstacle(autosave.path(), "box2"));
    StudioDocument restored;
    QVERIFY(kinetic::app::load_session(restored, autosave.path()).ok());
    QVERIFY(restored.trajectories().empty());
    QVERIFY(restored.stored_states().empty());
  }

  // The studio's own window: the entry is in its File menu on Ctrl+N, which nothing else there
  // takes, and asks through the real message box; the Planner panel keeps its settings.
  void the_studio_window_has_it_on_ctrl_n() {
    auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
    QVERIFY(studio);
    kinetic::app::MainWindow& window = *studio->window;
    window.show();
    QAction* action =
        kinetic::test::menu_action(window, QStringLiteral("File"), QStringLiteral("New session"));
    QVERIFY(action);
    QCOMPARE(action->shortcut(), QKeySequence(QKeySequence::New));
    for (QAction* other : window.findChildren<QAction*>())
      if (other != action)
        QVERIFY2(!other->shortcuts().contains(action->shortcut()), qPrintable(other->text()));

    kinetic::panels::PlannerPanel* planner = window.planning_features()->planner_panel();
    kinetic::panels::PlannerSettings settings = planner->settings();
    settings.velocity_scaling = 0.4;
    planner->set_settings(settings);
    kinetic::PlanningScene scene;
    scene.add_obstacle("crate", kinetic::Shape::box(kinetic::Vector3(0.1, 0.1, 0.1)),
                       kinetic::Pose::Identity());
    studio->document->edit_scene(scene, QStringLiteral("Add crate"));
    QVERIFY(window.isWindowModified());
    {
      ModalAnswers answers({[](QWidget* modal) {
        auto* box = qobject_cast<QMessageBox*>(modal);
        QVERIFY2(box, "expected the unsaved-changes question");
        QVERIFY2(box->informativeText().contains(kStarting), qPrintable(box->informativeText()));
        QTimer::singleShot(0, box->button(QMessageBox::Discard), &QAbstractButton::click);
      }});
      action->trigger();
      QCOMPARE(answers.answered(), std::size_t(1));
    }
    expect_fresh(*studio->document);
    QCOMPARE(window.windowTitle(), kUntitledTitle);
    QVERIFY(!window.isWindowModified());
    QCOMPARE(planner->settings().velocity_scaling, 0.4);
  }
};

QTEST_MAIN(NewSessionTest)
#include "new_session_test.moc"
