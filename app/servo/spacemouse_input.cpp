#include "app/servo/spacemouse_input.hpp"

#include <QSocketNotifier>

#include "engine/core/error.hpp"

namespace kinetic::app {

namespace {

QString explain(const std::exception& error) {
  if (const auto* typed = dynamic_cast<const Error*>(&error)) {
    QString text = QString::fromStdString(typed->message());
    if (!typed->hint().empty())
      text += QStringLiteral(" (%1)").arg(QString::fromStdString(typed->hint()));
    return text;
  }
  return QString::fromUtf8(error.what());
}

}  // namespace

SpaceMouseInput::SpaceMouseInput(QObject* parent) : QObject(parent) {}

SpaceMouseInput::~SpaceMouseInput() {
  close();
}

QString SpaceMouseInput::open() {
  if (device_) return {};
  try {
    device_ = SpaceMouse::open();
  } catch (const std::exception& error) {
    return tr("Spacemouse unavailable: %1").arg(explain(error));
  }
  notifier_ = new QSocketNotifier(device_->file_descriptor(), QSocketNotifier::Read, this);
  connect(notifier_, &QSocketNotifier::activated, this, &SpaceMouseInput::read_events);
  return {};
}

void SpaceMouseInput::close() {
  delete notifier_;
  notifier_ = nullptr;
  device_.reset();
  if (!axes_.isZero()) {
    axes_.setZero();
    emit axesChanged(axes_);
  }
}

void SpaceMouseInput::read_events() {
  if (!device_) return;
  try {
    device_->poll();
  } catch (const std::exception& error) {
    // Zero axes first, so nothing acts on the last deflection, then report the loss.
    close();
    emit lost(tr("The spacemouse went away: %1. The arm was stopped.").arg(explain(error)));
    return;
  }
  if (device_->axes() != axes_) {
    axes_ = device_->axes();
    emit axesChanged(axes_);
  }
  for (const SpaceMouseButton& button : device_->take_button_changes())
    if (button.pressed) emit buttonPressed(button.index);
}

}  // namespace kinetic::app
