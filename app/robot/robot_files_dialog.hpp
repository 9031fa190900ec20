#pragma once
// File → Open URDF with SRDF / kinetic.toml…: the URDF, and its SRDF and kinetic.toml filled in
// with what find_robot_companions finds for it (how, in each field's tooltip). The user may change
// or clear them; a field left empty opens the URDF without that file.
#include <QDialog>
#include <QString>
#include <optional>

class QLineEdit;
class QSettings;

namespace kinetic::app {

class RobotFilesDialog : public QDialog {
 public:
  explicit RobotFilesDialog(const QString& urdf, QWidget* parent = nullptr);

  QString urdf() const;
  QString srdf() const;    // "" for none
  QString config() const;  // "" for none

  QLineEdit* urdf_edit() const { return urdf_; }
  QLineEdit* srdf_edit() const { return srdf_; }
  QLineEdit* config_edit() const { return config_; }

 private:
  // A new URDF replaces the guesses for the old one, never what the user typed.
  void guess_companions();

  QLineEdit* urdf_ = nullptr;
  QLineEdit* srdf_ = nullptr;
  QLineEdit* config_ = nullptr;
  QString guessed_srdf_, guessed_config_;
};

// URDF with optional SRDF and kinetic.toml ("" for none).
struct RobotFiles {
  QString urdf, srdf, config;
  bool moveit_config = false;  // urdf names a MoveIt config package: srdf and config unused
};

// The whole File → Open URDF… question: the URDF chosen first (in the folder robots were last
// opened from, remembered in `settings`), then the dialog with what was found for it. A MoveIt
// config package needs no dialog. std::nullopt: cancelled.
std::optional<RobotFiles> ask_robot_files(QWidget* parent, QSettings& settings);

}  // namespace kinetic::app
