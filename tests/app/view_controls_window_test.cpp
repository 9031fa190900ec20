// Qt Test on the real studio window under X (Xvfb) with Vulkan on lavapipe: the main toolbar
// carries the everyday actions (the menus' own, not copies), its Plan entry plans and its Plan &
// Execute leaves the robot at the goal; Alt+1..6 turn the camera to the standard views around the
// same target; O switches the projection and K draws every link's frame, both visibly; the view
// toggles come back after a restart (QSettings).
#include <QAction>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QToolBar>
#include <QtTest>
#include <cmath>
#include <numbers>

#include "app/main_window.hpp"
#include "app/planning/plan_execution.hpp"
#include "app/planning/planning_features.hpp"
#include "app/studio_window_factory.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/viewport/viewport_window.hpp"
#include "app/window_test_support.hpp"
#include "panels/goal_panel.hpp"
#include "panels/planner_panel.hpp"
#include "ur5e_beside_box.hpp"

using namespace kinetic;
using app::ViewOption;
using viewer::StandardView;

namespace {

using kinetic::test::differing_pixels;
using kinetic::test::grab_once_changed;
using kinetic::test::grab_viewport;
using kinetic::test::wait_for_still_view;

constexpr float kPi = std::numbers::pi_v<float>;

// The entry of the menu `menu_title` whose text starts with `prefix` ('&' ignored).
QAction* menu_action(QMainWindow& window, const QString& menu_title, const QString& prefix) {
  for (QAction* menu : window.menuBar()->actions())
    if (menu->menu() && menu->text().remove(QLatin1Char('&')) == menu_title)
      for (QAction* action : menu->menu()->actions())
        if (action->text().remove(QLatin1Char('&')).startsWith(prefix)) return action;
  return nullptr;
}

float angle_between(float a, float b) {
  return std::abs(std::remainder(a - b, 2 * kPi));
}

}  // namespace

class ViewControlsWindowTest : public QObject {
  Q_OBJECT
  std::unique_ptr<app::Studio> studio_;

  app::ViewportWindow& view() { return *studio_->viewport; }
  app::MainWindow& window() { return *studio_->window; }

  void open_studio() {
    studio_ = kinetic::test::open_studio_window();
    QVERIFY2(studio_, "the studio's Vulkan viewport could not be created or never drew");
  }

 private slots:
  void initTestCase() {
    QSettings().clear();  // the defaults, whatever an earlier run of this binary left
    open_studio();
  }

  void cleanupTestCase() {
    studio_.reset();
    QSettings().clear();
  }

  void toolbar_has_the_everyday_actions() {
    auto* bar = window().findChild<QToolBar*>(QStringLiteral("MainToolBar"));
    QVERIFY(bar);
    QVERIFY(bar->isVisible());
    const QList<QAction*> actions = bar->actions();
    // The menus' own actions: one object each, so shortcuts and enabled states stay in one place.
    for (const auto& [menu, entry] :
         {std::pair{"File", "Open URDF"}, std::pair{"File", "Save session"},
          std::pair{"Edit", "Undo"}, std::pair{"Edit", "Redo"}}) {
      QAction* action =
          menu_action(window(), QString::fromLatin1(menu), QString::fromLatin1(entry));
      QVERIFY2(action, entry);
      QVERIFY2(actions.contains(action), entry);
    }
    QVERIFY(actions.contains(window().plan_action()));
    QVERIFY(actions.contains(window().plan_execute_action()));
    QVERIFY(actions.contains(window().play_pause_action()));
    for (StandardView view : {StandardView::Front, StandardView::Back, StandardView::Left,
                              StandardView::Right, StandardView::Top, StandardView::Iso}) {
      QVERIFY(window().camera_view_action(view));
      QVERIFY(actions.contains(window().camera_view_action(view)));
    }
    QVERIFY(actions.contains(window().view_action(ViewOption::Orthographic)));
  }

