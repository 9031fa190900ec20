#pragma once
// What can be known of a job's outputs before anything is planned, checked then, so a mistake
// there fails at once instead of after the planning (docs/headless-jobs.md: "Exit codes").
#include "app/headless/job_execution.hpp"
#include "app/headless/job_file.hpp"

namespace kinetic::app::headless {

// Every output's place, once the output folder exists: a file in the way of a folder it needs, or
// a folder where the output file goes: JobFailure(kExitWriteFailed) naming the output and the path.
void check_output_places(const Job& job);

// Exports the loaded robot cannot have (a URScript for an arm that is not a 6-joint UR):
// JobFailure(kExitBadJob) naming the export.
void check_exports_suit_the_robot(const Job& job, const JobResult& result);

}  // namespace kinetic::app::headless
