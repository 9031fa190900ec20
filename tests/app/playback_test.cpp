// Qt Test: playback of a real timed trajectory into the document's playback joints — real-time
// advance, seeking, waypoint stepping, looping and speed.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include "app/document/studio_document.hpp"
#include "app/trajectories/playback_controller.hpp"
#include "app/trajectories/trajectory_timing.hpp"

using namespace kinetic;
using kinetic::app::PlaybackController;
using kinetic::app::StudioDocument;

namespace {

// A four-waypoint trapezoidal motion (it stops at every waypoint) of a few seconds.
Trajectory make_trajectory(const RobotModel& robot) {
  JointPath path;
  for (double a : {0.0, 0.8, -0.4, 1.2})
    path.push_back((JointVector(6) << a, -1.2, 1.2 + 0.2 * a, -1.57, -1.57, a).finished());
  app::TimingSettings timing;
  timing.method = app::TimingMethod::Trapezoidal;
  timing.velocity_scaling = 0.3;
  return app::time_path(path, app::limits_for(robot), timing);
}

}  // namespace

class PlaybackTest : public QObject {
  Q_OBJECT
 private slots:
  void init() {
    document_ = std::make_unique<StudioDocument>();
    QVERIFY(document_->load_robot(QStringLiteral("ur5e")).isEmpty());
    trajectory_ = make_trajectory(*document_->robot());
    QVERIFY(trajectory_.duration() > 1.0);
  }

  void plays_in_real_time() {
    PlaybackController playback(*document_);
    playback.set_trajectory(trajectory_);
    QVERIFY(document_->playback_joints().has_value());
    QSignalSpy playing(&playback, &PlaybackController::playingChanged);
    // The clock's time played lies between these two, however long the machine stalls the
    // process inside play() or pause().
    QElapsedTimer around;
    around.start();
    playback.play();
    QElapsedTimer within;
    within.start();
    QVERIFY(playback.playing());
    QTest::qWait(200);
    const double at_least = std::min(within.nsecsElapsed() / 1e9, trajectory_.duration());
    playback.pause();
    const double at_most = std::min(around.nsecsElapsed() / 1e9, trajectory_.duration());
    QCOMPARE(playing.count(), 2);
    // Time on the clock, however late the timer fired: pausing stops the playhead at the clock.
    QVERIFY2(playback.time() > 0.15 && playback.time() > at_least - 0.002 &&
                 playback.time() < at_most + 0.002,
             qPrintable(QStringLiteral("played %1 s between %2 s and %3 s on the clock")
                            .arg(playback.time())
                            .arg(at_least)
                            .arg(at_most)));
    // The ghost shows the trajectory at that time.
    QVERIFY((*document_->playback_joints() - trajectory_.sample(playback.time()).position).norm() <
            1e-12);
  }

  void seek_sets_exact_joints() {
    PlaybackController playback(*document_);
    playback.set_trajectory(trajectory_);
    const double t = 0.37 * trajectory_.duration();
    playback.seek(t);
    QCOMPARE(playback.time(), t);
    QCOMPARE(*document_->playback_joints(), trajectory_.sample(t).position);
    playback.seek(1e9);  // clamped to the end
    QCOMPARE(playback.time(), trajectory_.end_time());
    playback.stop();
    QVERIFY(!document_->playback_joints().has_value());
  }

  void steps_visit_waypoints_in_order() {
    PlaybackController playback(*document_);
    playback.set_trajectory(trajectory_);
    const std::vector<double>& waypoints = trajectory_.waypoint_times();
    QCOMPARE(waypoints.size(), std::size_t(4));
    for (std::size_t i = 1; i < waypoints.size(); ++i) {
      playback.step(+1);
      QCOMPARE(playback.time(), waypoints[i]);
    }
    for (int i = static_cast<int>(waypoints.size()) - 2; i >= 0; --i) {
      playback.step(-1);
      QCOMPARE(playback.time(), waypoints[i]);
    }
    QCOMPARE(*document_->playback_joints(), trajectory_.sample(waypoints[0]).position);
  }

