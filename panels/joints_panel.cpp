#include "panels/joints_panel.hpp"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSlider>
#include <QVBoxLayout>
#include <cmath>
#include <numbers>

namespace kinetic::panels {

namespace {
constexpr int kSliderSteps = 10000;  // slider resolution over the joint range
}

JointsPanel::JointsPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  degrees_ = new QCheckBox(tr("Degrees"), this);
  degrees_->setChecked(true);
  connect(degrees_, &QCheckBox::toggled, this, [this] { rebuild_rows(); });
  layout->addWidget(degrees_);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  rows_widget_ = new QWidget(scroll);
  rows_layout_ = new QVBoxLayout(rows_widget_);
  rows_layout_->addStretch();
  scroll->setWidget(rows_widget_);
  layout->addWidget(scroll);
}

bool JointsPanel::uses_degrees() const { return degrees_->isChecked(); }
void JointsPanel::set_uses_degrees(bool degrees) { degrees_->setChecked(degrees); }

void JointsPanel::set_robot(RobotModelPtr robot) {
  robot_ = std::move(robot);
  values_ = robot_ ? robot_->zero_configuration() : JointVector();
  rebuild_rows();
}

void JointsPanel::set_values(const JointVector& q) {
  if (!robot_ || q.size() != robot_->dof()) return;
  values_ = q;
  for (int i = 0; i < static_cast<int>(rows_.size()); ++i) refresh_row(i);
}

double JointsPanel::to_shown(const Row& row, double value) const {
  return row.angular && uses_degrees() ? value * 180.0 / std::numbers::pi : value;
}
double JointsPanel::from_shown(const Row& row, double shown) const {
  return row.angular && uses_degrees() ? shown * std::numbers::pi / 180.0 : shown;
}

void JointsPanel::rebuild_rows() {
  for (auto& row : rows_) {
    delete row.slider->parentWidget();
  }
  rows_.clear();
  if (!robot_) return;
  const JointVector lower = robot_->lower_limits();
  const JointVector upper = robot_->upper_limits();
  for (int v = 0; v < robot_->dof(); ++v) {
    const Joint& joint = robot_->variable_joint(v);
    Row row;
    row.lower = lower[v];
    row.upper = upper[v];
    row.angular = joint.type != JointType::Prismatic;
    auto* box = new QWidget(rows_widget_);
    auto* grid = new QGridLayout(box);
    grid->setContentsMargins(0, 2, 0, 2);
    grid->addWidget(new QLabel(QString::fromStdString(joint.name), box), 0, 0);
    row.spin = new QDoubleSpinBox(box);
    row.spin->setDecimals(row.angular && uses_degrees() ? 2 : 4);
    row.spin->setRange(to_shown(row, row.lower), to_shown(row, row.upper));
    row.spin->setSingleStep(row.angular && uses_degrees() ? 1.0 : 0.01);
    row.spin->setSuffix(row.angular ? (uses_degrees() ? QStringLiteral("°") : QStringLiteral(" rad"))
                                    : QStringLiteral(" m"));
    row.spin->setWrapping(joint.type == JointType::Continuous);
    grid->addWidget(row.spin, 0, 1);
    row.slider = new QSlider(Qt::Horizontal, box);
    row.slider->setRange(0, kSliderSteps);
    grid->addWidget(row.slider, 1, 0, 1, 2);
    row.limits = new QLabel(box);
    row.limits->setText(tr("%1 … %2")
                            .arg(to_shown(row, row.lower), 0, 'f', 1)
                            .arg(to_shown(row, row.upper), 0, 'f', 1));
    row.limits->setEnabled(false);
    grid->addWidget(row.limits, 2, 0, 1, 2);
    rows_layout_->insertWidget(rows_layout_->count() - 1, box);
    connect(row.slider, &QSlider::valueChanged, this, [this, v](int p) { on_slider(v, p); });
    connect(row.spin, &QDoubleSpinBox::valueChanged, this, [this, v](double s) { on_spin(v, s); });
    rows_.push_back(row);
    refresh_row(v);
  }
}

void JointsPanel::refresh_row(int variable) {
  Row& row = rows_[variable];
  const double value = values_[variable];
  const QSignalBlocker block_slider(row.slider);
  const QSignalBlocker block_spin(row.spin);
  const double span = row.upper - row.lower;
  row.slider->setValue(span > 0 ? static_cast<int>(std::lround((value - row.lower) / span * kSliderSteps)) : 0);
  row.spin->setValue(to_shown(row, value));
}

void JointsPanel::on_slider(int variable, int position) {
  const Row& row = rows_[variable];
  values_[variable] = row.lower + (row.upper - row.lower) * position / kSliderSteps;
  refresh_row(variable);
  emit valuesEdited(values_);
}

void JointsPanel::on_spin(int variable, double shown_value) {
  values_[variable] = from_shown(rows_[variable], shown_value);
  refresh_row(variable);
  emit valuesEdited(values_);
}

}  // namespace kinetic::panels
