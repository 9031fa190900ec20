#include "engine/servo/spacemouse.hpp"

#include <spnav.h>
#include <sys/socket.h>
#include <sys/types.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstring>

#include "engine/core/error.hpp"

namespace kinetic {
namespace {

// libspnav keeps one connection in globals: one SpaceMouse per process.
std::atomic<bool> g_connection_open{false};

// Events read per poll() at most (a flood cannot hold the caller; the rest waits for the next).
constexpr int kMaxEventsPerPoll = 1024;

const char* const kRestartHint =
    "check that spacenavd is running (systemctl status spacenavd; restart it with systemctl "
    "restart "
    "spacenavd), then open the spacemouse again";

}  // namespace

void validate_spacemouse_options(const SpaceMouseOptions& options) {
  if (!std::isfinite(options.full_scale) || options.full_scale <= 0.0)
    throw Error(ErrorCode::InvalidValue,
                "spacemouse option full_scale must be a positive number of device counts (got " +
                    std::to_string(options.full_scale) + ")",
                "spacenavd reports about 350 counts at full deflection");
  if (!std::isfinite(options.deadband) || options.deadband < 0.0 || options.deadband >= 1.0)
    throw Error(ErrorCode::InvalidValue,
                "spacemouse option deadband must be a fraction in [0, 1) (got " +
                    std::to_string(options.deadband) + ")",
                "0.1 ignores the cap's resting noise");
}

Twist axes_from_motion(int x, int y, int z, int rx, int ry, int rz,
                       const SpaceMouseOptions& options) {
  // spacenavd: x right, y up, z away from the user (left-handed) -> x right, y away, z up.
  const double counts[6] = {double(x), double(z), double(y), double(rx), double(rz), double(ry)};
  Twist axes;
  const double band = options.deadband;
  for (int i = 0; i < 6; ++i) {
    const double a = counts[i] / options.full_scale;
    const double magnitude = std::abs(a);
    axes[i] = magnitude <= band
                  ? 0.0
                  : std::copysign(std::min(1.0, (magnitude - band) / (1.0 - band)), a);
  }
  if (options.dominant_axis) {
    Eigen::Index largest = 0;
    axes.cwiseAbs().maxCoeff(&largest);
    const double keep = axes[largest];
    axes.setZero();
    axes[largest] = keep;
  }
  return axes;
}

ServoCommand twist_command(const Twist& axes, const ServoOptions& options,
                           ServoCommand::Frame frame) {
  ServoCommand command;
  command.kind = ServoCommand::Kind::Twist;
  command.frame = frame;
  for (int i = 0; i < 6; ++i) {
    const double a = std::clamp(axes[i], -1.0, 1.0);  // (NaN stays NaN: Servo::step rejects it)
    command.twist[i] = a * (i < 3 ? options.max_linear_speed : options.max_angular_speed);
  }
  return command;
}

SpaceMouse::SpaceMouse(SpaceMouseOptions options) : options_(options) {}

std::unique_ptr<SpaceMouse> SpaceMouse::open(SpaceMouseOptions options) {
  validate_spacemouse_options(options);
  if (g_connection_open.exchange(true))
    throw Error(ErrorCode::InvalidValue, "a spacemouse connection is already open in this process",
                "use the open SpaceMouse (libspnav allows one connection per process), or destroy "
                "it first");
  if (spnav_open() == -1) {
    g_connection_open.store(false);
    throw Error(ErrorCode::FileNotFound,
                "no spacenavd daemon answered on its socket ($SPNAV_SOCKET, the socket set in "
                "/etc/spnavrc, "
                "or /var/run/spnav.sock)",
                "install and start spacenavd (Debian: apt install spacenavd; systemctl enable "
                "--now spacenavd), "
                "and check that the spacemouse is plugged in");
  }
  return std::unique_ptr<SpaceMouse>(new SpaceMouse(options));
}

SpaceMouse::~SpaceMouse() {
  spnav_close();
  g_connection_open.store(false);
}

int SpaceMouse::file_descriptor() const {
  return lost_ ? -1 : spnav_fd();
}

std::vector<SpaceMouseButton> SpaceMouse::take_button_changes() {
  std::vector<SpaceMouseButton> changes;
  changes.swap(buttons_);
  return changes;
}

void SpaceMouse::connection_lost(const std::string& why) {
  lost_ = true;
  axes_.setZero();
  throw Error(ErrorCode::IoError, "the spacemouse connection was lost: " + why, kRestartHint);
}

void SpaceMouse::poll() {
  if (lost_) connection_lost("spacenavd closed the connection earlier");
  const int fd = spnav_fd();
  if (fd < 0) connection_lost("libspnav has no open connection");
  for (int n = 0; n < kMaxEventsPerPoll; ++n) {
    spnav_event event;
    std::memset(&event, 0, sizeof event);
    if (spnav_poll_event(&event) > 0) {
      handle_event(&event);
      continue;
    }
    // Nothing parsed: either nothing is pending, or the read found the end of the stream (libspnav
    // answers 0 for both), or an event type libspnav skips. A peek tells them apart.
    char byte = 0;
    const ssize_t peeked = ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (peeked > 0) continue;
    if (peeked == 0) connection_lost("spacenavd closed the connection");
    if (errno == EAGAIN || errno == EWOULDBLOCK) return;
    if (errno == EINTR) continue;
    connection_lost(std::strerror(errno));
  }
}

void SpaceMouse::handle_event(const void* raw) {
  const spnav_event& event = *static_cast<const spnav_event*>(raw);
  switch (event.type) {
    case SPNAV_EVENT_MOTION:
      axes_ = axes_from_motion(event.motion.x, event.motion.y, event.motion.z, event.motion.rx,
                               event.motion.ry, event.motion.rz, options_);
      break;
    case SPNAV_EVENT_BUTTON:
      buttons_.push_back({event.button.bnum, event.button.press != 0});
      break;
    case SPNAV_EVENT_DEV:
      if (event.dev.op == SPNAV_DEV_RM) {
        axes_.setZero();
        throw Error(ErrorCode::IoError,
                    "the spacemouse was unplugged (spacenavd reports the device removed)",
                    "plug it in again: its events come back on the same connection");
      }
      break;
    default:
      break;
  }
}

}  // namespace kinetic