  void stops_at_the_end_or_loops() {
    PlaybackController playback(*document_);
    playback.set_trajectory(trajectory_);
    playback.set_speed(100.0);  // clamped to 4×
    QCOMPARE(playback.speed(), 4.0);
    playback.seek(trajectory_.end_time() - 0.1);
    playback.play();
    QTRY_VERIFY_WITH_TIMEOUT(!playback.playing(), 2000);
    QCOMPARE(playback.time(), trajectory_.end_time());

    playback.set_loop(true);
    playback.seek(trajectory_.end_time() - 0.1);
    QSignalSpy times(&playback, &PlaybackController::timeChanged);
    playback.play();
    QTRY_VERIFY_WITH_TIMEOUT(!times.isEmpty() && times.last().at(0).toDouble() < 1.0, 2000);
    QVERIFY(playback.playing());
    playback.toggle_play();
    QVERIFY(!playback.playing());
  }

  void scene_changes_follow_the_playhead() {
    // A pick and place in miniature: the part stands on the table, is held from the second
    // waypoint, and stands somewhere else from the third.
    const std::vector<double>& waypoints = trajectory_.waypoint_times();
    PlanningScene standing, held, placed;
    standing.add_obstacle("part", Shape::cylinder(0.02, 0.08),
                          pose_from_xyz_rpy({0.5, 0.0, 0.04}, {0, 0, 0}));
    held = standing;
    held.attach_obstacle("part", "tool0", Pose::Identity());
    placed.add_obstacle("part", Shape::cylinder(0.02, 0.08),
                        pose_from_xyz_rpy({0.3, 0.3, 0.04}, {0, 0, 0}));
    const std::vector<app::SceneChange> changes{
        {0.0, standing}, {waypoints[1], held}, {waypoints[2], placed}};
    QCOMPARE(app::scene_change_index(changes, -1.0), 0);
    QCOMPARE(app::scene_change_index(changes, waypoints[1]), 1);
    QCOMPARE(app::scene_change_index({}, 0.0), -1);

    PlaybackController playback(*document_);
    QSignalSpy changed(document_.get(), &StudioDocument::playbackSceneChanged);
    playback.set_trajectory(trajectory_, changes);
    QVERIFY(document_->playback_scene() && document_->playback_scene()->has_obstacle("part"));
    playback.seek(0.5 * (waypoints[1] + waypoints[2]));
    QVERIFY(document_->playback_scene()->has_attached("part"));
    const qsizetype signals_so_far = changed.count();
    playback.seek(0.6 * waypoints[1] + 0.4 * waypoints[2]);  // the same change: no new scene
    QCOMPARE(changed.count(), signals_so_far);
    playback.seek(waypoints[2]);  // at the instant of a change, the scene after it
    QVERIFY(document_->playback_scene()->obstacle("part").pose.translation().isApprox(
        Vector3(0.3, 0.3, 0.04)));
    playback.step(-1);
    QVERIFY(document_->playback_scene()->has_attached("part"));

    // An edit of the world while paused shows the world; the next seek shows the playback again.
    document_->set_scene(standing);
    QVERIFY(!document_->playback_scene());
    playback.seek(waypoints[2]);
    QVERIFY(document_->playback_scene());

    playback.stop();
    QVERIFY(!document_->playback_scene());
    // Replaced in place (an undo), then a trajectory without changes: none at all.
    playback.seek(waypoints[1]);
    playback.set_scene_changes({{0.0, placed}});
    QVERIFY(document_->playback_scene()->obstacle("part").pose.translation().isApprox(
        Vector3(0.3, 0.3, 0.04)));
    playback.set_trajectory(trajectory_);
    QVERIFY(document_->playback_joints().has_value());
    QVERIFY(!document_->playback_scene());
  }

  void retiming_moves_scene_changes_with_their_waypoints() {
    const std::vector<double>& waypoints = trajectory_.waypoint_times();
    const std::vector<app::SceneChange> changes{{0.0, {}}, {waypoints[1], {}}, {waypoints[2], {}}};
    app::TimingSettings slower;
    slower.method = app::TimingMethod::Trapezoidal;
    slower.velocity_scaling = 0.1;
    const Trajectory retimed = app::time_path(app::trajectory_waypoints(trajectory_),
                                              app::limits_for(*document_->robot()), slower);
    QVERIFY(retimed.duration() > 2 * trajectory_.duration());
    const std::vector<app::SceneChange> moved =
        app::retime_scene_changes(changes, trajectory_, retimed);
    QCOMPARE(moved.size(), changes.size());
    for (std::size_t i = 0; i < moved.size(); ++i)
      QCOMPARE(moved[i].time, retimed.waypoint_times()[i]);
  }

 private:
  std::unique_ptr<StudioDocument> document_;
  Trajectory trajectory_;
};

QTEST_MAIN(PlaybackTest)
#include "playback_test.moc"
