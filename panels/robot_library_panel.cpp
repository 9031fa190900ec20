#include "panels/robot_library_panel.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace kinetic::panels {

namespace {
enum Column { Name, Maker, Model, Dof };
constexpr int kOpenRole = Qt::UserRole;  // a package row: what opening it loads

QString reference_of(const QTreeWidgetItem& item) {
  const QString open = item.data(Name, kOpenRole).toString();
  return open.isEmpty() ? item.text(Name) : open;
}

bool names_robot(const QTreeWidgetItem& item, const QString& reference) {
  if (reference.isEmpty()) return false;
  const QString open = item.data(Name, kOpenRole).toString();
  return open.isEmpty() ? item.text(Name).compare(reference, Qt::CaseInsensitive) == 0
                        : open == reference;
}
}  // namespace

RobotLibraryPanel::RobotLibraryPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  search_ = new QLineEdit(this);
  search_->setPlaceholderText(tr("Search name, maker or DOF (e.g. kuka, 7, moveit)"));
  search_->setClearButtonEnabled(true);
  connect(search_, &QLineEdit::textChanged, this, [this] { apply_filter(); });
  layout->addWidget(search_);

  list_ = new QTreeWidget(this);
  list_->setHeaderLabels({tr("Name"), tr("Maker"), tr("Model"), tr("DOF")});
  list_->setRootIsDecorated(false);
  list_->setSortingEnabled(true);
  list_->sortByColumn(Maker, Qt::AscendingOrder);
  list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  connect(list_, &QTreeWidget::itemActivated, this, [this] { load_current(); });
  connect(list_, &QTreeWidget::currentItemChanged, this,
          [this](QTreeWidgetItem* item) { load_->setEnabled(item && !item->isHidden()); });
  layout->addWidget(list_, 1);

  auto* buttons = new QHBoxLayout;
  buttons->addStretch();
  load_ = new QPushButton(tr("Load"), this);
  load_->setEnabled(false);
  connect(load_, &QPushButton::clicked, this, &RobotLibraryPanel::load_current);
  buttons->addWidget(load_);
  layout->addLayout(buttons);

  set_robots(builtin_robots());
}

void RobotLibraryPanel::set_robots(const std::vector<BuiltinRobotInfo>& robots) {
  list_->clear();
  for (const BuiltinRobotInfo& robot : robots) {
    auto* item = new QTreeWidgetItem(list_);
    item->setText(Name, QString::fromStdString(robot.name));
    item->setText(Maker, QString::fromStdString(robot.manufacturer));
    item->setText(Model, QString::fromStdString(robot.model));
    item->setData(Dof, Qt::DisplayRole, robot.dof);
    item->setToolTip(Name, QString::fromStdString(robot.directory));
  }
  mark_loaded();
  apply_filter();
}

void RobotLibraryPanel::set_packages(const std::vector<RobotPackageEntry>& packages) {
  for (int i = list_->topLevelItemCount() - 1; i >= 0; --i)
    if (!list_->topLevelItem(i)->data(Name, kOpenRole).toString().isEmpty())
      delete list_->takeTopLevelItem(i);
  for (const RobotPackageEntry& package : packages) {
    auto* item = new QTreeWidgetItem(list_);
    item->setText(Name, QString::fromStdString(package.label));
    item->setText(Maker, package.moveit_config ? tr("MoveIt config") : tr("Package"));
    item->setData(Name, kOpenRole, QString::fromStdString(package.open));
    item->setToolTip(Name, QString::fromStdString(package.open));
  }
  mark_loaded();
  apply_filter();
}

int RobotLibraryPanel::package_count() const {
  int count = 0;
  for (int i = 0; i < list_->topLevelItemCount(); ++i)
    count += list_->topLevelItem(i)->data(Name, kOpenRole).toString().isEmpty() ? 0 : 1;
  return count;
}