  void standard_views_turn_around_the_same_target() {
    struct Expected {
      StandardView view;
      Qt::Key key;
      float yaw, pitch;
    };
    const Expected views[] = {
        {StandardView::Front, Qt::Key_1, 0, 0},
        {StandardView::Back, Qt::Key_2, kPi, 0},
        {StandardView::Left, Qt::Key_3, kPi / 2, 0},
        {StandardView::Right, Qt::Key_4, -kPi / 2, 0},
        {StandardView::Top, Qt::Key_5, 0, kPi / 2},
        {StandardView::Iso, Qt::Key_6, kPi / 4, 0.6155f},
    };
    view().camera().pan(30.0f, -20.0f, static_cast<float>(view().height()));
    view().camera().zoom(0.7f);
    const viewer::Camera start = view().camera();
    for (const Expected& expected : views) {
      view().camera().orbit(0.37f, -0.11f);  // somewhere else first
      QTest::keyClick(&view(), expected.key, Qt::AltModifier);
      const viewer::Camera& camera = view().camera();
      const QByteArray what = window().camera_view_action(expected.view)->text().toUtf8();
      QVERIFY2(angle_between(camera.yaw, expected.yaw) < 1e-4f, what);
      // Top stops just short of straight down, so the camera's up direction stays defined.
      QVERIFY2(std::abs(camera.pitch - expected.pitch) <
                   (expected.view == StandardView::Top ? 0.02f : 1e-4f),
               what);
      QVERIFY2((camera.target - start.target).norm() < 1e-6f, what);
      QVERIFY2(std::abs(camera.distance - start.distance) < 1e-6f, what);
    }
    // The menu entries do the same as their keys.
    view().camera().orbit(0.5f, 0.2f);
    window().camera_view_action(StandardView::Front)->trigger();
    QVERIFY(angle_between(view().camera().yaw, 0) < 1e-4f &&
            std::abs(view().camera().pitch) < 1e-4f);
    QVERIFY(view().camera().forward().isApprox(viewer::Vec3(-1, 0, 0), 1e-4f));
  }

  void orthographic_switches_the_projection() {
    QTest::keyClick(&view(), Qt::Key_R);
    QVERIFY(!view().camera().orthographic);
    QVERIFY(wait_for_still_view(view()));
    const QImage perspective = grab_viewport(view());

    QTest::keyClick(&view(), Qt::Key_O);
    QVERIFY(view().camera().orthographic);
    QVERIFY(view().option(ViewOption::Orthographic));
    QVERIFY(window().view_action(ViewOption::Orthographic)->isChecked());
    QVERIFY(wait_for_still_view(view()));
    const QImage orthographic = grab_once_changed(view(), perspective, 1000);
    const int changed = differing_pixels(perspective, orthographic);
    QVERIFY2(changed > 1000, qPrintable(QStringLiteral("%1 pixels changed").arg(changed)));

    // The projection belongs to the view, not to a camera: R and a restored session keep it.
    QTest::keyClick(&view(), Qt::Key_R);
    QVERIFY(view().camera().orthographic);
    viewer::Camera restored = view().camera();
    restored.orthographic = false;
    view().set_camera(restored);
    QVERIFY(view().camera().orthographic);

    QTest::keyClick(&view(), Qt::Key_O);
    QVERIFY(!view().camera().orthographic);
    QVERIFY(!window().view_action(ViewOption::Orthographic)->isChecked());
  }

  void link_frames_are_drawn_on_demand() {
    QTest::keyClick(&view(), Qt::Key_R);
    QVERIFY(wait_for_still_view(view()));
    const QImage plain = grab_viewport(view());

    QVERIFY(!view().option(ViewOption::LinkFrames));
    QTest::keyClick(&view(), Qt::Key_K);
    QVERIFY(view().option(ViewOption::LinkFrames));
    QVERIFY(window().view_action(ViewOption::LinkFrames)->isChecked());
    QVERIFY(wait_for_still_view(view()));
    const QImage framed = grab_once_changed(view(), plain, 500);
    const int changed = differing_pixels(plain, framed);
    QVERIFY2(changed > 500, qPrintable(QStringLiteral("%1 pixels changed").arg(changed)));

    QTest::keyClick(&view(), Qt::Key_K);
    QVERIFY(!view().option(ViewOption::LinkFrames));
  }

