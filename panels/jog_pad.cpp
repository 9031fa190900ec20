#include "panels/jog_pad.hpp"

#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>
#include <algorithm>

namespace kinetic::panels {

namespace {
const char* const kAxisNames[JogPad::kAxisCount] = {"X", "Y", "Z", "Rx", "Ry", "Rz"};
}  // namespace

JogPad::JogPad(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  pages_ = new QStackedWidget(this);
  layout->addWidget(pages_);

  // Cartesian: one row per axis, "−X" on the left and "+X" on the right.
  auto* cartesian = new QWidget(pages_);
  auto* grid = new QGridLayout(cartesian);
  grid->setContentsMargins(0, 0, 0, 0);
  for (int axis = 0; axis < kAxisCount; ++axis) {
    const QString name = QString::fromLatin1(kAxisNames[axis]);
    const bool linear = axis < 3;
    const QString what = linear ? tr("Move the TCP along %1 while held").arg(name.toLower())
                                : tr("Turn the TCP about %1 while held").arg(name.mid(1).toLower());
    axis_buttons_[axis] = make_pair(cartesian, JogMode::Cartesian, axis, name, what);
    grid->addWidget(axis_buttons_[axis].minus, axis, 0);
    grid->addWidget(axis_buttons_[axis].plus, axis, 1);
  }
  pages_->addWidget(cartesian);

  // Joints: filled by set_joint_names().
  joint_page_ = new QWidget(pages_);
  joint_grid_ = new QGridLayout(joint_page_);
  joint_grid_->setContentsMargins(0, 0, 0, 0);
  pages_->addWidget(joint_page_);
}

JogPad::ButtonPair JogPad::make_pair(QWidget* parent, JogMode mode, int index, const QString& name,
                                     const QString& what) {
  ButtonPair pair;
  for (const int direction : {-1, +1}) {
    auto* button =
        new QPushButton((direction < 0 ? QStringLiteral("−") : QStringLiteral("+")) + name, parent);
    button->setToolTip(
        tr("%1, in the %2 direction").arg(what, direction < 0 ? tr("negative") : tr("positive")));
    button->setAutoRepeat(false);  // held, not repeated: the owner keeps the command alive
    button->setFocusPolicy(Qt::NoFocus);
    connect(button, &QPushButton::pressed, this,
            [this, mode, index, direction] { emit pressed(mode, index, direction); });
    connect(button, &QPushButton::released, this, &JogPad::released);
    (direction < 0 ? pair.minus : pair.plus) = button;
  }
  return pair;
}

void JogPad::set_mode(JogMode mode) {
  mode_ = mode;
  pages_->setCurrentIndex(mode == JogMode::Cartesian ? 0 : 1);
}

void JogPad::set_joint_names(const QStringList& names) {
  // A button deleted while held never reports its release: report it here.
  bool held = false;
  for (const ButtonPair& pair : joint_buttons_)
    held = held || pair.minus->isDown() || pair.plus->isDown();
  if (held) emit released();
  while (QLayoutItem* item = joint_grid_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  joint_buttons_.clear();
  joint_labels_.clear();
  for (int joint = 0; joint < names.size(); ++joint) {
    auto* label = new QLabel(names[joint], joint_page_);
    joint_grid_->addWidget(label, joint, 0);
    joint_labels_.push_back(label);
    ButtonPair pair =
        make_pair(joint_page_, JogMode::Joint, joint, QString(),
                  tr("Turn (or slide) joint '%1' alone while held").arg(names[joint]));
    joint_grid_->addWidget(pair.minus, joint, 1);
    joint_grid_->addWidget(pair.plus, joint, 2);
    joint_buttons_.push_back(pair);
  }
  joint_grid_->setColumnStretch(0, 1);
  set_key_joint(joint_count() == 0 ? 0 : std::clamp(key_joint_, 0, joint_count() - 1));
}

void JogPad::show_key_held(JogMode mode, int index, int direction, bool held) {
  QPushButton* button =
      mode == JogMode::Cartesian ? axis_button(index, direction) : joint_button(index, direction);
  if (button) button->setDown(held);
}

QString JogPad::joint_name(int joint) const {
  if (joint < 0 || joint >= static_cast<int>(joint_labels_.size())) return {};
  return joint_labels_[static_cast<std::size_t>(joint)]->text();
}

void JogPad::set_key_joint(int joint) {
  key_joint_ = joint;
  for (int i = 0; i < static_cast<int>(joint_labels_.size()); ++i) {
    QFont font = joint_labels_[static_cast<std::size_t>(i)]->font();
    font.setBold(i == joint);
    joint_labels_[static_cast<std::size_t>(i)]->setFont(font);
  }
}

QPushButton* JogPad::axis_button(int axis, int direction) const {
  if (axis < 0 || axis >= kAxisCount) return nullptr;
  return direction < 0 ? axis_buttons_[axis].minus : axis_buttons_[axis].plus;
}

QPushButton* JogPad::joint_button(int joint, int direction) const {
  if (joint < 0 || joint >= joint_count()) return nullptr;
  return direction < 0 ? joint_buttons_[static_cast<std::size_t>(joint)].minus
                       : joint_buttons_[static_cast<std::size_t>(joint)].plus;
}

}  // namespace kinetic::panels
