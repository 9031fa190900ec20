#pragma once
// Keyboard jogging while teleoperation is on (as MoveIt Servo's keyboard teleop and RoboDK's jog
// keys): with the 3D view, the Teleop panel or any other part of the studio's window focused,
// holding a key jogs as holding the matching on-screen button does, and releasing it stops the
// arm. Keys typed into a text field, a spin box, a combo box or a slider, and keys that move
// through a list, a tree, a text view or tabs keep their usual meaning, and so do keys with Ctrl
// or Alt (the menus' shortcuts) and keys in dialogs. Losing the keyboard (another window, the
// application in the background) releases the key, so a release the studio never sees cannot leave
// the arm moving.
#include <QObject>
#include <QPointer>
#include <optional>

#include "panels/jog_pad.hpp"

namespace kinetic::panels {
class ServoPanel;
}

namespace kinetic::app {

class TeleopController;

struct KeyJog {
  panels::JogMode mode;
  int index;      // axis 0..5 (X Y Z Rx Ry Rz) or the group's joint
  int direction;  // -1 or +1
};

// Cartesian: ←/→ −X/+X, ↑/↓ +Y/−Y, PgUp/PgDn +Z/−Z; with Shift the same keys turn about X, Y, Z.
// Joint: ↑ or → turns `joint` the positive way, ↓ or ← the negative way. nullopt: not a jog key.
std::optional<KeyJog> key_jog(int key, bool shift, panels::JogMode mode, int joint);

// Joint mode: the digit keys 1..9 choose a joint of the group (index 0..count-1); nullopt for
// other keys and digits beyond the group.
std::optional<int> joint_for_digit(int key, int joint_count);

class KeyboardJog : public QObject {
  Q_OBJECT
 public:
  // Watches the application's key events (installed on qApp) for as long as it lives.
  KeyboardJog(TeleopController& controller, panels::ServoPanel& panel, QObject* parent = nullptr);
  ~KeyboardJog() override;

  // The 3D view (a native window, so not inside the panel): its keys jog too.
  void set_view(QObject* view) { view_ = view; }
  bool holding() const { return held_.has_value(); }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool jogs_keys_of(QObject* receiver) const;
  void release();

  TeleopController& controller_;
  panels::ServoPanel& panel_;
  QPointer<QObject> view_;
  struct Held {
    int key;
    KeyJog jog;
  };
  std::optional<Held> held_;
  // The key event last left to the widget it went to (Qt passes the same event on to the parents
  // of a widget that ignores it).
  const QEvent* declined_event_ = nullptr;
  QPointer<QObject> declined_by_;
};

}  // namespace kinetic::app
