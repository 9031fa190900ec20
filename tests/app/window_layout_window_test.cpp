// Qt Test on the real studio window under X (Xvfb in CI): what a user acts on and reads is in sight
// at the default size (1600x1000) and on a laptop (1280x800). A plan, a validation and an export
// are made for real; every dock is brought to the front in turn, and each panel's result (every
// ResultLabel), the Planner's Plan button and the Trajectories' validation list must lie wholly
// inside the visible part of the window (no scrolling, no clipping by a dock). Each result is also
// said in the status bar. The window opens at the size it was closed at, start after start.
// KINETIC_SCREENSHOT_DIR=<folder> also saves the window at both sizes there.
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QtTest>

#include "app/main_window.hpp"
#include "app/planning/plan_request.hpp"
#include "app/planning/planning_features.hpp"
#include "app/studio_window_factory.hpp"
#include "app/task/task_feature.hpp"
#include "app/trajectories/trajectory_features.hpp"
#include "app/viewport/viewport_window.hpp"
#include "panels/planner_panel.hpp"
#include "panels/result_label.hpp"
#include "panels/trajectory_panel.hpp"
#include "window_test_support.hpp"

using kinetic::app::Studio;

namespace {

// How much of `widget` is cut off: its rectangle (in window coordinates) less what every ancestor
// up to the window shows of it (a scroll area's viewport, a dock, the window itself). Empty when
// all of it is in sight; the whole rectangle when it is hidden.
QString hidden_part(QWidget* widget) {
  QWidget* window = widget->window();
  if (!widget->isVisibleTo(window) || widget->width() <= 0 || widget->height() <= 0)
    return QStringLiteral("not shown (%1x%2)").arg(widget->width()).arg(widget->height());
  const QRect whole(widget->mapTo(window, QPoint(0, 0)), widget->size());
  QRect shown = whole;
  for (QWidget* ancestor = widget->parentWidget(); ancestor; ancestor = ancestor->parentWidget()) {
    shown &= QRect(ancestor->mapTo(window, QPoint(0, 0)), ancestor->size());
    if (ancestor == window) break;
  }
  if (shown == whole) return {};
  return QStringLiteral("%1x%2+%3+%4 of it shows %5x%6+%7+%8 in a %9x%10 window")
      .arg(whole.width())
      .arg(whole.height())
      .arg(whole.x())
      .arg(whole.y())
      .arg(shown.width())
      .arg(shown.height())
      .arg(shown.x())
      .arg(shown.y())
      .arg(window->width())
      .arg(window->height());
}

// "PlannerDock: QPushButton 'Plan'": where the widget is, for a failure's message.
QString describe(const QWidget* widget) {
  QString where = QStringLiteral("window");
  for (const QWidget* w = widget; w; w = w->parentWidget())
    if (auto* dock = qobject_cast<const QDockWidget*>(w)) {
      where = dock->objectName();
      break;
    }
  const auto* button = qobject_cast<const QPushButton*>(widget);
  return QStringLiteral("%1: %2%3")
      .arg(where, QString::fromLatin1(widget->metaObject()->className()),
           button ? QStringLiteral(" '%1'").arg(button->text()) : QString());
}

std::unique_ptr<Studio> open_studio(const QSize& size) {
  auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
  if (!studio) return nullptr;
  studio->window->resize(size);
  studio->window->show();
  if (!QTest::qWaitForWindowExposed(studio->window.get())) return nullptr;
  QTest::qWait(100);  // the resize after the first layout pass
  studio->window->resize(size);
  QTest::qWait(100);
  return studio;
}

// Plans to a goal beside the UR5e's home: the outcome (empty when none came in a minute).
kinetic::app::PlanOutcome plan(Studio& studio) {
  kinetic::JointVector goal = studio.document->joints();
  goal[0] += 1.0;
  goal[1] += 0.3;
  studio.document->set_goal({goal, std::nullopt});
  kinetic::app::PlanningFeatures* features = studio.window->planning_features();
  QSignalSpy done(features, &kinetic::app::PlanningFeatures::planFinished);
  features->planner_panel()->plan_button()->click();
  if (!done.wait(60000)) return {};
  return qvariant_cast<kinetic::app::PlanOutcome>(done.first().at(0));
}

}  // namespace

class WindowLayoutWindowTest : public QObject {
  Q_OBJECT
 private slots:
  void initTestCase() { QSettings().remove(QStringLiteral("window")); }
  void cleanupTestCase() { QSettings().remove(QStringLiteral("window")); }

