#pragma once
// Ctrl-C (SIGINT), SIGTERM and the other signals that end a process by default (SIGHUP, SIGQUIT,
// SIGUSR1, SIGUSR2, SIGXCPU, SIGXFSZ) during a headless run: the first one asks the run to stop at
// the next safe point (the planner polls the flag; rendering checks it between frames). Whatever
// the run is doing then (reading a file, a long IK search), it ends within kStopGrace: every
// output temporary and folder it made is removed (output_set.hpp) and the process exits with
// 128 + the signal's number. A second signal of the same kind ends the process at once.
#include <atomic>
#include <chrono>
#include <mutex>

namespace kinetic::app::headless {

// How long a run may take to stop on its own before it is ended (its temporaries removed).
inline constexpr std::chrono::milliseconds kStopGrace{300};

// Installs the handlers and the thread that ends a run which does not stop (idempotent).
void install_interrupt_handlers();

// Set by the handlers (and by tests); the planner's cancel flag.
std::atomic<bool>& interrupt_requested();

// The exit code of an interrupted run: 128 + the signal's number (130 for Ctrl-C, 143 for SIGTERM).
int interrupt_exit_code();

// "interrupted" for Ctrl-C, "terminated (SIGTERM)", "stopped by SIGHUP", ...
const char* interrupt_description();

// Throws JobFailure with interrupt_exit_code() once an interrupt was requested.
void stop_if_interrupted();

// Held while output files are claimed, moved into place or removed, so the run is never ended
// half way through; the ending thread holds it while it removes what is left.
std::recursive_mutex& output_files_mutex();

}  // namespace kinetic::app::headless
