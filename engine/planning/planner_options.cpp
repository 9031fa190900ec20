#include "engine/planning/planner_options.hpp"

#include <cmath>

#include "engine/core/error.hpp"

namespace kinetic {

namespace {
struct NamedPlanner {
  PlannerType type;
  const char* name;
};
constexpr NamedPlanner kPlanners[] = {
    {PlannerType::RrtConnect, "rrt_connect"},
    {PlannerType::RrtStar, "rrt_star"},
    {PlannerType::BiTrrt, "bitrrt"},
    {PlannerType::Prm, "prm"},
    {PlannerType::Est, "est"},
    {PlannerType::Kpiece, "kpiece"},
};

void require(bool ok, const char* field, const std::string& rule) {
  if (!ok)
    throw Error(ErrorCode::InvalidValue, std::string("planner option '") + field + "' " + rule,
                "start from a preset (default_preset(), realtime_preset(), offline_preset())");
}
}  // namespace

const char* to_string(PlannerType type) {
  for (const auto& p : kPlanners)
    if (p.type == type) return p.name;
  return "unknown";
}

PlannerType planner_type_from_string(const std::string& name) {
  std::string names;
  for (const auto& p : kPlanners) {
    if (name == p.name) return p.type;
    names += names.empty() ? "" : ", ";
    names += p.name;
  }
  throw Error(ErrorCode::InvalidValue, "unknown planner '" + name + "'", "use one of: " + names);
}

const std::vector<PlannerType>& all_planner_types() {
  static const std::vector<PlannerType> types = [] {
    std::vector<PlannerType> all;
    for (const auto& p : kPlanners) all.push_back(p.type);
    return all;
  }();
  return types;
}

void PlannerOptions::validate() const {
  require(std::isfinite(timeout_ms) && timeout_ms > 0, "timeout_ms", "must be > 0");
  require(max_iterations > 0, "max_iterations", "must be > 0");
  require(std::isfinite(margin) && margin >= 0, "margin", "must be >= 0 (metres)");
  require(shortcut_passes >= 0, "shortcut_passes", "must be >= 0");
  require(smoothing_passes >= 0 && smoothing_passes <= 6, "smoothing_passes", "must be in [0, 6]");
  require(std::isfinite(resolution) && resolution > 0 && resolution <= 1.0, "resolution",
          "must be in (0, 1] rad");
  require(std::isfinite(range) && range >= 0, "range", "must be >= 0 (0 = automatic)");
  require(std::isfinite(rrt_star_refine_factor) && rrt_star_refine_factor >= 0,
          "rrt_star_refine_factor", "must be >= 0");
  require(prm_neighbors >= 1, "prm_neighbors", "must be >= 1");
  require(ik_attempts >= 1, "ik_attempts", "must be >= 1");
  if (workspace)
    for (int axis = 0; axis < 3; ++axis)
      require(std::isfinite(workspace->min[axis]) && std::isfinite(workspace->max[axis]) &&
                  workspace->min[axis] < workspace->max[axis],
              "workspace", "needs finite bounds with min < max on every axis (metres)");
}

PlannerOptions default_preset() {
  return PlannerOptions{};
}

PlannerOptions realtime_preset() {
  PlannerOptions o;
  o.timeout_ms = 10.0;
  o.max_iterations = 2000;
  o.margin = 0.01;
  o.shortcut_passes = 20;
  o.smoothing = false;
  return o;
}

PlannerOptions offline_preset() {
  PlannerOptions o;
  o.timeout_ms = 500.0;
  o.max_iterations = 100000;
  o.margin = 0.02;
  o.shortcut_passes = 500;
  o.smoothing = true;
  return o;
}

PlannerOptions preset(const std::string& name) {
  if (name == "default") return default_preset();
  if (name == "realtime") return realtime_preset();
  if (name == "offline") return offline_preset();
  throw Error(ErrorCode::InvalidValue, "unknown planner preset '" + name + "'",
              "use one of: default, realtime, offline");
}

}  // namespace kinetic
