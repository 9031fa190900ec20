#pragma once
// A 3Dconnexion spacemouse as a twist source, through spacenavd and libspnav (no ROS): its six
// axes become a TCP twist command, its buttons are reported as they change.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/servo/servo.hpp"

namespace kinetic {

struct SpaceMouseOptions {
  double full_scale = 350.0;   // device counts at full deflection (spacenavd's usual range)
  double deadband = 0.1;       // fraction of full scale below which an axis reads zero
  bool dominant_axis = false;  // only the axis pushed furthest counts (easier precise moves)
};

// Throws Error(InvalidValue) naming the field: full_scale must be positive, deadband in [0, 1).
void validate_spacemouse_options(const SpaceMouseOptions& options);

// One spacenavd motion event (device counts) as axes in [-1, 1], the pure mapping poll() uses.
// spacenavd (default configuration: no swap-yz, no inverted axes) reports x right, y up, z away
// from the user: a left-handed frame (libspnav's own spnav_posrot_moveobj negates z for OpenGL).
// Swapping y and z gives the right-handed frame x right, y away from the user, z up, for
// translations and rotations alike: axes = [x, z, y, rx, rz, ry] / full_scale. Lifting the cap is
// +z, pushing it away +y, twisting it counter-clockwise seen from above +rz. Each value then has
// the deadband taken off and is rescaled so that the output rises continuously from 0 at the
// deadband to 1 at full scale: sign(a) * (|a| - deadband) / (1 - deadband), clamped to [-1, 1].
// With dominant_axis only the largest of the six survives.
Twist axes_from_motion(int x, int y, int z, int rx, int ry, int rz,
                       const SpaceMouseOptions& options);

struct SpaceMouseButton {
  int index = 0;
  bool pressed = false;
};

class SpaceMouse {
 public:
  // Connects to spacenavd (its socket: $SPNAV_SOCKET, /etc/spnavrc's socket, else
  // /var/run/spnav.sock). Error(FileNotFound) when no daemon answers, with what to do ("install
  // and start spacenavd; is the device plugged in?"). One connection per process: a second open()
  // while one is alive is Error(InvalidValue). Options are validated (Error(InvalidValue)).
  static std::unique_ptr<SpaceMouse> open(SpaceMouseOptions options = {});
  ~SpaceMouse();  // closes the connection
  SpaceMouse(const SpaceMouse&) = delete;
  SpaceMouse& operator=(const SpaceMouse&) = delete;

  // Reads every pending event without blocking. The twist is the newest motion, as fractions of
  // full scale in [-1, 1] (x, y, z, rx, ry, rz in the device's axes mapped to a right-handed
  // frame: x right, y away from the user, z up); it stays until the device reports release.
  // Error(IoError) once the daemon or the device goes away (the axes read zero from then on);
  // the caller stops the arm. A lost daemon connection stays lost (open a new SpaceMouse); an
  // unplugged device is reported once, and its events come back when it is plugged in again.
  void poll();
  const Twist& axes() const { return axes_; }
  std::vector<SpaceMouseButton> take_button_changes();
  int file_descriptor() const;  // for select/QSocketNotifier

 private:
  explicit SpaceMouse(SpaceMouseOptions options);
  void handle_event(const void* event);  // a spnav_event
  [[noreturn]] void connection_lost(const std::string& why);
  SpaceMouseOptions options_;
  Twist axes_ = Twist::Zero();
  std::vector<SpaceMouseButton> buttons_;
  bool lost_ = false;
};

// A twist command from the device's axes: each fraction (clamped to [-1, 1]) times the servo's
// maximum speeds, in the given frame.
ServoCommand twist_command(const Twist& axes, const ServoOptions& options,
                           ServoCommand::Frame frame);

}  // namespace kinetic
