// Qt Test on the real studio window (X / Xvfb, Vulkan on lavapipe): plan on the UR5e around a
// box with the Plan button, play, scrub, export to JSON and re-import equal; cancel a hopeless
// long plan while the UI keeps running. Prints the plan-to-playback latency.
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "app/hopeless_plan.hpp"
#include "app/planning/planning_features.hpp"
#include "app/studio_window_factory.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "panels/planner_panel.hpp"
#include "panels/trajectory_panel.hpp"
#include "real_time_checks.hpp"
#include "ur5e_beside_box.hpp"
#include "user_actions.hpp"
#include "window_test_support.hpp"

using namespace kinetic;
using namespace kinetic::app;

namespace {

PlanningFeatures* features_of(Studio& studio) {
  // The lead wires install_planning_features() into MainWindow; install it here until then.
  if (auto* existing = studio.window->findChild<PlanningFeatures*>()) return existing;
  return install_planning_features(*studio.window, *studio.document);
}

// The default studio with its planning features, shown; null when it could not be created.
std::unique_ptr<Studio> shown_studio(PlanningFeatures*& features) {
  auto studio = create_studio(CommandLine{});
  if (!studio) return nullptr;
  features = features_of(*studio);
  studio->window->show();
  if (!QTest::qWaitForWindowExposed(studio->window.get())) return nullptr;
  return studio;
}

}  // namespace

class PlanPlaybackWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void plan_play_scrub_export_import() {
    PlanningFeatures* features = nullptr;
    auto studio = shown_studio(features);
    QVERIFY(studio);
    StudioDocument& document = *studio->document;

    Planner probe(document.robot());
    PlanningScene scene;
    scene.add_obstacle(
        "box1", Shape::box(Vector3(0.2, 0.2, 0.2)),
        Pose(Eigen::Translation3d(probe.tcp_pose(test::ur5e_arm(0.0)).translation())));
    document.edit_scene(scene, QStringLiteral("Add box"));
    document.set_joints(test::ur5e_arm(-1.2));
    GoalState goal;
    goal.joints = test::ur5e_arm(1.2);
    document.edit_goal(goal);

    QSignalSpy playing(features, &PlanningFeatures::planPlaying);
    kinetic::test::StallWatch stalls;
    QElapsedTimer clock;
    clock.start();
    QVERIFY(features->planner_panel()->plan_button()->isEnabled());
    QTest::mouseClick(features->planner_panel()->plan_button(), Qt::LeftButton);
    QVERIFY(playing.wait(30000));
    const double latency = playing.first().at(0).toDouble();
    qDebug("plan-to-playback latency: %.1f ms (Plan click to the trajectory playing; wall %lld ms)",
           latency, static_cast<long long>(clock.elapsed()));
    QCOMPARE(document.trajectories().size(), std::size_t(1));
    QVERIFY(features->trajectories().playback().playing());
    QTest::qWait(300);
    KINETIC_VERIFY_IN_REAL_TIME(stalls, features->trajectories().playback().time() > 0.1,
                                "the trajectory played less than 0.1 s in 0.3 s");

