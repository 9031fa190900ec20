#pragma once
// A spacemouse as the studio's teleop input: opens the engine's SpaceMouse on demand and reads it
// whenever spacenavd has news (a QSocketNotifier on its connection), so the GUI never blocks or
// polls. When the daemon or the device goes away it closes and says so (lost()): the owner stops
// the arm at once.
#include <QObject>
#include <QString>
#include <memory>

#include "engine/servo/spacemouse.hpp"

class QSocketNotifier;

namespace kinetic::app {

class SpaceMouseInput : public QObject {
  Q_OBJECT
 public:
  explicit SpaceMouseInput(QObject* parent = nullptr);
  ~SpaceMouseInput() override;

  // "" when the device is open (or already was), else why not and what to do, for the user.
  QString open();
  void close();
  bool is_open() const { return device_ != nullptr; }
  // The newest deflection, fractions of full scale (zero when closed).
  const Twist& axes() const { return axes_; }

 signals:
  void axesChanged(const kinetic::Twist& axes);
  // A button went down (0: the left one, 1: the right one on a two-button device).
  void buttonPressed(int index);
  // The connection broke while open (the device was unplugged, spacenavd stopped); it is closed.
  void lost(const QString& message);

 private:
  void read_events();

  std::unique_ptr<SpaceMouse> device_;
  QSocketNotifier* notifier_ = nullptr;
  Twist axes_ = Twist::Zero();
};

}  // namespace kinetic::app
