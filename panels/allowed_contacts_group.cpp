#include "panels/allowed_contacts_group.hpp"

#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QStringList>
#include <QToolButton>
#include <QVBoxLayout>

namespace kinetic::panels {

AllowedContactsGroup::AllowedContactsGroup(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  toggle_ = new QToolButton(this);
  toggle_->setCheckable(true);
  toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
  toggle_->setAutoRaise(true);
  toggle_->setArrowType(Qt::RightArrow);
  toggle_->setToolTip(tr(
      "Pairs this scene lets touch without counting as a collision (a table under the "
      "base, a fixture); add one from the Collisions panel: right-click a pair → Allow contact"));
  layout->addWidget(toggle_, 0, Qt::AlignLeft);

  body_ = new QWidget(this);
  body_->setVisible(false);  // folded by default
  auto* body_layout = new QHBoxLayout(body_);
  body_layout->setContentsMargins(0, 0, 0, 0);
  list_ = new QListWidget(body_);
  list_->setMaximumHeight(90);  // a few pairs; it scrolls beyond
  body_layout->addWidget(list_, 1);
  remove_ = new QPushButton(tr("Remove"), body_);
  remove_->setToolTip(tr("Check the selected pair again (one undo step)"));
  remove_->setEnabled(false);
  body_layout->addWidget(remove_, 0, Qt::AlignTop);
  layout->addWidget(body_);

  connect(toggle_, &QToolButton::toggled, this, [this](bool open) {
    body_->setVisible(open);
    toggle_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
  });
  connect(list_, &QListWidget::currentItemChanged, this,
          [this](QListWidgetItem* item) { remove_->setEnabled(item != nullptr); });
  connect(remove_, &QPushButton::clicked, this, [this] {
    const QListWidgetItem* item = list_->currentItem();
    if (!item) return;
    const QStringList pair = item->data(Qt::UserRole).toStringList();
    emit removeRequested(pair.value(0), pair.value(1));
  });
  set_scene(PlanningScene{});
}

void AllowedContactsGroup::set_scene(const PlanningScene& scene) {
  list_->clear();
  for (const auto& [pair, allowed] : scene.overrides()) {
    if (!allowed) continue;
    const QString a = QString::fromStdString(pair.first), b = QString::fromStdString(pair.second);
    auto* item = new QListWidgetItem(QStringLiteral("%1 – %2").arg(a, b), list_);
    item->setData(Qt::UserRole, QStringList{a, b});
  }
  toggle_->setText(tr("Allowed contacts (%1)").arg(list_->count()));
  remove_->setEnabled(list_->currentItem() != nullptr);
}

}  // namespace kinetic::panels
