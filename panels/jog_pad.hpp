#pragma once
// The press-and-hold jog buttons of the Teleop panel: in Cartesian mode −/+ for X, Y, Z, Rx, Ry,
// Rz; in joint mode −/+ for each joint of the planning group. A button reports when it goes down
// and when it comes up; keeping the arm moving while it is held is the owner's business.
#include <QStringList>
#include <QWidget>
#include <vector>

class QGridLayout;
class QLabel;
class QPushButton;
class QStackedWidget;

namespace kinetic::panels {

enum class JogMode { Cartesian, Joint };

class JogPad : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kAxisCount = 6;  // X Y Z Rx Ry Rz

  explicit JogPad(QWidget* parent = nullptr);

  void set_mode(JogMode mode);
  JogMode mode() const { return mode_; }
  // The group's joints, base to tip (joint mode's rows).
  void set_joint_names(const QStringList& names);
  int joint_count() const { return static_cast<int>(joint_buttons_.size()); }
  QString joint_name(int joint) const;  // "" outside the group

  // Keyboard jogging shows itself on the buttons: the held key's button looks pressed (no signal).
  void show_key_held(JogMode mode, int index, int direction, bool held);
  // The joint the keys jog in joint mode: its name is shown bold (-1: none).
  void set_key_joint(int joint);
  int key_joint() const { return key_joint_; }

  // Test access: direction -1 or +1.
  QPushButton* axis_button(int axis, int direction) const;
  QPushButton* joint_button(int joint, int direction) const;

 signals:
  // index: an axis (0..5: X Y Z Rx Ry Rz) in Cartesian mode, a joint of the group in joint mode.
  void pressed(kinetic::panels::JogMode mode, int index, int direction);
  void released();

 private:
  struct ButtonPair {
    QPushButton* minus = nullptr;
    QPushButton* plus = nullptr;
  };
  ButtonPair make_pair(QWidget* parent, JogMode mode, int index, const QString& name,
                       const QString& what);

  JogMode mode_ = JogMode::Cartesian;
  QStackedWidget* pages_ = nullptr;
  QWidget* joint_page_ = nullptr;
  QGridLayout* joint_grid_ = nullptr;
  ButtonPair axis_buttons_[kAxisCount];
  std::vector<ButtonPair> joint_buttons_;
  std::vector<QLabel*> joint_labels_;
  int key_joint_ = 0;
};

}  // namespace kinetic::panels
