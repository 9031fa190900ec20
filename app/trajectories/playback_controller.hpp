#pragma once
// PlaybackController: plays a trajectory into the document's playback joints (the viewport draws
// a ghost there). A ~60 Hz timer advances time by speed × the real elapsed time; it pauses,
// loops, seeks and steps between the waypoints the trajectory was made from. A trajectory with
// scene changes (a pick and place) also sets the document's playback scene: the world at the
// playhead, so the part is seen held and carried.
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <vector>

#include "app/document/scene_change.hpp"
#include "engine/trajectory/trajectory.hpp"

namespace kinetic::app {

class StudioDocument;

class PlaybackController : public QObject {
  Q_OBJECT
 public:
  explicit PlaybackController(StudioDocument& document, QObject* parent = nullptr);

  // Stops playing and shows the trajectory's start (empty trajectory: clears the ghost).
  void set_trajectory(const Trajectory& trajectory, std::vector<SceneChange> scene_changes = {});
  const Trajectory& trajectory() const { return trajectory_; }
  // Replaces the scene changes of the same trajectory (an undo, a session reload) and shows the
  // one at the playhead, without moving it.
  void set_scene_changes(std::vector<SceneChange> scene_changes);
  const std::vector<SceneChange>& scene_changes() const { return scene_changes_; }

  double time() const { return time_; }
  bool playing() const { return timer_.isActive(); }
  double speed() const { return speed_; }
  bool loop() const { return loop_; }

 public slots:
  void play();
  void pause();
  void toggle_play();
  void stop();  // pauses and clears the ghost
  void seek(double t);
  void step(int direction);      // to the previous (-1) or next (+1) waypoint
  void set_speed(double speed);  // clamped to [0.1, 4]
  void set_loop(bool loop);

 signals:
  void timeChanged(double t);
  void playingChanged(bool playing);
  // The playhead ran to the end while playing (a looping playback goes on from the start): what
  // Plan & Execute waits for.
  void endReached();

 private:
  void tick();
  // Moves the playhead by speed x the time since the last advance; true when it reached the end
  // without looping.
  bool advance();
  void show_time(double t);
  // The document's playback scene for the playhead (none without scene changes or a ghost).
  void show_scene();
  std::vector<double> waypoint_times() const;

  StudioDocument& document_;
  Trajectory trajectory_;
  std::vector<SceneChange> scene_changes_;
  int shown_change_ = -1;         // index of the change in the document's playback scene
  std::vector<int> model_index_;  // trajectory joint -> model variable (-1 when absent)
  QTimer timer_;
  QElapsedTimer clock_;
  // The clock's reading at the last advance, in ns: restart()'s whole milliseconds dropped up to
  // 1 ms a tick, and the playhead fell behind the clock.
  qint64 clock_read_ns_ = 0;
  double time_ = 0.0;
  double speed_ = 1.0;
  bool loop_ = false;
};

}  // namespace kinetic::app