  void toolbar_plans_and_pauses() {
    app::StudioDocument& document = *studio_->document;
    app::PlanningFeatures& planning = *window().planning_features();
    document.set_joints(test::ur5e_arm(-0.6));
    app::GoalState goal;
    goal.joints = test::ur5e_arm(0.6);
    document.edit_goal(goal);

    QSignalSpy playing(&planning, &app::PlanningFeatures::planPlaying);
    QVERIFY(window().plan_action()->isEnabled());
    // Ctrl+Enter plans, as the toolbar's Plan does.
    window().activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window()));
    QTest::keyClick(&window(), Qt::Key_Return, Qt::ControlModifier);
    QVERIFY(playing.wait(30000));
    QCOMPARE(document.trajectories().size(), std::size_t(1));
    QVERIFY(planning.trajectories().playback().playing());
    window().play_pause_action()->trigger();
    QVERIFY(!planning.trajectories().playback().playing());
  }

  void toolbar_plans_and_executes() {
    app::StudioDocument& document = *studio_->document;
    app::PlanningFeatures& planning = *window().planning_features();
    document.set_joints(test::ur5e_arm(-0.6));
    app::GoalState goal;
    goal.joints = test::ur5e_arm(0.6);
    document.edit_goal(goal);
    planning.trajectories().playback().set_speed(4.0);
    planning.planner_panel()->timeout_box()->setValue(
        5000.0);  // a loaded machine misses the default 50 ms

    QSignalSpy executed(&planning.execution(), &app::PlanExecution::finished);
    QVERIFY(window().plan_execute_action()->isEnabled());
    // Ctrl+Shift+Enter plans and executes, as the toolbar's Plan & Execute does.
    window().activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window()));
    QTest::keyClick(&window(), Qt::Key_Return, Qt::ControlModifier | Qt::ShiftModifier);
    QVERIFY(executed.wait(60000));
    QVERIFY(executed.first().at(0).toBool());
    QVERIFY((document.joints() - test::ur5e_arm(0.6)).norm() < 1e-6);
  }

  // Last: it replaces the studio.
  void view_toggles_survive_a_restart() {
    const ViewOption remembered[] = {ViewOption::Grid,
                                     ViewOption::Axes,
                                     ViewOption::Trail,
                                     ViewOption::CollisionSpheres,
                                     ViewOption::CollisionGeometry,
                                     ViewOption::Wireframe,
                                     ViewOption::LocalFrame,
                                     ViewOption::LinkFrames,
                                     ViewOption::Orthographic};
    std::vector<bool> expected;
    for (ViewOption option : remembered) {
      QAction* action = window().view_action(option);
      action->trigger();
      expected.push_back(action->isChecked());
    }
    // Overlays are not remembered: the next start shows no help box.
    window().view_action(ViewOption::Help)->trigger();
    QVERIFY(view().option(ViewOption::Help));

    studio_.reset();
    open_studio();
    for (size_t i = 0; i < std::size(remembered); ++i) {
      const QByteArray what = window().view_action(remembered[i])->text().toUtf8();
      QVERIFY2(window().view_action(remembered[i])->isChecked() == expected[i], what);
      QVERIFY2(view().option(remembered[i]) == expected[i], what);
    }
    QCOMPARE(view().camera().orthographic, view().option(ViewOption::Orthographic));
    QCOMPARE(window().goal_panel()->local_frame(), view().option(ViewOption::LocalFrame));
    QVERIFY(!view().option(ViewOption::Help));
    QVERIFY(!window().view_action(ViewOption::Help)->isChecked());
  }
};

QTEST_MAIN(ViewControlsWindowTest)
#include "view_controls_window_test.moc"
