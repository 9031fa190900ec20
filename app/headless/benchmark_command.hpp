#pragma once
// `kinetic-studio --headless --benchmark DIR --robot URDF [--srdf ...] [--planner NAME] [--preset
// NAME] [--seed N] [--repeat N] [--timeout S] [--problems-per-scene N] [--output-dir DIR]`: every
// MoveIt scene + request pair of DIR planned in this one process (the robot and its meshes loaded
// once), written as benchmark.csv (a row per problem and run) and benchmark-summary.txt (per
// scene: solved / valid, median / mean / p95 planning time, median length), the summary also
// printed. Exit codes as a headless job's: 0 when every problem ran (solved or not), 2 for bad
// arguments or problem files, 4 when an output cannot be written, 130 / 143 when interrupted.
#include <ostream>

#include "app/command_line.hpp"

namespace kinetic::app::headless {

int run_benchmark_command(const CommandLine& line, std::ostream& out, std::ostream& err);

}  // namespace kinetic::app::headless