  void every_result_is_in_sight_and_in_the_status_bar_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1600x1000") << QSize(1600, 1000);
    QTest::newRow("1280x800") << QSize(1280, 800);
  }

  void every_result_is_in_sight_and_in_the_status_bar() {
    QFETCH(QSize, size);
    QSettings().remove(QStringLiteral("window"));  // each size from the default layout
    auto studio = open_studio(size);
    QVERIFY2(studio, "the studio window did not open");
    QCOMPARE(studio->window->size(), size);
    kinetic::app::PlanningFeatures* features = studio->window->planning_features();
    QStatusBar* status = studio->window->statusBar();

    // A plan: said in the Planner panel and in the status bar.
    const kinetic::app::PlanOutcome outcome = plan(*studio);
    QVERIFY2(outcome.ok, qPrintable(outcome.error));
    QVERIFY2(status->currentMessage().contains(QStringLiteral("plan 1")) &&
                 status->currentMessage().contains(QStringLiteral("planned in")),
             qPrintable(status->currentMessage()));
    // Its validation, asked for again.
    QSignalSpy finished(&features->trajectories(), &kinetic::app::TrajectoryFeatures::taskFinished);
    features->trajectories().validate(0);
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 60000);
    QVERIFY2(status->currentMessage().contains(QStringLiteral("is valid")),
             qPrintable(status->currentMessage()));
    // An export, confirmed in both places.
    QTemporaryDir dir;
    QCOMPARE(
        features->trajectories().export_trajectory(0, dir.filePath(QStringLiteral("plan.json"))),
        QString());
    QVERIFY2(status->currentMessage().startsWith(QStringLiteral("Exported")),
             qPrintable(status->currentMessage()));
    QVERIFY(features->trajectories().trajectory_panel()->message_label()->text().startsWith(
        QStringLiteral("Exported")));

    // Every dock in front in turn: its results, and the actions the issue named, in sight.
    QStringList hidden;
    const auto check = [&hidden](QWidget* widget) {
      const QString cut = hidden_part(widget);
      if (!cut.isEmpty()) hidden << describe(widget) + QStringLiteral(": ") + cut;
    };
    for (QDockWidget* dock : studio->window->findChildren<QDockWidget*>()) {
      if (!dock->toggleViewAction()->isChecked()) continue;  // (closed by default: none is)
      dock->raise();
      QTest::qWait(50);
      for (kinetic::panels::ResultLabel* result :
           dock->findChildren<kinetic::panels::ResultLabel*>()) {
        if (result->text().isEmpty()) result->show_result(QStringLiteral("A one-line result."));
        QCoreApplication::processEvents();
        check(result);
      }
    }
    studio->window->planning_features()->planner_dock()->raise();
    QTest::qWait(50);
    check(features->planner_panel()->plan_button());
    check(features->planner_panel()->result_label());
    check(features->trajectories().trajectory_panel()->message_label());
    check(features->trajectories().trajectory_panel()->validation_list());
    QVERIFY2(hidden.isEmpty(), qPrintable(hidden.join(QStringLiteral("\n"))));

    // The window with the Planner in front, and with the Task panel.
    if (const QString shots = qEnvironmentVariable("KINETIC_SCREENSHOT_DIR"); !shots.isEmpty()) {
      for (QDockWidget* front : {features->planner_dock(), studio->window->task()->dock()}) {
        front->raise();
        QTest::qWait(300);
        const QRect frame = studio->window->frameGeometry();
        const QImage image =
            studio->window->screen()
                ->grabWindow(0, frame.x(), frame.y(), frame.width(), frame.height())
                .toImage();
        QVERIFY(image.save(QDir(shots).filePath(QStringLiteral("studio-%1x%2-%3.png")
                                                    .arg(size.width())
                                                    .arg(size.height())
                                                    .arg(front->objectName()))));
      }
    }
  }

  // F3's statistics give each figure once: the overlay draws the frame's triangles, draw calls and
  // instances itself, and the view added them again as an extra line. The status bar carries no
  // frame time (developer information, which F3 shows).
  void the_statistics_and_the_status_bar_say_each_thing_once() {
    auto studio = open_studio(QSize(1280, 800));
    QVERIFY2(studio && studio->viewport, "the studio window or its 3D view did not open");
    studio->window->view_action(kinetic::app::ViewOption::Stats)->setChecked(true);
    const int drawn = studio->viewport->frames_drawn();
    studio->viewport->requestUpdate();
    QTRY_VERIFY_WITH_TIMEOUT(studio->viewport->frames_drawn() > drawn + 1, 10000);
    QVERIFY(studio->viewport->last_overlay().show_stats);
    for (const std::string& line : studio->viewport->last_overlay().stats_lines)
      QVERIFY2(line.find("triangles") == std::string::npos &&
                   line.find("draw calls") == std::string::npos,
               line.c_str());
    for (QLabel* label : studio->window->statusBar()->findChildren<QLabel*>())
      QVERIFY2(!label->text().startsWith(QStringLiteral("frame ")), qPrintable(label->text()));
    studio->window->view_action(kinetic::app::ViewOption::Stats)->setChecked(false);
  }

  // The window opens at the size it was closed at, start after start (it grew from 1600x1000 to
  // the screen's height, 1080, by the second start).
  void the_window_opens_at_the_size_it_was_closed_at() {
    QSettings().remove(QStringLiteral("window"));
    for (int start = 1; start <= 3; ++start) {
      auto studio = kinetic::app::create_studio(kinetic::app::CommandLine{});
      QVERIFY(studio);
      studio->window->show();
      QVERIFY(QTest::qWaitForWindowExposed(studio->window.get()));
      QTest::qWait(300);  // the layout passes after the first show
      QVERIFY2(studio->window->size() == QSize(1600, 1000),
               qPrintable(QStringLiteral("start %1: %2x%3")
                              .arg(start)
                              .arg(studio->window->width())
                              .arg(studio->window->height())));
      QVERIFY(studio->window->close());  // saves the geometry
    }
  }
};

QTEST_MAIN(WindowLayoutWindowTest)
#include "window_layout_window_test.moc"
