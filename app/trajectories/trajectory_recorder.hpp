#pragma once
// TrajectoryRecorder: while recording, samples the document's joints at a settable rate (the
// user moves sliders or the gizmo); identical consecutive samples are kept once. stop() turns the
// samples into a path, times it on a background thread and adds it as "recording N".
#include <QObject>
#include <QTimer>

#include "app/trajectories/trajectory_timing.hpp"
#include "app/workers/newest_wins_worker.hpp"

namespace kinetic::app {

class StudioDocument;

class TrajectoryRecorder : public QObject {
  Q_OBJECT
 public:
  explicit TrajectoryRecorder(StudioDocument& document, QObject* parent = nullptr);

  void set_rate(double hz);  // clamped to [1, 1000]; default 50
  double rate() const { return rate_; }
  void set_timing(const TimingSettings& timing) { timing_ = timing; }
  bool recording() const { return timer_.isActive(); }
  const JointPath& samples() const { return samples_; }

 public slots:
  void start();
  // Ends the recording; the trajectory is added when timing finishes (finished() reports it).
  void stop();

 signals:
  void recordingChanged(bool recording);
  // index in the document's list, or -1 with the reason (too few distinct samples, timing error).
  void finished(int index, const QString& error);

 private:
  void capture();

  StudioDocument& document_;
  QTimer timer_;
  JointPath samples_;
  double rate_ = 50.0;
  TimingSettings timing_;
  int count_ = 0;
  NewestWinsWorker worker_{
      QStringLiteral("recording timing")};  // last: its thread stops before the rest goes
};

}  // namespace kinetic::app
