#pragma once
// ServoLoop: runs a Servo on its own thread at options().rate_hz. The caller posts the newest
// command (set_command, from any thread: the last one wins) and reads the newest state
// (latest(), lock-free: never blocks the control thread). A command older than command_timeout
// is treated as Stop, so a stalled input device or GUI cannot leave the arm moving.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "engine/servo/servo.hpp"

namespace kinetic {

struct ServoLoopState {
  ServoStep step;           // the last step computed
  std::uint64_t cycle = 0;  // steps run since start()
  double late_ms = 0.0;     // how late the last cycle started against its schedule
};

class ServoLoop {
 public:
  explicit ServoLoop(std::unique_ptr<Servo> servo,
                     std::chrono::milliseconds command_timeout = std::chrono::milliseconds(100));
  ~ServoLoop();  // stops the thread
  ServoLoop(const ServoLoop&) = delete;
  ServoLoop& operator=(const ServoLoop&) = delete;

  // Starts from q (model order); a running loop is restarted from q.
  void start(const JointVector& q);
  void stop();
  bool running() const { return running_.load(); }

  // A command the servo rejects (NaN, wrong size: Servo::step throws) stops the arm: the states
  // read Stopped with the error as their message until the next set_command; the loop runs on.
  // A timed-out command reads Stopped with a message saying so.
  void set_command(const ServoCommand& command);
  // The newest state; cycle 0 (step.q = the start state, Stopped) until the first step. Safe from
  // any thread.
  ServoLoopState latest() const;
  // Called on the control thread after every step (keep it short: e.g. a recorder's append). It
  // may call set_command and stop() (the loop ends after it returns), not start(). An exception
  // from it stops the arm like a rejected command.
  void set_on_step(std::function<void(const ServoLoopState&)> on_step);

  // Scene and options changes apply from the next cycle (a rate_hz change too). Errors (an
  // invalid option, an object attached to an unknown link) are thrown here, to the caller.
  void set_scene(const PlanningScene& scene);
  void set_options(const ServoOptions& options);
  ServoOptions options() const;

 private:
  void run();
  void publish(const ServoLoopState& state);  // control thread: into the back slot, then swap

  std::unique_ptr<Servo> servo_;
  std::chrono::milliseconds command_timeout_;
  mutable std::mutex mutex_;  // guards command_, command_time_, has_command_, error_, on_step_
  ServoCommand command_;
  std::chrono::steady_clock::time_point command_time_;
  bool has_command_ = false;
  std::uint64_t command_serial_ = 0;  // increases with every set_command
  std::string error_;  // why the last command was rejected (stays until the next command)
  std::shared_ptr<const std::function<void(const ServoLoopState&)>> on_step_;
  // The servo itself (its scene and options): the control thread holds it during a step, so
  // set_scene / set_options wait at most one step and their errors reach the caller.
  mutable std::mutex servo_mutex_;
  // Newest state: a single-writer triple buffer (the control thread writes the back slot and
  // swaps it with the middle one; latest() swaps the middle into the front when it is fresh), so
  // the control thread never waits for a reader.
  ServoLoopState states_[3];
  mutable std::atomic<int> middle_{1};  // slot index | kFresh bit (latest() swaps it too)
  mutable int front_ = 0;               // the reader's slot
  int back_ = 2;                        // the writer's slot
  mutable std::mutex reader_;           // readers among themselves only
  std::atomic<bool> running_{false};
  std::mutex stop_mutex_;  // with stop_wake_: the control thread's sleep, cut short by stop()
  std::condition_variable stop_wake_;
  bool stop_requested_ = false;
  std::thread thread_;
  JointVector start_q_;
};

}  // namespace kinetic
