#include "app/robot/robot_package_scan.hpp"

namespace kinetic::app {

RobotPackageScan::RobotPackageScan(QObject* parent)
    : QObject(parent),
      worker_(QStringLiteral("package scan"), NewestWinsWorker::Priority::Interface) {}

RobotPackageScan::~RobotPackageScan() = default;

void RobotPackageScan::start(const QStringList& package_paths, Done done) {
  std::vector<std::string> locations;
  for (const QString& path : package_paths) locations.push_back(path.toStdString());
  for (const std::string& location : installed_package_locations()) locations.push_back(location);
  worker_.submit([locations] { return find_robot_packages(locations); },
                 [done = std::move(done)](const std::vector<RobotPackageEntry>& found) {
                   if (done) done(found);
                 });
}

}  // namespace kinetic::app
