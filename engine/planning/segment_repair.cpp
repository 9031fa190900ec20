#include "engine/planning/segment_repair.hpp"

#include "engine/planning/sampling/geometric_planners.hpp"

namespace kinetic {

namespace {

// Re-plans the refused segments of `path` in levels[level]; pieces the gate still refuses are
// re-planned in the next, finer level. False when a segment stays refused.
bool repair(const std::vector<PlanningSpace*>& levels, std::size_t level, JointPath& path,
            const SegmentRefused& refused, const PlannerOptions& options, SearchClock& clock,
            RepairOutcome& outcome) {
  constexpr int kSeeds = 3;
  bool passed = true;
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    if (!refused(path[i], path[i + 1])) continue;
    if (level == 0) ++outcome.refused;
    bool repaired = false;
    for (std::size_t l = level; l < levels.size() && !repaired; ++l) {
      for (int attempt = 0; attempt < kSeeds && !repaired && !clock.expired(); ++attempt) {
        PlannerOptions sub = options;
        sub.seed = options.seed + 0x5bd1e995ULL * static_cast<unsigned>(attempt + 1);
        JointPath piece = plan_rrt_connect(*levels[l], path[i], {path[i + 1]}, sub, clock).path;
        if (piece.size() < 2) continue;
        // The piece's own refused segments go one level finer.
        RepairOutcome inner;
        if (!repair(levels, l + 1, piece, refused, options, clock, inner)) continue;
        // piece runs from path[i] to path[i + 1]: its interior goes between them.
        path.insert(path.begin() + static_cast<std::ptrdiff_t>(i) + 1, piece.begin() + 1,
                    piece.end() - 1);
        i += piece.size() - 2;
        repaired = true;
      }
    }
    if (repaired && level == 0) ++outcome.repaired;
    if (!repaired) passed = false;
  }
  return passed;
}

}  // namespace

RepairOutcome repair_refused_segments(const std::vector<PlanningSpace*>& levels, JointPath& path,
                                      const SegmentRefused& refused, const PlannerOptions& options,
                                      SearchClock& clock) {
  RepairOutcome outcome;
  outcome.passed = repair(levels, 0, path, refused, options, clock, outcome);
  return outcome;
}

}  // namespace kinetic
