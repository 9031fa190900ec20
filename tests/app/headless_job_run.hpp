#pragma once
// Running a headless job in-process for the tests: its exit code and what it printed; or only its
// planning part, for a look at every step's result.
#include <filesystem>
#include <sstream>
#include <string>

#include "app/headless/headless_runner.hpp"
#include "app/headless/job_execution.hpp"
#include "support/test_paths.hpp"

namespace kinetic::test {

inline bool mentions(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The example jobs of the source tree (examples/jobs).
inline std::filesystem::path examples_dir() {
  return std::filesystem::path(test_source_dir()) / ".." / "examples" / "jobs";
}

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

// Loads the robot and scene and plans every step (JobFailure / JobError as run_job would exit).
inline kinetic::app::headless::JobResult planned(const kinetic::app::headless::Job& job) {
  kinetic::app::headless::JobResult result;
  load_robot_and_scene(job, result);
  plan_steps(job, result);
  return result;
}

}  // namespace kinetic::test
