#pragma once
// The summary a headless run prints on stdout, line by line as the run gets there: which robot
// files were found, where it started, then one line per step as each is planned. A run that fails
// part way has said everything up to the failure (a later step's error no longer hides the start
// and the steps that succeeded), and a long job shows its progress.
#include <cstddef>
#include <ostream>

#include "app/headless/job_execution.hpp"
#include "app/headless/job_file.hpp"

namespace kinetic::app::headless {

class RunSummary {
 public:
  // `out`: the summary (flushed after every line); `err`: the planner's notes on each step.
  RunSummary(const Job& job, std::ostream& out, std::ostream& err);

  // Prints what `result` holds that was not printed yet: the robot files and start lines once
  // they are known, and every step finished since the last call.
  void print_new(const JobResult& result);

 private:
  const Job& job_;
  std::ostream& out_;
  std::ostream& err_;
  bool robot_files_printed_ = false;
  bool start_printed_ = false;
  std::size_t steps_printed_ = 0;
};

}  // namespace kinetic::app::headless
