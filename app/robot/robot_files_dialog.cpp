#include "app/robot/robot_files_dialog.hpp"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>

#include "engine/model/moveit_config_package.hpp"
#include "engine/model/robot_companions.hpp"
#include "panels/file_dialog_folders.hpp"

namespace kinetic::app {

RobotFilesDialog::RobotFilesDialog(const QString& urdf, QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Open robot"));
  auto* form = new QFormLayout(this);
  const auto file_row = [&](const QString& label, const QString& filter) {
    auto* edit = new QLineEdit(this);
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this, edit, label, filter] {
      const QString path =
          QFileDialog::getOpenFileName(this, label, QFileInfo(edit->text()).absolutePath(), filter);
      if (!path.isEmpty()) edit->setText(path);
    });
    auto* row = new QHBoxLayout;
    row->addWidget(edit, 1);
    row->addWidget(browse);
    form->addRow(label, row);
    return edit;
  };
  urdf_ = file_row(tr("URDF"), tr("Robot descriptions (*.urdf *.xacro);;All files (*)"));
  srdf_ =
      file_row(tr("SRDF (optional)"), tr("Semantic descriptions (*.srdf *.xacro);;All files (*)"));
  config_ =
      file_row(tr("kinetic.toml (optional)"), tr("Kinetic configuration (*.toml);;All files (*)"));
  for (QLineEdit* optional : {srdf_, config_}) optional->setPlaceholderText(tr("none"));
  connect(urdf_, &QLineEdit::textChanged, this, &RobotFilesDialog::guess_companions);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
  urdf_->setText(urdf);
}

QString RobotFilesDialog::urdf() const {
  return urdf_->text();
}
QString RobotFilesDialog::srdf() const {
  return srdf_->text().trimmed();
}
QString RobotFilesDialog::config() const {
  return config_->text().trimmed();
}

void RobotFilesDialog::guess_companions() {
  RobotCompanions found;
  if (QFileInfo(urdf_->text()).isFile()) found = find_robot_companions(urdf_->text().toStdString());
  const auto guess = [](QLineEdit* edit, QString& guessed, const CompanionFile& file) {
    const QString path = QString::fromStdString(file.path);
    if (edit->text().isEmpty() || edit->text() == guessed) {
      edit->setText(path);
      edit->setToolTip(file.found() ? tr("%1 (%2)").arg(QString::fromStdString(file.relative),
                                                        QString::fromStdString(file.how))
                                    : QString());
    }
    guessed = path;
  };
  guess(srdf_, guessed_srdf_, found.srdf);
  guess(config_, guessed_config_, found.toml);
}

std::optional<RobotFiles> ask_robot_files(QWidget* parent, QSettings& settings) {
  using panels::FileDialogKind;
  const QString first = QFileDialog::getOpenFileName(
      parent, QObject::tr("Open robot"),
      panels::last_dialog_folder(FileDialogKind::Robot, settings),
      QObject::tr("Robot descriptions and MoveIt configs (*.urdf *.xacro *.srdf "
                  ".setup_assistant package.xml);;All files (*)"));
  if (first.isEmpty()) return std::nullopt;
  panels::remember_dialog_folder(FileDialogKind::Robot, first, settings);
  // A MoveIt config package names its description, SRDF and YAML files itself.
  if (moveit_config_folder(first.toStdString())) return RobotFiles{first, {}, {}, true};
  RobotFilesDialog dialog(first, parent);
  if (dialog.exec() != QDialog::Accepted || dialog.urdf().isEmpty()) return std::nullopt;
  return RobotFiles{dialog.urdf(), dialog.srdf(), dialog.config()};
}

}  // namespace kinetic::app
