#include "app/headless/run_summary.hpp"

#include <iomanip>

#include "engine/core/duration_text.hpp"

namespace kinetic::app::headless {

RunSummary::RunSummary(const Job& job, std::ostream& out, std::ostream& err)
    : job_(job), out_(out), err_(err) {
  out_ << std::fixed;
}

void RunSummary::print_new(const JobResult& result) {
  if (!robot_files_printed_ && result.robot) {
    for (const std::string& line : result.robot_files) out_ << line << "\n";
    robot_files_printed_ = true;
  }
  if (!start_printed_ && result.rest) {
    out_ << "start: " << default_start_text(*result.rest, job_) << "\n";
    start_printed_ = true;
  }
  for (; steps_printed_ < result.steps.size(); ++steps_printed_) {
    const size_t i = steps_printed_;
    const StepResult& step = result.steps[i];
    // What the planner let pass but a user should know (a planning margin reduced): on stderr.
    for (const std::string& note : step.plan.notes)
      err_ << "warning: step \"" << step.name << "\": " << note << "\n";
    out_ << "step " << i + 1 << "/" << job_.steps.size() << " \"" << step.name << "\": ";
    if (!step.moves() || step.is_task()) {
      out_ << (step.is_task() ? step.task : step.scene_change) << "\n";
      continue;
    }
    out_ << step.plan.planner << ", " << duration_text(step.plan.planning_time_ms) << ", "
         << step.plan.path.size() << " waypoints, " << std::setprecision(2)
         << step.trajectory.duration() << " s (" << to_string(job_.steps[i].timing)
         << "), path length " << std::setprecision(3) << step.path_length << "\n";
  }
  out_.flush();
}

}  // namespace kinetic::app::headless
