#include "app/headless/interruption.hpp"

#include <csignal>

#include "app/headless/job_execution.hpp"

namespace kinetic::app::headless {

namespace {

std::atomic<bool> g_requested{false};
std::atomic<int> g_signal{SIGINT};

extern "C" void on_interrupt(int signal_number) {
  g_signal.store(signal_number);
  g_requested.store(true);
  // The next one is not caught: a second Ctrl-C ends a run that does not stop soon enough.
  std::signal(signal_number, SIG_DFL);
}

}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
}

std::atomic<bool>& interrupt_requested() { return g_requested; }

int interrupt_exit_code() { return g_signal.load() == SIGTERM ? kExitTerminated : kExitInterrupted; }

void stop_if_interrupted() {
  if (g_requested.load())
    throw JobFailure(static_cast<ExitCode>(interrupt_exit_code()), "interrupted; no output was written");
}

}  // namespace kinetic::app::headless
