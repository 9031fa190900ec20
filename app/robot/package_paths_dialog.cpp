#include "app/robot/package_paths_dialog.hpp"

#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QVBoxLayout>

namespace kinetic::app {

namespace {
const QString kKey = QStringLiteral("package_paths");
}

QStringList stored_package_paths(const QSettings& settings) {
  return settings.value(kKey).toStringList();
}
void store_package_paths(QSettings& settings, const QStringList& paths) {
  settings.setValue(kKey, paths);
}

PackagePathsDialog::PackagePathsDialog(const QStringList& paths, QWidget* parent)
    : QDialog(parent) {
  setWindowTitle(tr("Package search paths"));
  auto* layout = new QVBoxLayout(this);
  auto* note = new QLabel(
      tr("Folders searched for package://NAME/... meshes, in order, after the robot file's own "
         "folders and before ROS_PACKAGE_PATH. They apply to the next robot you load."),
      this);
  note->setWordWrap(true);
  layout->addWidget(note);
  list_ = new QListWidget(this);
  list_->addItems(paths);
  layout->addWidget(list_);
  auto* buttons = new QHBoxLayout;
  auto* add = new QPushButton(tr("Add…"), this);
  connect(add, &QPushButton::clicked, this, [this] {
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Add package search path"));
    QString error;
    if (!folder.isEmpty() && !add_path(folder, &error))
      QMessageBox::warning(this, windowTitle(), error);
  });
  buttons->addWidget(add);
  auto* remove = new QPushButton(tr("Remove"), this);
  connect(remove, &QPushButton::clicked, this, [this] { delete list_->currentItem(); });
  buttons->addWidget(remove);
  auto* up = new QPushButton(tr("Up"), this);
  connect(up, &QPushButton::clicked, this, [this] {
    const int row = list_->currentRow();
    if (row <= 0) return;
    list_->insertItem(row - 1, list_->takeItem(row));
    list_->setCurrentRow(row - 1);
  });
  buttons->addWidget(up);
  buttons->addStretch();
  layout->addLayout(buttons);
  auto* box = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(box, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(box, &QDialogButtonBox::rejected, this, &QDialog::reject);
  layout->addWidget(box);
}

QStringList PackagePathsDialog::paths() const {
  QStringList out;
  for (int i = 0; i < list_->count(); ++i) out << list_->item(i)->text();
  return out;
}

bool PackagePathsDialog::add_path(const QString& path, QString* error) {
  const QFileInfo info(path);
  if (!info.isDir()) {
    if (error) *error = tr("%1 is not a folder.").arg(path);
    return false;
  }
  const QString absolute = QDir::cleanPath(info.absoluteFilePath());
  if (!paths().contains(absolute)) list_->addItem(absolute);
  return true;
}

}  // namespace kinetic::app
