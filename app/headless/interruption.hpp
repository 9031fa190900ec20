#pragma once
// Ctrl-C (SIGINT) and SIGTERM during a headless run: the first one asks the run to stop at the
// next safe point (the planner polls the flag; rendering checks it between frames) so that the
// job's outputs are discarded cleanly; a second one ends the process at once.
#include <atomic>

namespace kinetic::app::headless {

// Installs the handlers (idempotent).
void install_interrupt_handlers();

// Set by the handlers (and by tests); the planner's cancel flag.
std::atomic<bool>& interrupt_requested();

// The exit code of an interrupted run: 128 + the signal's number (130 for Ctrl-C).
int interrupt_exit_code();

// Throws JobFailure with interrupt_exit_code() once an interrupt was requested.
void stop_if_interrupted();

}  // namespace kinetic::app::headless
