#include "app/trajectories/validation_status.hpp"

#include <QCoreApplication>
#include <algorithm>

namespace kinetic::app {

namespace {

std::vector<double> times_of(const std::vector<SceneChange>& changes) {
  std::vector<double> times;
  for (const SceneChange& change : changes) times.push_back(change.time);
  return times;
}

QString tr(const char* text) {
  return QCoreApplication::translate("ValidationStatus", text);
}

}  // namespace

const ValidationStatuses::Record* ValidationStatuses::find(
    const Trajectory& trajectory, const std::vector<SceneChange>& scene_changes) const {
  const std::vector<double> times = times_of(scene_changes);
  for (auto it = records_.rbegin(); it != records_.rend(); ++it)
    if (it->change_times == times && it->trajectory == trajectory) return &*it;
  return nullptr;
}

void ValidationStatuses::record(const Trajectory& trajectory,
                                const std::vector<SceneChange>& scene_changes,
                                const TrajectoryValidationReport& report, quint64 revision) {
  const std::vector<double> times = times_of(scene_changes);
  std::erase_if(records_, [&](const Record& r) {
    return r.change_times == times && r.trajectory == trajectory;
  });
  records_.push_back({trajectory, times, report, revision});
}

ValidationStatus ValidationStatuses::status(const Trajectory& trajectory,
                                            const std::vector<SceneChange>& scene_changes,
                                            quint64 revision) const {
  const Record* r = find(trajectory, scene_changes);
  if (!r) return {};
  if (r->revision != revision) return {ValidationState::Stale, nullptr};
  return {r->report.ok() ? ValidationState::Valid : ValidationState::Violations, &r->report};
}

void ValidationStatuses::keep_only(const std::vector<const Trajectory*>& listed) {
  const auto is_listed = [&](const Record& r) {
    return std::any_of(listed.begin(), listed.end(),
                       [&](const Trajectory* t) { return *t == r.trajectory; });
  };
  std::size_t unlisted = 0;
  std::vector<Record> kept;
  for (auto it = records_.rbegin(); it != records_.rend(); ++it)
    if (is_listed(*it) || unlisted++ < kUnlistedKept) kept.push_back(std::move(*it));
  std::reverse(kept.begin(), kept.end());
  records_ = std::move(kept);
}

QString not_validated_text(ValidationState state) {
  return state == ValidationState::Stale ? tr("Not validated in the current scene — Validate")
                                         : tr("Not validated — Validate");
}

QString validation_mark(ValidationState state) {
  switch (state) {
    case ValidationState::Valid:
      return QStringLiteral("✓");
    case ValidationState::Violations:
      return QStringLiteral("⚠");
    case ValidationState::Stale:
    case ValidationState::NotValidated:
      break;
  }
  return {};
}

QString validation_mark_tip(const ValidationStatus& status) {
  switch (status.state) {
    case ValidationState::Valid:
      return tr("Validated in the current scene: no violations");
    case ValidationState::Violations:
      return tr("Validated in the current scene: %1 violation(s)")
          .arg(status.report ? status.report->violations.size() : 0);
    case ValidationState::Stale:
      return tr("Not validated in the current scene");
    case ValidationState::NotValidated:
      break;
  }
  return tr("Not validated");
}

}  // namespace kinetic::app
