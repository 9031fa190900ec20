#pragma once
// Settings → Package search paths: the folders searched for package://NAME/... when a robot is
// loaded (after the robot file's own folders, before ROS_PACKAGE_PATH). Stored in QSettings
// ("package_paths"); they apply to the next robot loads.
#include <QDialog>
#include <QStringList>

class QListWidget;
class QSettings;

namespace kinetic::app {

QStringList stored_package_paths(const QSettings& settings);
void store_package_paths(QSettings& settings, const QStringList& paths);

class PackagePathsDialog : public QDialog {
  Q_OBJECT
 public:
  explicit PackagePathsDialog(const QStringList& paths, QWidget* parent = nullptr);
  QStringList paths() const;
  // Adds a folder (ignoring duplicates); false with a reason when it is not a folder.
  bool add_path(const QString& path, QString* error = nullptr);

 private:
  QListWidget* list_ = nullptr;
};

}  // namespace kinetic::app