    // Scrub: the timeline seeks, the ghost shows the trajectory there.
    features->trajectories().toggle_play();
    const Trajectory& planned = document.trajectories()[0].trajectory;
    QSlider* timeline = features->trajectories().trajectory_panel()->timeline();
    timeline->setValue(panels::TrajectoryPanel::kTimelineSteps / 2);
    QVERIFY(std::abs(features->trajectories().playback().time() - planned.duration() / 2) <
            1e-3 * planned.duration() + 1e-9);
    QVERIFY((*document.playback_joints() -
             planned.sample(features->trajectories().playback().time()).position)
                .norm() < 1e-12);
    // Goal and playback ghosts overlap the robot: the view's legend names each by its colour.
    if (studio->viewport) {
      const auto legend_has = [&](const std::string& text) {
        for (const auto& entry : studio->viewport->last_overlay().legend)
          if (entry.text == text) return true;
        return false;
      };
      QTRY_VERIFY_WITH_TIMEOUT(legend_has("playback") && legend_has("goal"), 5000);
      QVERIFY(kinetic::test::wait_for_still_view(*studio->viewport));
      kinetic::test::grab_viewport(*studio->viewport)
          .save(QDir::temp().filePath(QStringLiteral("kinetic_ghost_legend.png")));
    }

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("around_box.json"));
    QVERIFY(features->trajectories().export_trajectory(0, path).isEmpty());
    QVERIFY(features->trajectories().import_trajectory(path).isEmpty());
    QCOMPARE(document.trajectories().size(), std::size_t(2));
    QVERIFY(document.trajectories()[1].trajectory == document.trajectories()[0].trajectory);
  }

  void cancel_keeps_the_ui_responsive() {
    PlanningFeatures* features = nullptr;
    auto studio = shown_studio(features);
    QVERIFY(studio);
    StudioDocument& document = *studio->document;

    panels::PlannerPanel* panel = features->planner_panel();
    QVERIFY(kinetic::test::prepare_hopeless_plan(document, *panel, 60000));
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    kinetic::test::StallWatch stalls;
    ticker.start(10);
    QSignalSpy finished(features, &PlanningFeatures::planFinished);
    QTest::mouseClick(panel->plan_button(), Qt::LeftButton);
    QTest::qWait(1500);
    QVERIFY2(finished.isEmpty(), "the hopeless plan must still be running");
    KINETIC_VERIFY_IN_REAL_TIME(
        stalls, ticks > 50,
        qPrintable(QStringLiteral("only %1 ticks: the UI was blocked").arg(ticks)));
    QVERIFY(panel->cancel_button()->isEnabled());
    QElapsedTimer clock;
    clock.start();
    QTest::mouseClick(panel->cancel_button(), Qt::LeftButton);
    KINETIC_VERIFY_IN_REAL_TIME(stalls, finished.wait(1000), "cancel took more than a second");
    qDebug("cancel answered after %lld ms; %d UI timer ticks during 1.5 s of planning",
           static_cast<long long>(clock.elapsed()), ticks);
    KINETIC_VERIFY_IN_REAL_TIME(stalls, clock.elapsed() < 1000, "cancel took more than a second");
    QVERIFY(panel->plan_button()->isEnabled());
  }

  // Closing the studio while a plan runs (its budget a minute): the question about unsaved
  // changes, then the plan is cancelled and the studio ends at once, without a crash.
  void closing_during_a_plan_ends_promptly() {
    PlanningFeatures* features = nullptr;
    auto studio = shown_studio(features);
    QVERIFY(studio);
    StudioDocument& document = *studio->document;
    panels::PlannerPanel* panel = features->planner_panel();
    QVERIFY(kinetic::test::prepare_hopeless_plan(document, *panel, 60000));
    QSignalSpy finished(features, &PlanningFeatures::planFinished);
    QTest::mouseClick(panel->plan_button(), Qt::LeftButton);
    QTest::qWait(500);
    QVERIFY2(finished.isEmpty(), "the hopeless plan must still be running");

    kinetic::test::ModalAnswers answers({[](QWidget* modal) {
      auto* box = qobject_cast<QMessageBox*>(modal);
      QVERIFY2(box, "expected the unsaved-changes question");
      QTimer::singleShot(0, box->button(QMessageBox::Discard), &QAbstractButton::click);
    }});
    QVERIFY(studio->window->close());
    QCOMPARE(answers.answered(), std::size_t(1));
    QElapsedTimer clock;
    clock.start();
    studio.reset();
    qDebug("the studio ended %lld ms after the close", static_cast<long long>(clock.elapsed()));
    QVERIFY2(clock.elapsed() < 5000, "ending the studio waited for the plan's budget");
  }
};

QTEST_MAIN(PlanPlaybackWindowTest)
#include "plan_playback_window_test.moc"
