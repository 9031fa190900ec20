#pragma once
// A stand-in for spacenavd in tests: a Unix socket that libspnav connects to (SPNAV_SOCKET points
// at it), speaking the original protocol (version 0: it never answers libspnav's protocol request,
// so libspnav falls back to it after its timeout). It sends motion and button events and can hang
// up, as the daemon does when it stops.
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <QByteArray>
#include <QString>
#include <cstring>

namespace kinetic::test {

class FakeSpacenavd {
 public:
  explicit FakeSpacenavd(const QString& path) : path_(path.toLocal8Bit()) {
    listener_ = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un address{};
    address.sun_family = AF_UNIX;
    std::strncpy(address.sun_path, path_.constData(), sizeof address.sun_path - 1);
    ::unlink(path_.constData());
    if (listener_ < 0 ||
        ::bind(listener_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::listen(listener_, 1) != 0)
      close_listener();
  }
  ~FakeSpacenavd() {
    hang_up();
    close_listener();
    ::unlink(path_.constData());
  }
  FakeSpacenavd(const FakeSpacenavd&) = delete;
  FakeSpacenavd& operator=(const FakeSpacenavd&) = delete;

  bool listening() const { return listener_ >= 0; }
  // Takes the connection libspnav made (it waits in the backlog until then).
  bool accept_client() {
    if (listener_ < 0) return false;
    client_ = ::accept(listener_, nullptr, nullptr);
    return client_ >= 0;
  }
  // A motion event in spacenavd's axes (x right, y up, z away from the user), device counts.
  bool send_motion(int x, int y, int z, int rx, int ry, int rz) {
    const int event[8] = {0, x, y, z, rx, ry, rz, 16};
    return client_ >= 0 &&
           ::write(client_, event, sizeof event) == static_cast<ssize_t>(sizeof event);
  }
  // A button going down (pressed) or up: libspnav's event types 1 and 2.
  bool send_button(int index, bool pressed) {
    const int event[8] = {pressed ? 1 : 2, index, 0, 0, 0, 0, 0, 0};
    return client_ >= 0 &&
           ::write(client_, event, sizeof event) == static_cast<ssize_t>(sizeof event);
  }
  // The daemon goes away: the client reads the end of the stream.
  void hang_up() {
    if (client_ >= 0) ::close(client_);
    client_ = -1;
  }

 private:
  void close_listener() {
    if (listener_ >= 0) ::close(listener_);
    listener_ = -1;
  }

  QByteArray path_;
  int listener_ = -1;
  int client_ = -1;
};

}  // namespace kinetic::test
