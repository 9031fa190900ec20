#include "app/robot_loading/robot_package_scan.hpp"

#include <QMetaObject>
#include <QPointer>

#include "app/interaction/latest_job_runner.hpp"

namespace kinetic::app {

RobotPackageScan::RobotPackageScan(QObject* parent) : QObject(parent), runner_(std::make_unique<LatestJobRunner>()) {}

RobotPackageScan::~RobotPackageScan() = default;

void RobotPackageScan::start(const QStringList& package_paths, Done done) {
  std::vector<std::string> locations;
  for (const QString& path : package_paths) locations.push_back(path.toStdString());
  for (const std::string& location : installed_package_locations()) locations.push_back(location);
  const quint64 sequence = ++latest_;
  runner_->post([this, locations, sequence, done = std::move(done)] {
    std::vector<RobotPackageEntry> found = find_robot_packages(locations);
    // Back on the GUI thread; dropped there when a newer scan started meanwhile. The runner is
    // joined before this object goes, so `this` outlives the job; the event dies with it.
    QMetaObject::invokeMethod(
        this,
        [this, sequence, done, found = std::move(found)] {
          if (sequence == latest_ && done) done(found);
        },
        Qt::QueuedConnection);
  });
}

}  // namespace kinetic::app
