#pragma once
// What the studio knows about each trajectory's validity: the report of its last validation and
// the scene revision it was made in. A report is shown only under the very trajectory it checked
// (the same motion and scene changes, wherever the list has moved it) and only while the scene and
// the robot are the ones it checked against; otherwise the trajectory reads as not validated. Kept
// beside the document, not in its undo data: an undo that brings a trajectory back brings its
// report back with it as long as the scene is unchanged.
#include <QString>
#include <QtGlobal>
#include <vector>

#include "app/document/scene_change.hpp"
#include "engine/trajectory/trajectory.hpp"
#include "engine/trajectory/validation.hpp"

namespace kinetic::app {

enum class ValidationState {
  Valid,         // validated in the current scene: no violations
  Violations,    // validated in the current scene: violations
  Stale,         // validated, but the scene or the robot changed since
  NotValidated,  // never validated (imported, recorded, made before the studio kept reports)
};

struct ValidationStatus {
  ValidationState state = ValidationState::NotValidated;
  const TrajectoryValidationReport* report = nullptr;  // for Valid and Violations
};

class ValidationStatuses {
 public:
  // `revision` is the scene revision (bumped by every scene edit and robot change) the report was
  // made against; a report made before an edit that landed meanwhile is stale at once.
  void record(const Trajectory& trajectory, const std::vector<SceneChange>& scene_changes,
              const TrajectoryValidationReport& report, quint64 revision);
  ValidationStatus status(const Trajectory& trajectory,
                          const std::vector<SceneChange>& scene_changes, quint64 revision) const;
  // Forgets the reports of trajectories no longer in the list (deleted, replaced, re-timed in
  // place), but the newest few: an undo may bring theirs back.
  void keep_only(const std::vector<const Trajectory*>& listed);
  static constexpr std::size_t kUnlistedKept = 8;

 private:
  struct Record {
    Trajectory trajectory;
    std::vector<double> change_times;  // the scene changes' times: a motion with others is another
    TrajectoryValidationReport report;
    quint64 revision = 0;
  };
  const Record* find(const Trajectory& trajectory,
                     const std::vector<SceneChange>& scene_changes) const;
  std::vector<Record> records_;  // newest last
};

// The line shown instead of a report: "Not validated in the current scene — Validate" for a stale
// one, "Not validated — Validate" otherwise.
QString not_validated_text(ValidationState state);
// The list's mark for an item ("✓", "⚠" or "") and its tooltip line.
QString validation_mark(ValidationState state);
QString validation_mark_tip(const ValidationStatus& status);

}  // namespace kinetic::app
