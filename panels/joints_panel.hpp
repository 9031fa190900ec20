#pragma once
// Joints panel: one slider + spin box per active joint, limits shown, degrees or radians.
// It does not own the robot state: it shows what it is given and reports the user's edits.
#include <QWidget>
#include <vector>

#include "engine/model/robot_model.hpp"

class QDoubleSpinBox;
class QSlider;
class QLabel;
class QCheckBox;
class QVBoxLayout;

namespace kinetic::panels {

class JointsPanel : public QWidget {
  Q_OBJECT
 public:
  explicit JointsPanel(QWidget* parent = nullptr);

  void set_robot(RobotModelPtr robot);
  void set_values(const JointVector& q);  // does not emit valuesEdited
  const JointVector& values() const { return values_; }
  bool uses_degrees() const;
  void set_uses_degrees(bool degrees);

  // Test access: the editors of one variable.
  QSlider* slider(int variable) const { return rows_.at(variable).slider; }
  QDoubleSpinBox* spin_box(int variable) const { return rows_.at(variable).spin; }

 signals:
  void valuesEdited(const kinetic::JointVector& q);

 private:
  struct Row {
    QSlider* slider = nullptr;
    QDoubleSpinBox* spin = nullptr;
    QLabel* limits = nullptr;
    double lower = 0.0, upper = 0.0;
    bool angular = true;
  };
  void rebuild_rows();
  void refresh_row(int variable);
  void on_slider(int variable, int position);
  void on_spin(int variable, double shown_value);
  double to_shown(const Row& row, double value) const;
  double from_shown(const Row& row, double shown) const;

  RobotModelPtr robot_;
  JointVector values_;
  std::vector<Row> rows_;
  QVBoxLayout* rows_layout_ = nullptr;
  QWidget* rows_widget_ = nullptr;
  QCheckBox* degrees_ = nullptr;
  bool updating_ = false;
};

}  // namespace kinetic::panels
