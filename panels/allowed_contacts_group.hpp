#pragma once
// The Scene panel's "Allowed contacts" group: the pairs the scene allows to touch (the scene
// file's "allowed" list; the Collisions panel's Allow contact adds to it), each removable. Folded
// by default behind a toggle, as the Goal panel's Offset, so the panel's usual layout is unchanged.
#include <QWidget>

#include "engine/scene/planning_scene.hpp"

class QListWidget;
class QPushButton;
class QToolButton;

namespace kinetic::panels {

class AllowedContactsGroup : public QWidget {
  Q_OBJECT
 public:
  explicit AllowedContactsGroup(QWidget* parent = nullptr);

  // Shows the scene's allowed pairs (forced checks, "disallowed", are not listed).
  void set_scene(const PlanningScene& scene);

  QToolButton* toggle() const { return toggle_; }
  QListWidget* list() const { return list_; }  // item data (Qt::UserRole): the pair, QStringList
  QPushButton* remove_button() const { return remove_; }

 signals:
  // Remove (the button) on the selected pair.
  void removeRequested(const QString& a, const QString& b);

 private:
  QToolButton* toggle_ = nullptr;
  QWidget* body_ = nullptr;
  QListWidget* list_ = nullptr;
  QPushButton* remove_ = nullptr;
};

}  // namespace kinetic::panels
