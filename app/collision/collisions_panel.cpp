#include "app/collision/collisions_panel.hpp"

#include <QAction>
#include <QFont>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QVBoxLayout>

#include "app/collision/collision_monitor.hpp"
#include "app/document/studio_document.hpp"

namespace kinetic::app {

namespace {

QString self_pair_reason() {
  return QObject::tr(
      "Both are links of the robot: pairs of links that touch in every pose belong to the "
      "robot's collision matrix (Tools → Generate collision matrix), not to the scene.");
}

}  // namespace

CollisionsPanel::CollisionsPanel(StudioDocument& document, CollisionMonitor& monitor,
                                 QWidget* parent)
    : QWidget(parent), document_(document), monitor_(monitor) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  list_ = new QListWidget(this);
  list_->setContextMenuPolicy(Qt::CustomContextMenu);
  layout->addWidget(list_, 1);
  allow_action_ = new QAction(tr("Allow contact"), this);
  allow_action_->setToolTip(
      tr("The contact is intended (a table under the base, a fixture): never check this "
         "pair in this scene (one undo step)"));
  connect(allow_action_, &QAction::triggered, this, [this] { allow_selected(); });
  allow_button_ = new QPushButton(allow_action_->text(), this);
  connect(allow_button_, &QPushButton::clicked, allow_action_, &QAction::trigger);
  layout->addWidget(allow_button_, 0, Qt::AlignLeft);

  connect(list_, &QListWidget::currentItemChanged, this, &CollisionsPanel::update_allow_enabled);
  connect(list_, &QListWidget::customContextMenuRequested, this, [this](const QPoint& at) {
    QListWidgetItem* item = list_->itemAt(at);
    if (!item || !item->data(kPairRole).isValid()) return;
    QMenu* menu = context_menu_for(item);
    menu->exec(list_->viewport()->mapToGlobal(at));
    delete menu;
  });
  connect(&monitor_, &CollisionMonitor::reportChanged, this, &CollisionsPanel::refresh);
  refresh();
}

void CollisionsPanel::refresh() {
  // A new report (every joint or goal change) keeps the selected pair selected, if it is still
  // there.
  const QVariant selected_pair =
      list_->currentItem() ? list_->currentItem()->data(kPairRole) : QVariant();
  list_->clear();
  const std::vector<CollisionPairRow> rows = monitor_.pair_rows();
  if (rows.empty()) list_->addItem(monitor_.summary());
  for (const CollisionPairRow& row : rows) {
    auto* item = new QListWidgetItem(row.text, list_);
    item->setData(kPairRole, QStringList{row.body_a, row.body_b});
    item->setData(kSelfPairRole, row.self);
    if (row.self) item->setToolTip(self_pair_reason());
    if (selected_pair.isValid() && !list_->currentItem() && item->data(kPairRole) == selected_pair)
      list_->setCurrentItem(item);
  }
  if (const QString hint = monitor_.self_collision_hint(); !hint.isEmpty()) {
    auto* item = new QListWidgetItem(hint, list_);
    item->setFlags(Qt::ItemIsEnabled);  // advice, not a pair to select
    QFont font = item->font();
    font.setItalic(true);
    item->setFont(font);
  }
  update_allow_enabled();
}

void CollisionsPanel::update_allow_enabled() {
  const QListWidgetItem* item = list_->currentItem();
  const bool pair = item && item->data(kPairRole).isValid();
  const bool self = pair && item->data(kSelfPairRole).toBool();
  allow_action_->setEnabled(pair && !self);
  allow_button_->setEnabled(pair && !self);
  allow_button_->setToolTip(self   ? self_pair_reason()
                            : pair ? allow_action_->toolTip()
                                   : tr("Select a colliding pair to allow it"));
}

QMenu* CollisionsPanel::context_menu_for(QListWidgetItem* item) {
  if (item) list_->setCurrentItem(item);  // what the menu's Allow contact acts on
  auto* menu = new QMenu(this);
  const bool self = item && item->data(kSelfPairRole).toBool();
  if (self && collision_matrix_action_) menu->addAction(collision_matrix_action_);
  QAction* allow = menu->addAction(allow_action_->text(), allow_action_, &QAction::trigger);
  allow->setEnabled(item && item->data(kPairRole).isValid() && !self);
  if (self) allow->setToolTip(self_pair_reason());
  return menu;
}

QString CollisionsPanel::allow_selected() {
  const QListWidgetItem* item = list_->currentItem();
  if (!item || !item->data(kPairRole).isValid()) return tr("Select a colliding pair first.");
  if (item->data(kSelfPairRole).toBool()) return self_pair_reason();
  const QStringList pair = item->data(kPairRole).toStringList();
  const std::string a = pair.value(0).toStdString(), b = pair.value(1).toStdString();
  PlanningScene scene = document_.scene();
  if (scene.override_for(a, b) == true)
    return tr("%1 and %2 are already allowed to touch.").arg(pair.value(0), pair.value(1));
  scene.allow(a, b);
  // Name the scene's body first ("Allow table – base_link"): that is what the user placed.
  const RobotModelPtr robot = document_.robot();
  const bool a_is_link = robot && robot->find_link(a) >= 0;
  const QString first = a_is_link ? pair.value(1) : pair.value(0),
                second = a_is_link ? pair.value(0) : pair.value(1);
  document_.edit_scene(scene, tr("Allow %1 – %2").arg(first, second));
  return {};
}

}  // namespace kinetic::app
