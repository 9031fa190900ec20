#include "app/servo/command_renewal.hpp"

namespace kinetic::app {

CommandRenewal::CommandRenewal(ServoLoop& loop)
    : loop_(loop), set_at_(Clock::now()), thread_([this] { run(); }) {}

CommandRenewal::~CommandRenewal() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void CommandRenewal::set_command(const ServoCommand& command) {
  std::lock_guard<std::mutex> lock(mutex_);
  command_ = command;
  set_at_ = Clock::now();
  // Under the lock: a renewal of the previous command cannot arrive after this one.
  loop_.set_command(command_);
}

void CommandRenewal::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  Clock::time_point next = Clock::now() + kPeriod;
  while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
    next += kPeriod;
    const Clock::time_point now = Clock::now();
    if (next < now) next = now + kPeriod;  // (this thread was starved: no burst to catch up)
    if (now - set_at_ > kGuiSilence) continue;
    loop_.set_command(command_);
  }
}

}  // namespace kinetic::app
