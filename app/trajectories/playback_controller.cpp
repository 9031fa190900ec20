#include "app/trajectories/playback_controller.hpp"

#include <algorithm>
#include <cmath>

#include "app/document/studio_document.hpp"

namespace kinetic::app {

PlaybackController::PlaybackController(StudioDocument& document, QObject* parent)
    : QObject(parent), document_(document) {
  timer_.setInterval(16);
  timer_.setTimerType(Qt::PreciseTimer);
  connect(&timer_, &QTimer::timeout, this, &PlaybackController::tick);
  connect(&document_, &StudioDocument::robotChanged, this,
          [this] { set_trajectory(trajectory_, scene_changes_); });
  // An edit of the world shows the world: a paused playback scene would hide the edit (an
  // obstacle dragged that does not move). The next seek, step or play shows it again.
  connect(&document_, &StudioDocument::sceneChanged, this, [this] {
    if (playing()) return;
    shown_change_ = -1;
    document_.set_playback_scene(std::nullopt);
  });
}

void PlaybackController::set_trajectory(const Trajectory& trajectory,
                                        std::vector<SceneChange> scene_changes) {
  pause();
  trajectory_ = trajectory;
  scene_changes_ = std::move(scene_changes);
  shown_change_ = -1;
  model_index_.clear();
  if (const RobotModelPtr robot = document_.robot())
    for (const std::string& name : trajectory_.joint_names()) {
      // A joint the robot does not have (a trajectory kept from another robot) is not shown.
      const int joint = robot->find_joint(name);
      model_index_.push_back(
          joint < 0 ? -1 : robot->joints()[static_cast<std::size_t>(joint)].variable_index);
    }
  if (trajectory_.empty()) {
    time_ = 0.0;
    document_.set_playback_joints(std::nullopt);
    show_scene();
    emit timeChanged(time_);
    return;
  }
  show_time(trajectory_.start_time());
}

void PlaybackController::set_scene_changes(std::vector<SceneChange> scene_changes) {
  scene_changes_ = std::move(scene_changes);
  shown_change_ = -1;
  show_scene();
}

void PlaybackController::play() {
  if (trajectory_.empty() || playing()) return;
  if (time_ >= trajectory_.end_time())
    show_time(trajectory_.start_time());  // replay from the start
  clock_.start();
  clock_read_ns_ = 0;
  timer_.start();
  emit playingChanged(true);
}

void PlaybackController::pause() {
  if (!playing()) return;
  timer_.stop();
  // The playhead stops where the clock is, not where the last tick left it.
  if (time_ < trajectory_.end_time()) advance();
  emit playingChanged(false);
}

void PlaybackController::toggle_play() {
  playing() ? pause() : play();
}

void PlaybackController::stop() {
  pause();
  document_.set_playback_joints(std::nullopt);
  show_scene();
}

void PlaybackController::seek(double t) {
  if (trajectory_.empty() || std::isnan(t)) return;
  show_time(t);
}

void PlaybackController::step(int direction) {
  if (trajectory_.empty()) return;
  pause();
  const std::vector<double> times = waypoint_times();
  constexpr double kEps = 1e-9;
  if (direction > 0) {
    const auto next = std::upper_bound(times.begin(), times.end(), time_ + kEps);
    show_time(next == times.end() ? trajectory_.end_time() : *next);
  } else {
    const auto next = std::lower_bound(times.begin(), times.end(), time_ - kEps);
    show_time(next == times.begin() ? trajectory_.start_time() : *std::prev(next));
  }
}

void PlaybackController::set_speed(double speed) {
  speed_ = std::clamp(speed, 0.1, 4.0);
}

void PlaybackController::set_loop(bool loop) {
  loop_ = loop;
}

void PlaybackController::tick() {
  if (advance()) pause();
}

bool PlaybackController::advance() {
  const qint64 now_ns = clock_.nsecsElapsed();
  const double dt = static_cast<double>(now_ns - clock_read_ns_) / 1e9;
  clock_read_ns_ = now_ns;
  double t = time_ + speed_ * dt;
  if (t >= trajectory_.end_time()) {
    if (!loop_ || trajectory_.duration() <= 0.0) {
      show_time(trajectory_.end_time());
      emit endReached();
      return true;
    }
    emit endReached();
    t = trajectory_.start_time() + std::fmod(t - trajectory_.start_time(), trajectory_.duration());
  }
  show_time(t);
  return false;
}

void PlaybackController::show_time(double t) {
  time_ = std::clamp(t, trajectory_.start_time(), trajectory_.end_time());
  const JointVector q = trajectory_.sample(time_).position;
  JointVector shown = document_.joints();
  for (std::size_t i = 0; i < model_index_.size(); ++i)
    if (model_index_[i] >= 0 && model_index_[i] < shown.size())
      shown[model_index_[i]] = q[static_cast<int>(i)];
  document_.set_playback_joints(shown);
  show_scene();
  emit timeChanged(time_);
}

void PlaybackController::show_scene() {
  // Only while the ghost is shown: the scene's attached objects are drawn on it.
  const int index = document_.playback_joints() ? scene_change_index(scene_changes_, time_) : -1;
  if (index < 0) {
    shown_change_ = -1;
    document_.set_playback_scene(std::nullopt);
    return;
  }
  if (index == shown_change_ && document_.playback_scene()) return;  // 60 Hz: only real changes
  shown_change_ = index;
  document_.set_playback_scene(scene_changes_[static_cast<std::size_t>(index)].scene);
}

std::vector<double> PlaybackController::waypoint_times() const {
  std::vector<double> times = trajectory_.waypoint_times();
  if (times.empty())
    for (const auto& s : trajectory_.samples()) times.push_back(s.t);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  return times;
}

}  // namespace kinetic::app
