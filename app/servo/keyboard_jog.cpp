#include "app/servo/keyboard_jog.hpp"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QGuiApplication>
#include <QKeyEvent>
#include <QLineEdit>
#include <QTabBar>
#include <QWidget>

#include "app/servo/teleop_controller.hpp"
#include "panels/servo_panel.hpp"

namespace kinetic::app {

namespace {
constexpr int kX = 0, kY = 1, kZ = 2, kRotation = 3;  // Rx = X + kRotation, ...

// Widgets whose keys are the user's typing, choosing or moving through items, not jogging.
bool takes_its_own_keys(const QObject* receiver) {
  return qobject_cast<const QLineEdit*>(receiver) ||
         qobject_cast<const QAbstractSpinBox*>(receiver) ||
         qobject_cast<const QComboBox*>(receiver) ||
         qobject_cast<const QAbstractSlider*>(receiver) ||
         qobject_cast<const QAbstractScrollArea*>(receiver) ||
         qobject_cast<const QTabBar*>(receiver);
}
}  // namespace

std::optional<KeyJog> key_jog(int key, bool shift, panels::JogMode mode, int joint) {
  if (mode == panels::JogMode::Joint) {
    if (joint < 0) return std::nullopt;
    if (key == Qt::Key_Up || key == Qt::Key_Right) return KeyJog{mode, joint, +1};
    if (key == Qt::Key_Down || key == Qt::Key_Left) return KeyJog{mode, joint, -1};
    return std::nullopt;
  }
  const int turn = shift ? kRotation : 0;
  switch (key) {
    case Qt::Key_Left:
      return KeyJog{mode, kX + turn, -1};
    case Qt::Key_Right:
      return KeyJog{mode, kX + turn, +1};
    case Qt::Key_Up:
      return KeyJog{mode, kY + turn, +1};
    case Qt::Key_Down:
      return KeyJog{mode, kY + turn, -1};
    case Qt::Key_PageUp:
      return KeyJog{mode, kZ + turn, +1};
    case Qt::Key_PageDown:
      return KeyJog{mode, kZ + turn, -1};
    default:
      return std::nullopt;
  }
}

std::optional<int> joint_for_digit(int key, int joint_count) {
  if (key < Qt::Key_1 || key > Qt::Key_9) return std::nullopt;
  const int joint = key - Qt::Key_1;
  if (joint >= joint_count) return std::nullopt;
  return joint;
}

KeyboardJog::KeyboardJog(TeleopController& controller, panels::ServoPanel& panel, QObject* parent)
    : QObject(parent), controller_(controller), panel_(panel) {
  qApp->installEventFilter(this);
  connect(qApp, &QGuiApplication::applicationStateChanged, this,
          [this](Qt::ApplicationState state) {
            if (state != Qt::ApplicationActive) release();
          });
  connect(&controller_, &TeleopController::enabledChanged, this, [this](bool on) {
    if (!on) release();
  });
}

KeyboardJog::~KeyboardJog() {
  qApp->removeEventFilter(this);
}

bool KeyboardJog::jogs_keys_of(QObject* receiver) const {
  if (receiver == nullptr) return false;
  if (receiver == view_) return true;
  const auto* widget = qobject_cast<const QWidget*>(receiver);
  if (widget == nullptr || takes_its_own_keys(widget)) return false;
  // Anywhere in the studio's window (a button of another panel, or no focus widget at all after
  // a click on empty space), not in a dialog: the user should not have to click into the view.
  return widget->window() == panel_.window();
}

bool KeyboardJog::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type == QEvent::FocusOut && held_ && jogs_keys_of(watched)) {
    release();
    return false;
  }
  if (type != QEvent::KeyPress && type != QEvent::KeyRelease) return false;
  auto* key_event = static_cast<QKeyEvent*>(event);
  if (type == QEvent::KeyRelease) {
    // Auto-repeat sends release/press pairs while a key is held: the hold goes on.
    if (held_ && key_event->key() == held_->key && !key_event->isAutoRepeat()) {
      release();
      return true;
    }
    return false;
  }
  if (!controller_.enabled() || controller_.source() != panels::TeleopSource::OnScreen)
    return false;
  if (key_event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier))
    return false;
  if (!jogs_keys_of(watched)) {
    declined_event_ = event;
    declined_by_ = watched;
    return false;
  }
  // A key a widget ignored travels up to its parents: still that widget's key (a line edit's ↑).
  if (event == declined_event_ && declined_by_ && watched->isWidgetType() &&
      declined_by_->isWidgetType() &&
      static_cast<QWidget*>(watched)->isAncestorOf(static_cast<QWidget*>(declined_by_.data())))
    return false;
  const panels::JogMode mode = panel_.mode();
  panels::JogPad& pad = *panel_.jog_pad();
  if (mode == panels::JogMode::Joint) {
    if (const auto joint = joint_for_digit(key_event->key(), pad.joint_count())) {
      if (held_) release();
      panel_.set_key_joint(*joint);
      return true;
    }
  }
  const auto jog =
      key_jog(key_event->key(), (key_event->modifiers() & Qt::ShiftModifier) != 0, mode,
              mode == panels::JogMode::Joint && pad.joint_count() > 0 ? pad.key_joint() : -1);
  if (!jog) return false;
  if (key_event->isAutoRepeat() && held_ && held_->key == key_event->key())
    return true;  // still held
  if (held_) pad.show_key_held(held_->jog.mode, held_->jog.index, held_->jog.direction, false);
  held_ = Held{key_event->key(), *jog};
  pad.show_key_held(jog->mode, jog->index, jog->direction, true);
  controller_.press(jog->mode, jog->index, jog->direction);
  return true;
}

void KeyboardJog::release() {
  if (!held_) return;
  panel_.jog_pad()->show_key_held(held_->jog.mode, held_->jog.index, held_->jog.direction, false);
  held_.reset();
  controller_.release();
}

}  // namespace kinetic::app
