#include "app/collision/collision_matrix_job.hpp"

#include <optional>

#include "engine/core/error.hpp"

namespace kinetic::app {

CollisionMatrixJob::CollisionMatrixJob(QObject* parent)
    : QObject(parent), worker_(QStringLiteral("collision matrix")) {}

CollisionMatrixJob::~CollisionMatrixJob() = default;

void CollisionMatrixJob::cancel() {
  worker_.cancel();
}

void CollisionMatrixJob::start(RobotModelPtr robot, int samples) {
  if (running() || !robot) return;
  robot_ = robot;
  worker_.submit(
      [this, robot, samples](const NewestWinsWorker::Job& job) {
        AcmGeneratorOptions options;
        options.samples = samples;
        options.progress = [this, &job](int done, int total) {
          job.report([this, done, total] { emit progress(done, total); });
          return !job.cancelled();
        };
        try {
          return std::optional(generate_allowed_collisions(robot, options));
        } catch (const Error& error) {
          if (error.code() == ErrorCode::Cancelled) return std::optional<AcmGeneratorResult>();
          throw;
        }
      },
      [this](std::optional<AcmGeneratorResult> result) {
        if (!result) {
          emit finished(false, tr("cancelled"));
          return;
        }
        result_ = std::move(*result);
        emit finished(true, {});
      },
      [this](const QString& error) { emit finished(false, error); });
}

QString describe_collision_matrix(const AcmGeneratorResult& result) {
  int counts[4] = {0, 0, 0, 0};
  for (const auto& pair : result.disabled) ++counts[static_cast<int>(pair.reason)];
  return CollisionMatrixJob::tr(
             "%1 link pairs skipped (%2 adjacent, %3 in collision at the default pose, "
             "%4 always in collision, %5 never in collision over %6 random configurations); "
             "%7 pairs stay checked")
      .arg(result.disabled.size())
      .arg(counts[static_cast<int>(DisableReason::Adjacent)])
      .arg(counts[static_cast<int>(DisableReason::Default)])
      .arg(counts[static_cast<int>(DisableReason::Always)])
      .arg(counts[static_cast<int>(DisableReason::Never)])
      .arg(result.samples)
      .arg(result.enabled.size());
}

}  // namespace kinetic::app
