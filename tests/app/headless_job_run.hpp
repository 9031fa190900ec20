#pragma once
// Running a headless job in-process for the tests: its exit code and what it printed.
#include <filesystem>
#include <sstream>
#include <string>

#include "app/headless/headless_runner.hpp"
#include "app/headless/job_execution.hpp"

namespace kinetic::test {

struct HeadlessRun {
  int code = -1;
  std::string out, err;
};

// Parses `text` as a job file in `dir` and runs it (a JobError is exit 2, as in the binary).
inline HeadlessRun run_job_text(const std::string& text, const std::filesystem::path& dir) {
  using namespace kinetic::app::headless;
  HeadlessRun run;
  std::ostringstream out, err;
  try {
    run.code = run_job(parse_job(text, "job.json", dir), out, err);
  } catch (const JobError& error) {
    run.code = kExitBadJob;
    err << error.what();
  }
  run.out = out.str();
  run.err = err.str();
  return run;
}

}  // namespace kinetic::test
