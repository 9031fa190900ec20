#include "app/headless/robot_files.hpp"

#include "engine/model/moveit_config_package.hpp"

namespace kinetic::app::headless {

namespace {

// The job's setting for a file: "--srdf" for a run from flags, "\"srdf\"" in a job file.
std::string setting(const Job& job, const std::string& flag, const std::string& key) {
  return job.source.empty() ? flag : "\"" + key + "\"";
}

}  // namespace

RobotFiles robot_files(const Job& job) {
  RobotFiles files;
  const RobotSpec& robot = job.robot;
  // A MoveIt config package names its own files: the robot's source notes say which.
  if (robot.urdf.empty() || moveit_config_folder(robot.urdf.string())) return files;
  if (!robot.srdf || !robot.config) files.found = find_robot_companions(robot.urdf.string());
  if (robot.srdf) files.found.srdf = {};  // named: not searched for
  if (robot.config) files.found.toml = {};
  files.srdf = robot.srdf ? *robot.srdf : std::filesystem::path(files.found.srdf.path);
  files.config = robot.config ? *robot.config : std::filesystem::path(files.found.toml.path);
  const std::string no_srdf = ", as no " + setting(job, "--srdf", "srdf") + " was given";
  const std::string no_config = ", as no " + setting(job, "--config", "config") + " was given";
  if (!robot.srdf)
    files.summary.push_back("srdf: " +
                            (files.found.srdf.found()
                                 ? files.found.srdf.relative + ", " + files.found.srdf.how
                                 : std::string("none found")) +
                            no_srdf);
  // A URDF without a kinetic.toml is the usual case: said only when one came with it.
  if (files.found.toml.found())
    files.summary.push_back("kinetic.toml: " + files.found.toml.relative + ", " +
                            files.found.toml.how + no_config);
  return files;
}

std::string found_files_hint(const RobotFiles& files, const Job& job) {
  std::string found, without;
  if (files.found.srdf.found()) {
    found = "SRDF " + files.found.srdf.relative;
    without = job.source.empty() ? "--srdf none" : "\"srdf\": \"\"";
  }
  if (files.found.toml.found()) {
    found +=
        (found.empty() ? "" : " and ") + std::string("kinetic.toml ") + files.found.toml.relative;
    without += (without.empty() ? "" : " / ") +
               std::string(job.source.empty() ? "--config none" : "\"config\": \"\"");
  }
  if (found.empty()) return {};
  return " (loaded with the " + found + " found for the URDF; " + without + " loads without it)";
}

}  // namespace kinetic::app::headless
