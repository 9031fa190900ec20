#include "app/collision/collision_matrix_job.hpp"

#include <QMetaObject>
#include <QPointer>

#include "engine/core/error.hpp"

namespace kinetic::app {

CollisionMatrixJob::CollisionMatrixJob(QObject* parent) : QObject(parent) {}

CollisionMatrixJob::~CollisionMatrixJob() {
  *alive_ = false;
  cancel();
  join();
}

void CollisionMatrixJob::join() {
  if (worker_.joinable()) worker_.join();
}

void CollisionMatrixJob::cancel() { cancel_ = true; }

void CollisionMatrixJob::start(RobotModelPtr robot, int samples) {
  if (running() || !robot) return;
  join();  // the previous worker has finished; reap it
  robot_ = robot;
  cancel_ = false;
  done_ = false;
  QPointer<CollisionMatrixJob> self(this);
  const std::shared_ptr<std::atomic<bool>> alive = alive_;
  worker_ = std::thread([this, self, alive, robot, samples] {
    AcmGeneratorOptions options;
    options.samples = samples;
    options.progress = [&](int done, int total) {
      if (*alive)
        QMetaObject::invokeMethod(
            self, [self, done, total] { if (self) emit self->progress(done, total); }, Qt::QueuedConnection);
      return !cancel_.load();
    };
    auto result = std::make_shared<AcmGeneratorResult>();
    QString error;
    try {
      *result = generate_allowed_collisions(robot, options);
    } catch (const Error& e) {
      error = e.code() == ErrorCode::Cancelled ? tr("cancelled") : QString::fromStdString(e.what());
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    }
    if (!*alive) return;
    QMetaObject::invokeMethod(
        self,
        [self, result, error] {
          if (!self) return;
          if (error.isEmpty()) self->result_ = std::move(*result);
          self->done_ = true;
          emit self->finished(error.isEmpty(), error);
        },
        Qt::QueuedConnection);
  });
}

QString describe_collision_matrix(const AcmGeneratorResult& result) {
  int counts[4] = {0, 0, 0, 0};
  for (const auto& pair : result.disabled) ++counts[static_cast<int>(pair.reason)];
  return CollisionMatrixJob::tr("%1 link pairs skipped (%2 adjacent, %3 in collision at the default pose, "
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
