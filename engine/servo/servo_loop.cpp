#include "engine/servo/servo_loop.hpp"

#include <cmath>
#include <exception>

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

constexpr int kFresh = 4;  // middle_ bit: the middle slot holds a state no reader has taken
constexpr int kSlotMask = 3;

std::chrono::steady_clock::duration period_of(double rate_hz) {
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(1.0 / rate_hz));
}

std::string describe(const std::exception& error) {
  if (const auto* e = dynamic_cast<const Error*>(&error))
    return e->hint().empty() ? e->message() : e->message() + " (" + e->hint() + ")";
  return error.what();
}

}  // namespace

ServoLoop::ServoLoop(std::unique_ptr<Servo> servo, std::chrono::milliseconds command_timeout)
    : servo_(std::move(servo)), command_timeout_(command_timeout) {
  if (!servo_) throw Error(ErrorCode::InvalidValue, "ServoLoop needs a Servo, got null");
  if (command_timeout_.count() <= 0)
    throw Error(ErrorCode::InvalidValue,
                "servo loop command timeout must be positive (got " +
                    std::to_string(command_timeout_.count()) + " ms)",
                "use a timeout a little longer than the input's update period, e.g. 100 ms");
}

ServoLoop::~ServoLoop() {
  stop();
}

void ServoLoop::start(const JointVector& q) {
  servo_->chain().model()->validate(q);  // the caller hears about a bad start state
  stop();
  if (thread_.joinable()) thread_.join();  // a loop stopped from its own callback
  ServoLoopState initial;
  initial.step.q = q;
  initial.step.velocity = JointVector::Zero(q.size());
  initial.step.status = ServoStatus::Stopped;
  {
    std::lock_guard<std::mutex> lock(reader_);
    for (ServoLoopState& state : states_) state = initial;
    middle_.store(1, std::memory_order_release);
    front_ = 0;
    back_ = 2;
  }
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stop_requested_ = false;
  }
  start_q_ = q;
  running_.store(true);
  thread_ = std::thread(&ServoLoop::run, this);
}

void ServoLoop::stop() {
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stop_requested_ = true;
  }
  stop_wake_.notify_all();
  // From the control thread itself (an on_step callback): the loop ends after the callback.
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id()) thread_.join();
}

void ServoLoop::set_command(const ServoCommand& command) {
  std::lock_guard<std::mutex> lock(mutex_);
  command_ = command;
  command_time_ = std::chrono::steady_clock::now();
  has_command_ = true;
  ++command_serial_;
  error_.clear();
}

ServoLoopState ServoLoop::latest() const {
  std::lock_guard<std::mutex> lock(reader_);
  if (middle_.load(std::memory_order_relaxed) & kFresh) {
    // Take the fresh middle slot, hand ours back as the middle (not fresh).
    const int previous = middle_.exchange(front_, std::memory_order_acq_rel);
    front_ = previous & kSlotMask;
  }
  return states_[front_];
}

void ServoLoop::publish(const ServoLoopState& state) {
  states_[back_] = state;
  const int previous = middle_.exchange(back_ | kFresh, std::memory_order_acq_rel);
  back_ = previous & kSlotMask;
}

void ServoLoop::set_on_step(std::function<void(const ServoLoopState&)> on_step) {
  auto shared =
      on_step
          ? std::make_shared<const std::function<void(const ServoLoopState&)>>(std::move(on_step))
          : nullptr;
  std::lock_guard<std::mutex> lock(mutex_);
  on_step_ = std::move(shared);
}

void ServoLoop::set_scene(const PlanningScene& scene) {
  std::lock_guard<std::mutex> lock(servo_mutex_);
  servo_->set_scene(scene);
}

void ServoLoop::set_options(const ServoOptions& options) {
  std::lock_guard<std::mutex> lock(servo_mutex_);
  servo_->set_options(options);
}

ServoOptions ServoLoop::options() const {
  std::lock_guard<std::mutex> lock(servo_mutex_);
  return servo_->options();
}

void ServoLoop::run() {
  using Clock = std::chrono::steady_clock;
  JointVector q = start_q_;
  ServoCommand command;  // the control thread's copy (its vectors are reused between cycles)
  ServoLoopState state;
  state.step.q = q;
  std::uint64_t cycle = 0;
  Clock::duration period = period_of(options().rate_hz);
  Clock::time_point next = Clock::now();  // the first cycle runs at once
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(stop_mutex_);
      if (stop_wake_.wait_until(lock, next, [this] { return stop_requested_; })) break;
    }
    const Clock::time_point now = Clock::now();

    // The command: the newest, unless it is older than the timeout or was rejected.
    std::string stop_message;
    std::uint64_t serial = 0;
    std::shared_ptr<const std::function<void(const ServoLoopState&)>> on_step;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      serial = command_serial_;
      on_step = on_step_;
      if (!error_.empty()) {
        command.kind = ServoCommand::Kind::Stop;
        stop_message = error_;
      } else if (!has_command_) {
        command.kind = ServoCommand::Kind::Stop;
      } else if (now - command_time_ > command_timeout_) {
        command.kind = ServoCommand::Kind::Stop;
        if (command_.kind != ServoCommand::Kind::Stop)
          stop_message = "no new command for " + std::to_string(command_timeout_.count()) +
                         " ms: stopped (commands must arrive faster than the timeout)";
      } else {
        command = command_;
      }
    }

    std::string error;
    {
      std::lock_guard<std::mutex> lock(servo_mutex_);
      try {
        state.step = servo_->step(q, command);
      } catch (const std::exception& e) {
        error = "servo command rejected: " + describe(e);
      } catch (...) {
        error = "servo command rejected: the step threw an unknown exception";
      }
      period = period_of(servo_->options().rate_hz);
    }
    if (!error.empty()) {
      state.step.q = q;
      state.step.velocity = JointVector::Zero(q.size());
      state.step.status = ServoStatus::Stopped;
      state.step.speed_scale = 1.0;  // (as for any Stop)
      state.step.message = error;
      std::lock_guard<std::mutex> lock(mutex_);
      if (command_serial_ == serial) error_ = error;  // (a newer command replaces the bad one)
    } else if (state.step.status == ServoStatus::Stopped && !stop_message.empty()) {
      state.step.message = stop_message;
    }
    q = state.step.q;
    state.cycle = ++cycle;
    state.late_ms = std::chrono::duration<double, std::milli>(now - next).count();
    publish(state);

    if (on_step) {
      try {
        (*on_step)(state);
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = "the servo loop's on_step callback threw: " + describe(e);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        error_ = "the servo loop's on_step callback threw an exception";
      }
    }

    // The next cycle on the schedule; cycles missed while late are skipped, not run in a burst.
    next += period;
    const Clock::time_point after = Clock::now();
    if (next < after) next += period * ((after - next) / period + 1);
  }
  running_.store(false);
}

}  // namespace kinetic
