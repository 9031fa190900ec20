// Qt Test on the real studio window under X (Xvfb) with Vulkan on lavapipe: a saved session
// carries the 3D view's camera and loading it puts the camera back (and a later frame keeps it);
// an autosave left by a crashed run produces the recovery question, and Restore brings back its
// scene, joints and camera; a session saved through File → Save session and its file dialog, the
// studio closed (without a question) and a new one opened loads back the same robot, joints, scene
// and view, the planner panel's settings, the trajectories panel's re-time settings and the stored
// states kept in the Joints panel (which apply in the new studio).
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "app/command_line.hpp"
#include "app/session/autosave.hpp"
#include "app/session/data_features.hpp"
#include "app/session/session_file.hpp"
#include "app/studio_window_factory.hpp"
#include "app/viewport/viewport_window.hpp"
#include "panels/joints_panel.hpp"
#include "panels/planner_panel.hpp"
#include "panels/stored_states_panel.hpp"
#include "panels/trajectory_panel.hpp"
#include "ur5e_beside_box.hpp"
#include "user_actions.hpp"

using namespace kinetic;
using kinetic::app::ViewportWindow;

namespace {

bool same_camera(const viewer::Camera& a, const viewer::Camera& b) {
  return (a.target - b.target).norm() < 1e-5f && std::abs(a.distance - b.distance) < 1e-5f &&
         std::abs(a.yaw - b.yaw) < 1e-5f && std::abs(a.pitch - b.pitch) < 1e-5f;
}

}  // namespace

class SessionWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void session_restores_the_camera() {
    auto studio = app::create_studio(app::CommandLine{});
    QVERIFY(studio && studio->viewport);
    studio->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
    ViewportWindow& view = *studio->viewport;
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > 0, 20000);

    view.camera().orbit(0.7f, 0.2f);
    view.camera().zoom(0.6f);
    view.camera().pan(30.0f, -20.0f, static_cast<float>(view.height()));
    const viewer::Camera saved = view.camera();
    studio->document->set_joints(test::ur5e_arm(0.4));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("view.kinetic-session"));
    QCOMPARE(app::save_session_with_view(studio->viewport, *studio->document, path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.readAll().contains("\"camera\""));
    file.close();

    // Look somewhere else, then load: the camera comes back, and stays after the reloaded robot
    // is drawn (a new robot is otherwise framed).
    view.fit_camera();
    view.camera().orbit(-1.1f, -0.1f);
    QVERIFY(!same_camera(view.camera(), saved));
    const int frames = view.frames_drawn();
    const app::SessionLoadResult loaded =
        app::load_session_with_view(studio->viewport, *studio->document, path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QVERIFY(loaded.camera.has_value());
    QVERIFY(same_camera(view.camera(), saved));
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > frames, 5000);
    QVERIFY(same_camera(view.camera(), saved));
    view.requestUpdate();
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > frames + 1, 5000);
    QVERIFY(same_camera(view.camera(), saved));
    QVERIFY(studio->document->joints().isApprox(test::ur5e_arm(0.4), 1e-9));

    // Without a camera in the file, the view is framed as for any newly loaded robot.
    const QString plain = dir.filePath(QStringLiteral("plain.kinetic-session"));
    QCOMPARE(app::save_session(*studio->document, plain), QString());
    QVERIFY(app::load_session_with_view(studio->viewport, *studio->document, plain).ok());
    const int later = view.frames_drawn();
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > later, 5000);
    QVERIFY(!same_camera(view.camera(), saved));
  }

  void session_survives_closing_and_reopening_the_studio() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("reopen.kinetic-session"));
    viewer::Camera saved_camera;
    JointVector saved_joints, home_joints;
    {
      auto first = app::create_studio(app::CommandLine{});
      QVERIFY(first && first->viewport);
      first->window->show();
      QVERIFY(QTest::qWaitForWindowExposed(first->window.get()));
      QTRY_VERIFY_WITH_TIMEOUT(first->viewport->frames_drawn() > 0, 20000);
      app::StudioDocument& document = *first->document;
      QCOMPARE(document.load_robot(QStringLiteral("panda")), QString());
      saved_joints = document.robot()->mid_configuration();
      saved_joints[3] = -1.9;
      document.edit_joints(saved_joints);
      PlanningScene scene;
      scene.add_obstacle("shelf", Shape::box(Vector3(0.3, 0.8, 0.02)),
                         Pose(Eigen::Translation3d(0.5, 0.0, 0.6)));
      document.edit_scene(scene, QStringLiteral("Add shelf"));
      // Two stored states, kept from the Joints panel as a user does: pose the arm, type a name,
      // Store.
      panels::JointsPanel* joints_panel = first->window->joints_panel();
      panels::StoredStatesPanel* stored = joints_panel->stored_states();
      stored->name_edit()->setText(QStringLiteral("above bin"));
      QTest::mouseClick(stored->store_button(), Qt::LeftButton);
      QVERIFY(joints_panel->apply_named_pose(QStringLiteral("ready")));
      home_joints = document.joints();
      stored->name_edit()->setText(QStringLiteral("home for cell 2"));
      QTest::mouseClick(stored->store_button(), Qt::LeftButton);
      QCOMPARE(stored->list()->count(), 2);
      document.edit_joints(saved_joints);
      // The view frames a newly loaded robot at its next frame; the user orbits after that.
      const int frames = first->viewport->frames_drawn();
      QTRY_VERIFY_WITH_TIMEOUT(first->viewport->frames_drawn() > frames, 10000);
      first->viewport->camera().orbit(0.5f, -0.3f);
      saved_camera = first->viewport->camera();
      // The planner panel as the user set it: a planner, a preset, a seed, slower timing.
      auto* planner = first->window->findChild<panels::PlannerPanel*>();
      QVERIFY(planner);
      planner->planner_combo()->setCurrentIndex(
          planner->planner_combo()->findData(QStringLiteral("bitrrt")));
      planner->apply_preset(QStringLiteral("offline"));
      planner->seed_edit()->setText(QStringLiteral("77"));
      planner->velocity_box()->setValue(0.35);
      // The trajectories panel's re-time settings as the user set them, through its own boxes.
      auto* trajectories = first->window->findChild<panels::TrajectoryPanel*>();
      QVERIFY(trajectories);
      trajectories->timing_combo()->setCurrentIndex(
          trajectories->timing_combo()->findData(QStringLiteral("scurve")));
      trajectories->velocity_box()->setValue(0.45);
      trajectories->acceleration_box()->setValue(0.3);
      trajectories->replace_box()->setChecked(true);
      // As a user saves: File → Save session, a path typed into the real file dialog; then the
      // window closes without asking, since nothing is left unsaved.
      QVERIFY(first->window->isWindowModified());
      QAction* save =
          test::menu_action(*first->window, QStringLiteral("File"), QStringLiteral("Save session"));
      QVERIFY(save);
      {
        test::ModalAnswers answers({test::choose_file(path)});
        save->trigger();
        QCOMPARE(answers.answered(), std::size_t(1));
      }
      QVERIFY(QFileInfo::exists(path));
      QVERIFY(!first->window->isWindowModified());
      QVERIFY(first->window->windowTitle().startsWith(QStringLiteral("reopen.kinetic-session[*]")));
      test::ModalAnswers no_question({});
      QVERIFY(first->window->close());
      QCOMPARE(no_question.unexpected(), 0);
    }  // the whole studio is gone

    auto second = app::create_studio(app::CommandLine{});
    QVERIFY(second && second->viewport);
    second->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(second->window.get()));
    QTRY_VERIFY_WITH_TIMEOUT(second->viewport->frames_drawn() > 0, 20000);
    QCOMPARE(second->document->robot()->name(), std::string("ur5e"));  // the default robot
    const app::SessionLoadResult loaded =
        app::load_session_with_view(second->viewport, *second->document, path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.error));
    QCOMPARE(second->document->robot()->name(), std::string("panda"));
    QVERIFY(second->document->joints().isApprox(saved_joints, 1e-12));
    QVERIFY(second->document->scene().has_obstacle("shelf"));
    QVERIFY(second->document->scene().obstacle("shelf").pose.translation().isApprox(
        Vector3(0.5, 0.0, 0.6), 1e-12));
    const int frames = second->viewport->frames_drawn();
    QTRY_VERIFY_WITH_TIMEOUT(second->viewport->frames_drawn() > frames, 5000);
    QVERIFY(same_camera(second->viewport->camera(), saved_camera));
    auto* planner = second->window->findChild<panels::PlannerPanel*>();
    QVERIFY(planner);
    QCOMPARE(planner->options().planner, PlannerType::BiTrrt);
    QCOMPARE(planner->options().timeout_ms, offline_preset().timeout_ms);
    QCOMPARE(planner->seed_edit()->text(), QStringLiteral("77"));
    QCOMPARE(planner->velocity_scaling(), 0.35);
    auto* trajectories = second->window->findChild<panels::TrajectoryPanel*>();
    QVERIFY(trajectories);
    QCOMPARE(trajectories->timing_key(), QStringLiteral("scurve"));
    QCOMPARE(trajectories->velocity_scaling(), 0.45);
    QCOMPARE(trajectories->acceleration_scaling(), 0.3);
    QVERIFY(trajectories->replace_when_retiming());
    // The stored states are listed again, and apply.
    panels::StoredStatesPanel* stored = second->window->joints_panel()->stored_states();
    QCOMPARE(stored->list()->count(), 2);
    QCOMPARE(stored->list()->item(0)->text(), QStringLiteral("above bin"));
    QCOMPARE(stored->list()->item(1)->text(), QStringLiteral("home for cell 2"));
    stored->select(QStringLiteral("home for cell 2"));
    QTest::mouseClick(stored->apply_button(), Qt::LeftButton);
    QVERIFY(second->document->joints().isApprox(home_joints, 1e-12));
    stored->select(QStringLiteral("above bin"));
    QTest::mouseClick(stored->goal_button(), Qt::LeftButton);
    QVERIFY(second->document->goal().joints &&
            second->document->goal().joints->isApprox(saved_joints, 1e-12));
  }

  // `kinetic-studio cell.kinetic-session` (or a double-click in a file manager) opens that
  // session as the current file; one that cannot be read is said over the running studio.
  void a_session_named_on_the_command_line_opens() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("cell.kinetic-session"));
    {
      app::StudioDocument saved;
      QCOMPARE(saved.load_robot(QStringLiteral("panda")), QString());
      PlanningScene scene;
      scene.add_obstacle("table", Shape::box(Vector3(0.8, 0.8, 0.05)),
                         Pose(Eigen::Translation3d(0.5, 0.0, 0.2)));
      saved.set_scene(scene);
      QCOMPARE(app::save_session(saved, path), QString());
    }
    const std::optional<app::CommandLine> line =
        app::parse_command_line({QStringLiteral("kinetic-studio"), path});
    QVERIFY(line && line->session == path);
    auto studio = app::create_studio(*line);
    QVERIFY(studio);
    studio->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
    QTRY_COMPARE(studio->document->robot()->name(), std::string("panda"));
    QVERIFY(studio->document->scene().has_obstacle("table"));
    QVERIFY2(studio->window->windowTitle().startsWith(QStringLiteral("cell.kinetic-session[*]")),
             qPrintable(studio->window->windowTitle()));
    QVERIFY(!studio->window->isWindowModified());
    studio.reset();

    // A file that is not there: the studio opens with its default robot and says why.
    QString said;
    test::ModalAnswers answers({[&said](QWidget* modal) {
      auto* box = qobject_cast<QMessageBox*>(modal);
      QVERIFY2(box, "expected the error box");
      said = box->text();
      QMetaObject::invokeMethod(box, "accept", Qt::QueuedConnection);
    }});
    app::CommandLine missing;
    missing.session = dir.filePath(QStringLiteral("gone.kinetic-session"));
    auto fallback = app::create_studio(missing);
    QVERIFY(fallback);
    fallback->window->show();
    QTRY_VERIFY_WITH_TIMEOUT(!said.isEmpty(), 10000);
    QVERIFY2(said.contains(QStringLiteral("gone.kinetic-session")), qPrintable(said));
    // Said once: the box's title says "Could not open the session", its text why (it said it
    // twice).
    QCOMPARE(said, QStringLiteral("session file %1 does not exist").arg(missing.session));
    QCOMPARE(fallback->window->statusBar()->currentMessage(),
             QStringLiteral("Could not open the session: session file %1 does not exist")
                 .arg(missing.session));
    QCOMPARE(fallback->document->robot()->name(), std::string("ur5e"));
    QVERIFY(fallback->window->windowTitle().startsWith(QStringLiteral("Untitled session")));
  }

  void leftover_autosave_is_offered_and_restored() {
    // What a crashed run left behind: a session with a box and a moved arm at the autosave path.
    const QString autosave = app::Autosave::default_path();
    QVERIFY(QDir().mkpath(QFileInfo(autosave).absolutePath()));
    {
      app::StudioDocument crashed;
      QCOMPARE(crashed.load_robot(QStringLiteral("ur5e")), QString());
      PlanningScene scene;
      scene.add_obstacle("crate", Shape::box(Vector3(0.2, 0.3, 0.4)),
                         Pose(Eigen::Translation3d(0.6, -0.2, 0.2)));
      crashed.set_scene(scene);
      crashed.set_joints(test::ur5e_arm(-0.9));
      app::SessionCamera camera;
      camera.target = Vector3(0.4, 0.1, 0.3);
      camera.distance = 1.9;
      camera.azimuth = -0.8;
      camera.elevation = 0.45;
      QCOMPARE(app::save_session(crashed, autosave, camera), QString());
    }

    // The question names when the session was autosaved and which file holds it (issue 41).
    const QString saved_when = QFileInfo(autosave).lastModified().toString(Qt::TextDate);
    const QString saved_where = QDir::toNativeSeparators(QFileInfo(autosave).absoluteFilePath());

    // The real question (a message box) is asked once the window is up; answer Restore.
    qunsetenv("KINETIC_NO_RECOVERY");
    QString question;
    QTimer answer;
    connect(&answer, &QTimer::timeout, this, [&] {
      auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
      if (!box) return;
      question = box->text();
      for (QAbstractButton* button : box->buttons())
        if (button->text() == QStringLiteral("Restore")) button->click();
    });
    answer.start(50);
    auto studio = app::create_studio(app::CommandLine{});
    qputenv("KINETIC_NO_RECOVERY", "1");
    QVERIFY(studio);
    studio->window->show();
    QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
    QTRY_VERIFY_WITH_TIMEOUT(!question.isEmpty(), 10000);
    answer.stop();
    QVERIFY2(question.contains(QStringLiteral("did not shut down cleanly")), qPrintable(question));
    QVERIFY2(question.contains(
                 QStringLiteral("autosaved at %1 was found:\n%2").arg(saved_when, saved_where)),
             qPrintable(question));

    const app::StudioDocument& document = *studio->document;
    QTRY_VERIFY_WITH_TIMEOUT(document.scene().has_obstacle("crate"), 5000);
    QVERIFY(document.joints().isApprox(test::ur5e_arm(-0.9), 1e-9));
    QVERIFY(document.scene().obstacle("crate").pose.translation().isApprox(Vector3(0.6, -0.2, 0.2),
                                                                           1e-9));
    QCOMPARE(document.robot()->name(), std::string("ur5e"));
    // The view comes back as it was, and a frame drawn afterwards keeps it.
    ViewportWindow& view = *studio->viewport;
    QTRY_VERIFY_WITH_TIMEOUT(std::abs(view.camera().distance - 1.9f) < 1e-5f, 5000);
    const int frames = view.frames_drawn();
    view.requestUpdate();
    QTRY_VERIFY_WITH_TIMEOUT(view.frames_drawn() > frames, 5000);
    QVERIFY((view.camera().target - Eigen::Vector3f(0.4f, 0.1f, 0.3f)).norm() < 1e-5f);
    QVERIFY(std::abs(view.camera().yaw + 0.8f) < 1e-5f);
    QVERIFY(std::abs(view.camera().pitch - 0.45f) < 1e-5f);

    // A clean shutdown removes the autosave: the next start offers nothing.
    studio.reset();
    QVERIFY(!QFileInfo::exists(autosave));
  }
};

QTEST_MAIN(SessionWindowTest)
#include "session_window_test.moc"
