#include "panels/stored_states_panel.hpp"

#include <QFontMetrics>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>
#include <numbers>

namespace kinetic::panels {

namespace {
// Rows the list shows before it scrolls: the joint sliders above keep most of the height.
constexpr int kVisibleRows = 4;
}  // namespace

StoredStatesPanel::StoredStatesPanel(QWidget* parent) : QGroupBox(tr("Stored states"), parent) {
  auto* layout = new QVBoxLayout(this);
  auto* store_row = new QHBoxLayout;
  name_ = new QLineEdit(this);
  name_->setToolTip(
      tr("Name for the current joints; left empty, the name shown greyed is used. "
         "Storing under a name in use replaces that state, after asking."));
  name_->setClearButtonEnabled(true);
  store_row->addWidget(name_, 1);
  store_ = new QPushButton(tr("Store"), this);
  store_->setToolTip(tr("Keep the current joints under this name"));
  store_row->addWidget(store_);
  layout->addLayout(store_row);

  list_ = new QListWidget(this);
  list_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  list_->setToolTip(tr("Your stored states; double-click to rename"));
  list_->setMaximumHeight(list_->fontMetrics().height() * kVisibleRows + 2 * list_->frameWidth() +
                          4);
  layout->addWidget(list_);

  auto* buttons = new QHBoxLayout;
  const auto add_button = [&](const QString& text, const QString& tip) {
    auto* button = new QPushButton(text, this);
    button->setToolTip(tip);
    buttons->addWidget(button);
    return button;
  };
  apply_ = add_button(tr("Apply"), tr("Move the robot to the selected state"));
  goal_ = add_button(tr("As goal"), tr("Make the selected state the planning goal"));
  rename_ = add_button(tr("Rename"), tr("Rename the selected state"));
  delete_ = add_button(tr("Delete"), tr("Delete the selected state (Undo brings it back)"));
  layout->addLayout(buttons);

  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->hide();
  layout->addWidget(message_);

  connect(store_, &QPushButton::clicked, this, [this] { store(); });
  connect(name_, &QLineEdit::returnPressed, this, [this] { store(); });
  connect(apply_, &QPushButton::clicked, this, [this] { apply(selected_name()); });
  connect(goal_, &QPushButton::clicked, this, [this] { set_as_goal(selected_name()); });
  connect(rename_, &QPushButton::clicked, this, [this] {
    if (QListWidgetItem* item = list_->currentItem()) list_->editItem(item);
  });
  connect(delete_, &QPushButton::clicked, this, [this] { remove(selected_name()); });
  connect(list_, &QListWidget::itemChanged, this, &StoredStatesPanel::on_item_changed);
  connect(list_, &QListWidget::currentRowChanged, this, [this] { refresh_buttons(); });
  refresh_list();
}

// A name being typed is committed when its editor loses the focus, which closing the window
// causes while this panel is half destroyed: the list's signals must not reach it then.
StoredStatesPanel::~StoredStatesPanel() {
  list_->blockSignals(true);
}

void StoredStatesPanel::set_robot(RobotModelPtr robot) {
  robot_ = std::move(robot);
  show_message({}, false);
  refresh_list();
}

void StoredStatesPanel::set_states(const std::vector<StoredState>& states) {
  states_ = states;
  refresh_list();
}

QString StoredStatesPanel::selected_name() const {
  const int row = list_->currentRow();
  return row >= 0 && row < static_cast<int>(states_.size())
             ? states_[static_cast<std::size_t>(row)].name
             : QString();
}

void StoredStatesPanel::select(const QString& name) {
  list_->setCurrentRow(find_stored_state(states_, name));
}

void StoredStatesPanel::refresh_list() {
  // Items are updated in place, not rebuilt: a rename arrives while the edited item is still in
  // use.
  const QString keep =
      find_stored_state(states_, wanted_selection_) >= 0 ? wanted_selection_ : selected_name();
  wanted_selection_.clear();
  updating_ = true;
  const int count = static_cast<int>(states_.size());
  while (list_->count() > count) delete list_->takeItem(list_->count() - 1);
  while (list_->count() < count) list_->addItem(new QListWidgetItem);
  for (int row = 0; row < count; ++row) {
    const StoredState& state = states_[static_cast<std::size_t>(row)];
    QListWidgetItem* item = list_->item(row);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    item->setText(state.name);
    const StoredStateFit fit = robot_ ? fit_stored_state(*robot_, state) : StoredStateFit{};
    const bool fits = !robot_ || fit.joints.has_value();
    QFont font = item->font();
    font.setItalic(!fits);
    item->setFont(font);
    item->setForeground(fits ? palette().text()
                             : palette().brush(QPalette::Disabled, QPalette::Text));
    QStringList tip;
    if (!fits) {
      tip << tr("Does not fit this robot: %1.").arg(stored_state_misfit(*robot_, fit));
    } else {
      for (const auto& [joint, value] : state.joints) {
        const bool prismatic =
            robot_ && robot_->find_joint(joint) >= 0 &&
            robot_->joints()[robot_->find_joint(joint)].type == JointType::Prismatic;
        tip << (prismatic ? tr("%1: %2 m").arg(QString::fromStdString(joint)).arg(value, 0, 'f', 4)
                          : tr("%1: %2°")
                                .arg(QString::fromStdString(joint))
                                .arg(value * 180.0 / std::numbers::pi, 0, 'f', 2));
      }
    }
    item->setToolTip(tip.join(QLatin1Char('\n')));
  }
  list_->setCurrentRow(find_stored_state(states_, keep));
  updating_ = false;
  name_->setPlaceholderText(default_name());
  refresh_buttons();
}

void StoredStatesPanel::refresh_buttons() {
  const bool selected = !selected_name().isEmpty();
  store_->setEnabled(robot_ != nullptr);
  name_->setEnabled(robot_ != nullptr);
  for (QPushButton* button : {apply_, goal_, rename_, delete_}) button->setEnabled(selected);
}

void StoredStatesPanel::show_message(const QString& message, bool error) {
  last_message_ = message;
  message_->setText(message);
  message_->setStyleSheet(error ? QStringLiteral("color: #c0392b") : QString());
  message_->setVisible(!message.isEmpty());
}

bool StoredStatesPanel::store(const QString& name) {
  if (!robot_ || !current_) {
    show_message(tr("Load a robot to store its joints."), true);
    return false;
  }
  QString wanted = name.trimmed();
  if (wanted.isEmpty()) wanted = name_->text().trimmed();
  if (wanted.isEmpty()) wanted = default_name();
  if (find_stored_state(states_, wanted) >= 0) {
    const ReplaceQuestion ask =
        replace_question_ ? replace_question_ : ask_replace_stored_state_with_message_box;
    if (!ask(this, wanted)) {
      show_message(
          tr("'%1' was kept; type another name to store the joints beside it.").arg(wanted), false);
      return false;
    }
  }
  const StoredState state = stored_state_of(*robot_, wanted, current_());
  wanted_selection_ = wanted;
  name_->clear();
  show_message({}, false);
  emit storeRequested(state);
  return true;
}

std::optional<JointVector> StoredStatesPanel::joints_of(const QString& name,
                                                        const QString& action) {
  const int index = find_stored_state(states_, name);
  if (!robot_ || index < 0) {
    show_message(robot_ ? tr("%1: there is no stored state named '%2'.").arg(action, name)
                        : tr("%1 '%2': no robot is loaded.").arg(action, name),
                 true);
    return std::nullopt;
  }
  const StoredStateFit fit = fit_stored_state(*robot_, states_[static_cast<std::size_t>(index)]);
  if (!fit.joints) {
    // Never half a state: the joints it does not give would keep values from elsewhere.
    show_message(tr("%1 '%2': %3. Store it again with this robot, or delete it.")
                     .arg(action, name, stored_state_misfit(*robot_, fit)),
                 true);
    return std::nullopt;
  }
  // A reloaded robot may have narrower limits than the one the state was stored with.
  const JointVector q = robot_->clamp_to_limits(*fit.joints);
  QStringList clamped;
  for (int v = 0; v < q.size(); ++v)
    if (q[v] != (*fit.joints)[v]) clamped << QString::fromStdString(robot_->variable_joint(v).name);
  show_message(clamped.isEmpty()
                   ? QString()
                   : tr("'%1' lies outside the limits of %2; it was clamped into them.")
                         .arg(name, clamped.join(QStringLiteral(", "))),
               false);
  return q;
}

bool StoredStatesPanel::apply(const QString& name) {
  const std::optional<JointVector> q = joints_of(name, tr("Cannot apply"));
  if (q) emit applyRequested(name, *q);
  return q.has_value();
}

bool StoredStatesPanel::set_as_goal(const QString& name) {
  const std::optional<JointVector> q = joints_of(name, tr("Cannot set as goal"));
  if (q) emit goalRequested(name, *q);
  return q.has_value();
}

bool StoredStatesPanel::rename(const QString& from, const QString& to) {
  const QString wanted = to.trimmed();
  if (find_stored_state(states_, from) < 0) {
    show_message(tr("There is no stored state named '%1'.").arg(from), true);
    return false;
  }
  if (wanted == from) return true;
  if (wanted.isEmpty()) {
    show_message(tr("A stored state needs a name; '%1' kept its own.").arg(from), true);
    return false;
  }
  if (find_stored_state(states_, wanted) >= 0) {
    show_message(tr("Another stored state is named '%1'; '%2' kept its name. Choose another name, "
                    "or delete that "
                    "state first.")
                     .arg(wanted, from),
                 true);
    return false;
  }
  wanted_selection_ = wanted;
  show_message({}, false);
  emit renameRequested(from, wanted);
  return true;
}

bool StoredStatesPanel::remove(const QString& name) {
  if (find_stored_state(states_, name) < 0) {
    show_message(tr("There is no stored state named '%1'.").arg(name), true);
    return false;
  }
  show_message({}, false);
  emit deleteRequested(name);
  return true;
}

void StoredStatesPanel::on_item_changed(QListWidgetItem* item) {
  if (updating_) return;
  const int row = list_->row(item);
  if (row < 0 || row >= static_cast<int>(states_.size())) return;
  const QString from = states_[static_cast<std::size_t>(row)].name;
  if (item->text() == from) return;
  // The list shows the states it was given: a refused name goes back to the state's own, and an
  // accepted one is shown once the owner's states come back.
  const QString typed = item->text();
  updating_ = true;
  item->setText(from);
  updating_ = false;
  rename(from, typed);
}

bool ask_replace_stored_state_with_message_box(QWidget* parent, const QString& name) {
  QMessageBox box(QMessageBox::Question, QObject::tr("Replace stored state"),
                  QObject::tr("A stored state named '%1' exists.").arg(name), QMessageBox::NoButton,
                  parent);
  box.setInformativeText(QObject::tr("Replace it with the current joints?"));
  QPushButton* replace = box.addButton(QObject::tr("Replace"), QMessageBox::AcceptRole);
  box.addButton(QMessageBox::Cancel);
  box.setDefaultButton(replace);
  box.exec();
  return box.clickedButton() == replace;
}

}  // namespace kinetic::panels
