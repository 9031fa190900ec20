#pragma once
// `kinetic-studio --headless`: runs a job (file or command-line flags) with no display and no
// window — plan every step, time, validate, export, render — printing a short summary to `out`
// and any failure to `err`. Returns the process exit code (ExitCode in job_execution.hpp).
#include <ostream>

#include "app/command_line.hpp"
#include "app/headless/job_file.hpp"

namespace kinetic::app::headless {

// The whole headless run for the parsed command line.
int run_headless(const CommandLine& line, std::ostream& out, std::ostream& err);

// The robot of the flags: --robot (a URDF or xacro file, with --srdf / --config, or a built-in
// name), --package-path and --xacro-arg; relative paths are relative to the working directory.
RobotSpec robot_from_flags(const CommandLine& line);

// A one-step job from the flags (--robot, --scene, --start, --goal-*, --export, --screenshot, ...);
// relative paths are relative to the working directory. Throws JobError naming the flag.
Job job_from_flags(const CommandLine& line);

// Runs a parsed job.
int run_job(const Job& job, std::ostream& out, std::ostream& err);

}  // namespace kinetic::app::headless
