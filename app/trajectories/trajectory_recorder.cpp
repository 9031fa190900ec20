#include "app/trajectories/trajectory_recorder.hpp"

#include <algorithm>
#include <cmath>

#include "app/document/studio_document.hpp"
#include "engine/core/error.hpp"

namespace kinetic::app {

TrajectoryRecorder::TrajectoryRecorder(StudioDocument& document, QObject* parent)
    : QObject(parent), document_(document) {
  timer_.setTimerType(Qt::PreciseTimer);
  timer_.setInterval(static_cast<int>(std::lround(1000.0 / rate_)));
  connect(&timer_, &QTimer::timeout, this, &TrajectoryRecorder::capture);
  // Samples of another robot cannot be timed with this one's limits.
  connect(&document_, &StudioDocument::robotChanged, this, [this] {
    if (!recording()) return;
    timer_.stop();
    samples_.clear();
    emit recordingChanged(false);
    emit finished(-1, tr("Recording stopped: the robot changed."));
  });
}

void TrajectoryRecorder::set_rate(double hz) {
  rate_ = std::clamp(hz, 1.0, 1000.0);
  timer_.setInterval(std::max(1, static_cast<int>(std::lround(1000.0 / rate_))));
}

void TrajectoryRecorder::start() {
  if (recording() || !document_.robot()) return;
  samples_.clear();
  capture();
  timer_.start();
  emit recordingChanged(true);
}

void TrajectoryRecorder::capture() {
  const JointVector& q = document_.joints();
  if (!samples_.empty() && samples_.back() == q) return;  // the user held still
  samples_.push_back(q);
}

void TrajectoryRecorder::stop() {
  if (!recording()) return;
  timer_.stop();
  capture();
  emit recordingChanged(false);
  if (samples_.size() < 2) {
    emit finished(-1, tr("Nothing recorded: the robot did not move while recording."));
    return;
  }
  const JointPath path = samples_;
  const RobotModelPtr robot = document_.robot();
  const TimingSettings timing = timing_;
  worker_.submit(
      [path, robot, timing] {
        return make_trajectory([&] { return time_path(path, limits_for(*robot), timing); });
      },
      [this, robot](TrajectoryOrError result) {
        if (!result.error.isEmpty() || robot != document_.robot()) {
          emit finished(-1, result.error.isEmpty()
                                ? tr("Recording dropped: the robot changed.")
                                : tr("Could not time the recording: %1").arg(result.error));
          return;
        }
        const int index =
            document_.add_trajectory(tr("recording %1").arg(++count_), result.trajectory);
        emit finished(index, {});
      });
}

}  // namespace kinetic::app