void RobotLibraryPanel::set_loaded_name(const QString& name) {
  loaded_ = name;
  mark_loaded();
  for (int i = 0; i < list_->topLevelItemCount(); ++i)
    if (names_robot(*list_->topLevelItem(i), name)) list_->setCurrentItem(list_->topLevelItem(i));
}

QString RobotLibraryPanel::loaded_name() const {
  for (int i = 0; i < list_->topLevelItemCount(); ++i)
    if (list_->topLevelItem(i)->font(Name).bold()) return list_->topLevelItem(i)->text(Name);
  return {};
}

void RobotLibraryPanel::mark_loaded() {
  const QIcon check = style()->standardIcon(QStyle::SP_DialogApplyButton);
  for (int i = 0; i < list_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = list_->topLevelItem(i);
    const bool loaded = names_robot(*item, loaded_);
    for (int column = Name; column <= Dof; ++column) {
      QFont font = item->font(column);
      font.setBold(loaded);
      item->setFont(column, font);
    }
    item->setIcon(Name, loaded ? check : QIcon());
    item->setStatusTip(Name, loaded ? tr("Loaded now") : QString());
  }
}

bool RobotLibraryPanel::matches(const BuiltinRobotInfo& robot, const QString& filter) {
  const QString text =
      QStringLiteral("%1 %2 %3")
          .arg(QString::fromStdString(robot.name), QString::fromStdString(robot.manufacturer),
               QString::fromStdString(robot.model));
  const QStringList words = filter.split(QLatin1Char(' '), Qt::SkipEmptyParts);
  for (QString word : words) {
    bool is_number = false;
    // "7dof" and "7-dof" mean the DOF, like "7".
    word.remove(
        QRegularExpression(QStringLiteral("-?dof$"), QRegularExpression::CaseInsensitiveOption));
    const int number = word.toInt(&is_number);
    if (is_number && number == robot.dof) continue;
    if (is_number) return false;
    if (!text.contains(word, Qt::CaseInsensitive)) return false;
  }
  return true;
}

void RobotLibraryPanel::set_filter(const QString& text) {
  search_->setText(text);
}

void RobotLibraryPanel::apply_filter() {
  const QString filter = search_->text();
  QTreeWidgetItem* first_visible = nullptr;
  for (int i = 0; i < list_->topLevelItemCount(); ++i) {
    QTreeWidgetItem* item = list_->topLevelItem(i);
    BuiltinRobotInfo info;
    info.name = item->text(Name).toStdString();
    info.manufacturer = item->text(Maker).toStdString();
    info.model = item->text(Model).toStdString();
    info.dof = item->data(Dof, Qt::DisplayRole).toInt();
    const bool shown = matches(info, filter);
    item->setHidden(!shown);
    if (shown && !first_visible) first_visible = item;
  }
  if (!list_->currentItem() || list_->currentItem()->isHidden())
    list_->setCurrentItem(first_visible);
  load_->setEnabled(list_->currentItem() && !list_->currentItem()->isHidden());
}

QStringList RobotLibraryPanel::visible_names() const {
  QStringList names;
  for (int i = 0; i < list_->topLevelItemCount(); ++i)
    if (!list_->topLevelItem(i)->isHidden()) names << list_->topLevelItem(i)->text(Name);
  return names;
}

QString RobotLibraryPanel::current_name() const {
  const QTreeWidgetItem* item = list_->currentItem();
  return item && !item->isHidden() ? item->text(Name) : QString();
}

void RobotLibraryPanel::set_current_name(const QString& name) {
  const auto found = list_->findItems(name, Qt::MatchExactly, Name);
  if (!found.isEmpty()) list_->setCurrentItem(found.first());
}

void RobotLibraryPanel::load_current() {
  const QTreeWidgetItem* item = list_->currentItem();
  if (item && !item->isHidden()) emit loadRequested(reference_of(*item));
}

}  // namespace kinetic::panels
