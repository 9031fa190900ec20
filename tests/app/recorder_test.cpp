// Qt Test: recording the document's joints while they change (as slider moves would), then the
// timed trajectory added as "recording N".
#include <QSignalSpy>
#include <QTimer>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/trajectories/trajectory_recorder.hpp"
#include "engine/trajectory/validation.hpp"
#include "real_time_checks.hpp"

using namespace kinetic;
using kinetic::app::StudioDocument;
using kinetic::app::TrajectoryRecorder;

class RecorderTest : public QObject {
  Q_OBJECT
 private slots:
  void records_a_moving_joint() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    const JointVector start = document.joints();
    TrajectoryRecorder recorder(document);
    QCOMPARE(recorder.rate(), 50.0);
    QSignalSpy finished(&recorder, &TrajectoryRecorder::finished);
    kinetic::test::StallWatch stalls;
    recorder.start();
    QVERIFY(recorder.recording());
    // Move joint 1 over ~300 ms, then hold still for 200 ms (those samples are duplicates).
    QElapsedTimer clock;
    clock.start();
    QTimer mover;
    connect(&mover, &QTimer::timeout, [&] {
      JointVector q = start;
      q[0] += 0.5 * std::min(1.0, clock.elapsed() / 300.0);
      document.set_joints(q);
    });
    mover.start(5);
    QTest::qWait(500);
    mover.stop();
    recorder.stop();
    QVERIFY(!recorder.recording());
    const std::size_t samples = recorder.samples().size();
    // At 50 Hz the 300 ms of motion give about 15 distinct samples (held still: no duplicates);
    // the mover's 60 changes are not all recorded. A loaded machine fires the timer less often.
    KINETIC_VERIFY_IN_REAL_TIME(stalls, samples >= 4 && samples <= 25,
                                qPrintable(QString::number(samples)));
    for (std::size_t i = 1; i < samples; ++i)
      QVERIFY(recorder.samples()[i] != recorder.samples()[i - 1]);
    QVERIFY(finished.wait(10000) || !finished.isEmpty());
    QCOMPARE(finished.first().at(0).toInt(), 0);
    QCOMPARE(document.trajectories().size(), std::size_t(1));
    QCOMPARE(document.trajectories()[0].name, QStringLiteral("recording 1"));
    const Trajectory& t = document.trajectories()[0].trajectory;
    QVERIFY((t.samples().front().position - start).norm() < 1e-9);
    KINETIC_VERIFY_IN_REAL_TIME(
        stalls, std::abs(t.samples().back().position[0] - (start[0] + 0.5)) < 1e-9,
        "the recording ends before the joint's last position");
    QVERIFY(t.duration() > 0.0);
    // Time-optimal by default: the engine validates it within limits (jerk is not applicable to
    // its acceleration steps and says so).
    const auto report =
        validate_trajectory(t, app::limits_for(*document.robot()), TrajectoryValidationOptions{});
    QVERIFY2(report.ok(), report.summary().c_str());
    QVERIFY(!report.jerk_checked);
    // Undoable like every other addition.
    document.undo_stack().undo();
    QVERIFY(document.trajectories().empty());
  }

  void nothing_recorded_when_still() {
    StudioDocument document;
    QVERIFY(document.load_robot(QStringLiteral("ur5e")).isEmpty());
    TrajectoryRecorder recorder(document);
    recorder.set_rate(200.0);
    QSignalSpy finished(&recorder, &TrajectoryRecorder::finished);
    recorder.start();
    QTest::qWait(100);
    recorder.stop();
    QCOMPARE(recorder.samples().size(), std::size_t(1));
    QCOMPARE(finished.count(), 1);
    QCOMPARE(finished.first().at(0).toInt(), -1);
    QVERIFY(finished.first().at(1).toString().contains(QStringLiteral("did not move")));
    QVERIFY(document.trajectories().empty());
  }
};

QTEST_MAIN(RecorderTest)
#include "recorder_test.moc"
