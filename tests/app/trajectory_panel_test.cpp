// Qt Test: the trajectory panel — list, rename, compare, timeline scrubbing, plots (decimated,
// limits dashed, click seeks), validation entries that seek, drop of trajectory files, the
// re-time settings as one value (what a session keeps).
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QtTest>

#include "engine/model/robot_loader.hpp"
#include "engine/trajectory/trapezoidal.hpp"
#include "panels/trajectory_panel.hpp"
#include "panels/trajectory_plot.hpp"

using namespace kinetic;
using kinetic::panels::TrajectoryPanel;

namespace {

Trajectory make(double reach, const TrajectoryLimits& limits) {
  JointPath path{JointVector::Zero(6), JointVector::Constant(6, reach),
                 JointVector::Constant(6, -reach)};
  return trapezoidal(path, limits);
}

}  // namespace

class TrajectoryPanelTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    limits_ = TrajectoryLimits::from_model(*load_builtin_robot("ur5e"));
    entries_ = {{QStringLiteral("plan 1"), make(0.5, limits_)},
                {QStringLiteral("plan 2"), make(1.0, limits_)}};
  }

  void lists_renames_and_compares() {
    TrajectoryPanel panel;
    QSignalSpy current(&panel, &TrajectoryPanel::currentChanged);
    panel.set_trajectories(entries_);
    QCOMPARE(panel.list()->count(), 2);
    panel.set_current(1);
    QCOMPARE(panel.current(), 1);
    QCOMPARE(current.last().at(0).toInt(), 1);
    QSignalSpy rename(&panel, &TrajectoryPanel::renameRequested);
    panel.list()->item(0)->setText(QStringLiteral("first"));
    QCOMPARE(rename.count(), 1);
    QCOMPARE(rename.first().at(1).toString(), QStringLiteral("first"));
    panel.select({0, 1});
    const QString compare = panel.compare_label()->text();
    QVERIFY2(compare.contains(QString::number(entries_[0].trajectory.duration(), 'f', 3)) &&
                 compare.contains(QString::number(entries_[1].trajectory.duration(), 'f', 3)),
             qPrintable(compare));
    QVERIFY(panel.blend_button()->isEnabled());
    QSignalSpy blend(&panel, &TrajectoryPanel::blendRequested);
    panel.blend_button()->click();
    QCOMPARE(blend.first().at(0).value<QList<int>>(), (QList<int>{0, 1}));
  }

  void timeline_scrubs_and_follows_playback() {
    TrajectoryPanel panel;
    panel.set_trajectories(entries_);
    panel.set_current(0);
    QSignalSpy seek(&panel, &TrajectoryPanel::seekRequested);
    panel.timeline()->setValue(TrajectoryPanel::kTimelineSteps / 2);
    QCOMPARE(seek.count(), 1);
    QVERIFY(std::abs(seek.first().at(0).toDouble() - entries_[0].trajectory.duration() / 2) < 1e-9);
    panel.set_time(entries_[0].trajectory.duration() / 4);  // playback moves it without a seek
    QCOMPARE(seek.count(), 1);
    QCOMPARE(panel.timeline()->value(), TrajectoryPanel::kTimelineSteps / 4);
    QCOMPARE(panel.plot()->cursor(), entries_[0].trajectory.duration() / 4);
  }

  // A click on the timeline's track jumps to that time (it only stepped a page towards it).
  void clicking_the_timeline_track_jumps_there() {
    TrajectoryPanel panel;
    panel.set_trajectories(entries_);
    panel.set_current(0);
    panel.resize(500, 600);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSlider* timeline = panel.timeline();
    QSignalSpy seek(&panel, &TrajectoryPanel::seekRequested);
    const QPoint three_quarters(timeline->width() * 3 / 4, timeline->height() / 2);
    QTest::mouseClick(timeline, Qt::LeftButton, {}, three_quarters);
    const double fraction = double(timeline->value()) / TrajectoryPanel::kTimelineSteps;
    QVERIFY2(std::abs(fraction - 0.75) < 0.08, qPrintable(QString::number(fraction)));
    QVERIFY(!seek.isEmpty());
    QVERIFY(std::abs(seek.last().at(0).toDouble() - fraction * entries_[0].trajectory.duration()) <
            1e-6);
  }

  // Choosing the current trajectory from code (a plan finished, an undo) enables what acts on it,
  // as a click does: set_current left Export, Play and the rest off.
  void the_current_trajectory_set_from_code_enables_its_buttons() {
    TrajectoryPanel panel;
    panel.set_trajectories(entries_);
    QVERIFY(!panel.play_button()->isEnabled());
    panel.set_current(0);
    QVERIFY(panel.play_button()->isEnabled());
    QVERIFY(panel.retime_button()->isEnabled());
    QVERIFY(panel.robot_to_end_button()->isEnabled());
  }

  void plots_are_decimated_with_dashed_limits_and_click_seeks() {
    TrajectoryPanel panel;
    panel.set_limits(limits_);
    panel.set_trajectories(entries_);
    panel.set_current(1);
    panels::TrajectoryPlot* plot = panel.plot();
    QCOMPARE(plot->joint_series().size(), std::size_t(6));
    QCOMPARE(plot->joint_series()[0]->count(), panels::TrajectoryPlot::kPointsPerSeries);
    QCOMPARE(plot->limit_series().size(), std::size_t(12));  // lower and upper per joint
    QCOMPARE(plot->limit_series()[0]->pen().style(), Qt::DashLine);
    panel.quantity_combo()->setCurrentIndex(1);  // velocity: ±limit
    QCOMPARE(plot->limit_series()[1]->at(0).y(), limits_.velocity[0]);
    panel.quantity_combo()->setCurrentIndex(3);  // jerk
    QCOMPARE(plot->quantity(), panels::PlotQuantity::Jerk);
    plot->resize(600, 300);
    plot->show();
    QTest::qWait(50);
    QSignalSpy seek(&panel, &TrajectoryPanel::seekRequested);
    const QRectF area = plot->chart()->plotArea();
    const QPoint middle = plot->mapFromScene(plot->chart()->mapToScene(area.center()));
    QTest::mouseClick(plot->viewport(), Qt::LeftButton, {}, middle);
    QCOMPARE(seek.count(), 1);
    QVERIFY(std::abs(seek.first().at(0).toDouble() - entries_[1].trajectory.duration() / 2) <
            0.05 * entries_[1].trajectory.duration());
  }

  void validation_entries_seek_and_drops_import() {
    TrajectoryPanel panel;
    TrajectoryValidationReport report;
    TrajectoryViolation v;
    v.time = 0.75;
    v.message = "velocity of joint 'joint1' is 4 at t = 0.75 s";
    report.violations.push_back(v);
    panel.set_validation(report);
    QSignalSpy seek(&panel, &TrajectoryPanel::seekRequested);
    emit panel.validation_list()->itemClicked(panel.validation_list()->item(0));
    QCOMPARE(seek.first().at(0).toDouble(), 0.75);
    const QStringList paths =
        panels::importable_paths({QUrl::fromLocalFile(QStringLiteral("/tmp/a.json")),
                                  QUrl::fromLocalFile(QStringLiteral("/tmp/b.CSV")),
                                  QUrl::fromLocalFile(QStringLiteral("/tmp/c.png")),
                                  QUrl(QStringLiteral("https://x/y.json"))});
    QCOMPARE(paths, (QStringList{QStringLiteral("/tmp/a.json"), QStringLiteral("/tmp/b.CSV")}));
  }

  void show_toggles_report_trail_and_stroboscope() {
    TrajectoryPanel panel;
    QSignalSpy show(&panel, &TrajectoryPanel::showOptionsChanged);
    panel.strobe_box()->setChecked(true);
    QCOMPARE(show.last().at(0).toBool(), false);
    QCOMPARE(show.last().at(1).toBool(), true);
  }

  void retime_settings_come_back_as_they_were_set_and_edits_are_signalled() {
    TrajectoryPanel panel;
    QCOMPARE(panel.retime_settings().timing, QStringLiteral("time_optimal"));  // the defaults
    QCOMPARE(panel.retime_settings().velocity_scaling, 1.0);
    QVERIFY(!panel.retime_settings().replace_selected);
    QSignalSpy edited(&panel, &TrajectoryPanel::retimeSettingsEdited);
    panels::RetimeSettings settings;
    settings.timing = QStringLiteral("scurve");
    settings.velocity_scaling = 0.5;
    settings.acceleration_scaling = 0.25;
    settings.replace_selected = true;
    panel.set_retime_settings(settings);
    QCOMPARE(edited.count(), 0);  // set, not edited
    const panels::RetimeSettings back = panel.retime_settings();
    QCOMPARE(back.timing, QStringLiteral("scurve"));
    QCOMPARE(back.velocity_scaling, 0.5);
    QCOMPARE(back.acceleration_scaling, 0.25);
    QVERIFY(back.replace_selected);
    // What Re-time uses is what was set.
    QCOMPARE(panel.timing_key(), QStringLiteral("scurve"));
    QVERIFY(panel.replace_when_retiming());

    // An unknown timing keeps the current one; a scaling below the box's range is clamped into it.
    settings.timing = QStringLiteral("quintic");
    settings.velocity_scaling = 0.001;
    panel.set_retime_settings(settings);
    QCOMPARE(panel.retime_settings().timing, QStringLiteral("scurve"));
    QCOMPARE(panel.retime_settings().velocity_scaling, panel.velocity_box()->minimum());

    // A user's edit in any of the re-time boxes is signalled.
    panel.timing_combo()->setCurrentIndex(
        panel.timing_combo()->findData(QStringLiteral("trapezoidal")));
    QCOMPARE(edited.count(), 1);
    panel.velocity_box()->setValue(0.75);
    QCOMPARE(edited.count(), 2);
    panel.acceleration_box()->setValue(0.5);
    QCOMPARE(edited.count(), 3);
    panel.replace_box()->setChecked(false);
    QCOMPARE(edited.count(), 4);
  }

 private:
  TrajectoryLimits limits_;
  std::vector<panels::TrajectoryEntry> entries_;
};

QTEST_MAIN(TrajectoryPanelTest)
#include "trajectory_panel_test.moc"
