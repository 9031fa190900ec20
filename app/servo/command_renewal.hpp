#pragma once
// CommandRenewal: re-sends the teleop command to the servo loop from a thread of its own at a
// steady rate, so held input (a jog button or key, the spacemouse, goal following) is timed by this
// clock, never by the GUI thread's. A slow frame there (lavapipe: 200-400 ms) left the loop without
// a new command for its 100 ms timeout, stopping the arm in jerks ("Stopped: no new command for 100
// ms"). The GUI thread still vouches for the command: renewal stops once it has not set one for
// kGuiSilence (hung, not merely slow), and the loop's own timeout then stops the arm.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "engine/servo/servo_loop.hpp"

namespace kinetic::app {

class CommandRenewal {
 public:
  using Clock = std::chrono::steady_clock;
  // 100 Hz: ten renewals within the loop's timeout.
  static constexpr std::chrono::milliseconds kPeriod{10};
  static constexpr std::chrono::milliseconds kGuiSilence{1000};

  // `loop` must outlive this object.
  explicit CommandRenewal(ServoLoop& loop);
  ~CommandRenewal();
  CommandRenewal(const CommandRenewal&) = delete;
  CommandRenewal& operator=(const CommandRenewal&) = delete;

  // Sends `command` now and renews it until the next one (a Stop too). GUI thread.
  void set_command(const ServoCommand& command);

 private:
  void run();

  ServoLoop& loop_;
  std::mutex mutex_;  // guards the members below, and orders sends to the loop
  std::condition_variable wake_;
  bool stopping_ = false;
  ServoCommand command_;
  Clock::time_point set_at_;
  std::thread thread_;  // last: starts once the members above exist
};

}  // namespace kinetic::app
