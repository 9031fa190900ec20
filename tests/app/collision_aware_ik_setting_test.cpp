// Qt Test (offscreen) on the real studio window: the Goal panel's Collision-aware IK starts on, as
// RViz's planning panel checks IK goals for collisions, so a goal inside an obstacle fails at once
// rather than at plan time; the user's choice comes back in the next window (QSettings, in this
// test's own file).
#include <QCheckBox>
#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>
#include <memory>

#include "app/goal/goal_controller.hpp"
#include "app/goal/tcp_kinematics.hpp"
#include "app/studio_window_factory.hpp"
#include "panels/goal_panel.hpp"

using kinetic::Pose;
using kinetic::app::GoalController;
using kinetic::app::Studio;
using kinetic::panels::GoalPanel;

namespace {

constexpr int kIkTimeoutMs = 20000;

std::unique_ptr<Studio> open_studio() {
  return kinetic::app::create_studio(kinetic::app::CommandLine{});
}

// Checks the panel and the controller agree on `on`.
void expect_collision_aware(Studio& studio, bool on) {
  QCOMPARE(studio.window->goal_panel()->collision_aware_box()->isChecked(), on);
  QCOMPARE(studio.window->goal_controller()->collision_aware(), on);
}

}  // namespace

class CollisionAwareIkSettingTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() {
    qputenv("KINETIC_NO_RECOVERY", "1");  // run outside CTest too without the recovery question
    // Never the user's settings: QSettings goes under QStandardPaths' test folder, in a file of
    // this test's own.
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("KineticTests"));
    QCoreApplication::setApplicationName(QStringLiteral("collision-aware-ik-setting-test"));
  }

  // Every case starts as a first run did.
  void init() { QSettings().clear(); }
  void cleanupTestCase() { QSettings().clear(); }

  void on_at_first_so_a_goal_inside_an_obstacle_fails_at_once() {
    auto studio = open_studio();
    QVERIFY(studio);
    expect_collision_aware(*studio, true);

    kinetic::app::StudioDocument& document = *studio->document;
    GoalController* goal = studio->window->goal_controller();
    QVERIFY(goal->kinematics());
    // A box around the goal: every IK solution puts the tool inside it.
    const Pose target = goal->kinematics()->tcp_in_base(document.robot()->named_pose("ready"));
    Pose box_pose = Pose::Identity();
    box_pose.translation() = goal->base_to_world() * target.translation();
    kinetic::PlanningScene scene;
    scene.add_obstacle("crate", kinetic::Shape::box(kinetic::Vector3(0.25, 0.25, 0.25)), box_pose);
    document.set_scene(scene);

    goal->move_goal(target);  // as a typed pose or a gizmo drag asks
    QTRY_VERIFY_WITH_TIMEOUT(!goal->ik_busy(), kIkTimeoutMs);
    QVERIFY2(goal->ik_failed(), "the goal inside the obstacle was solved");
    const QString why = goal->ik_status();
    QVERIFY2(why.contains(QStringLiteral("collision")) && why.contains(QStringLiteral("crate")),
             qPrintable(why));
    QVERIFY(!document.goal().joints);
    QCOMPARE(studio->window->goal_panel()->ik_status(), goal->ik_status());
  }

  void the_choice_comes_back_in_the_next_window() {
    {
      auto studio = open_studio();
      QVERIFY(studio);
      expect_collision_aware(*studio, true);
      studio->window->goal_panel()->collision_aware_box()->click();
      expect_collision_aware(*studio, false);
    }
    {
      auto studio = open_studio();
      QVERIFY(studio);
      expect_collision_aware(*studio, false);
      studio->window->goal_panel()->collision_aware_box()->click();
      expect_collision_aware(*studio, true);
    }
    {
      auto studio = open_studio();
      QVERIFY(studio);
      expect_collision_aware(*studio, true);
    }
  }
};

QTEST_MAIN(CollisionAwareIkSettingTest)
#include "collision_aware_ik_setting_test.moc"
