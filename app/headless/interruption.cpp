#include "app/headless/interruption.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>

#include "app/headless/job_execution.hpp"
#include "app/headless/output_set.hpp"

namespace kinetic::app::headless {

namespace {

std::atomic<bool> g_requested{false};
std::atomic<int> g_signal{SIGINT};
int g_wake[2] = {-1, -1};  // the handler's byte wakes the thread that ends a run

constexpr std::array kStopSignals = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                                     SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ};

extern "C" void on_interrupt(int signal_number) {
  const int saved_errno = errno;
  g_signal.store(signal_number);
  g_requested.store(true);
  const char byte = 1;
  if (g_wake[1] >= 0) (void)!::write(g_wake[1], &byte, 1);
  errno = saved_errno;
}

// Waits for a signal, gives the run kStopGrace to stop by itself, then removes what it staged
// and ends the process. (A run that stops in time exits first and this thread with it.)
void end_runs_that_do_not_stop() {
  char byte = 0;
  while (::read(g_wake[0], &byte, 1) < 0 && errno == EINTR) {
  }
  std::this_thread::sleep_for(kStopGrace);
  std::unique_lock lock(output_files_mutex());
  if (!discard_uncommitted_output_sets())
    return;  // the outputs were committed: the run is finishing
  std::cerr << "kinetic-studio --headless: " << interrupt_description() << "; no output was written"
            << std::endl;
  std::_Exit(interrupt_exit_code());
}

}  // namespace

void install_interrupt_handlers() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    if (::pipe2(g_wake, O_CLOEXEC) == 0) std::thread(end_runs_that_do_not_stop).detach();
    struct sigaction action {};
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    // The next one is not caught: a second Ctrl-C ends a run at once.
    action.sa_flags = SA_RESETHAND | SA_RESTART;
    for (const int signal_number : kStopSignals) ::sigaction(signal_number, &action, nullptr);
  });
}

std::atomic<bool>& interrupt_requested() {
  return g_requested;
}

int interrupt_exit_code() {
  return 128 + g_signal.load();
}

const char* interrupt_description() {
  switch (g_signal.load()) {
    case SIGINT:
      return "interrupted";
    case SIGTERM:
      return "terminated (SIGTERM)";
    case SIGHUP:
      return "stopped by SIGHUP";
    case SIGQUIT:
      return "stopped by SIGQUIT";
    case SIGUSR1:
      return "stopped by SIGUSR1";
    case SIGUSR2:
      return "stopped by SIGUSR2";
    case SIGXCPU:
      return "stopped by SIGXCPU (CPU time limit)";
    case SIGXFSZ:
      return "stopped by SIGXFSZ (file size limit)";
    default:
      return "interrupted";
  }
}

void stop_if_interrupted() {
  if (g_requested.load())
    throw JobFailure(static_cast<ExitCode>(interrupt_exit_code()),
                     std::string(interrupt_description()) + "; no output was written");
}

std::recursive_mutex& output_files_mutex() {
  static auto* mutex = new std::recursive_mutex;  // never destroyed: see live_sets()
  return *mutex;
}

}  // namespace kinetic::app::headless
