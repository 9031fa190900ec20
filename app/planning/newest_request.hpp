#pragma once
// The bookkeeping of a worker whose newest request wins: each request gets an id and a cancel
// flag, a new one cancels the one in flight, and only the newest one's answer is delivered. Lives
// on the owner's (GUI) thread; the worker thread only reads the flag it was given.
#include <QtGlobal>
#include <atomic>
#include <memory>

namespace kinetic::app {

class NewestRequest {
 public:
  struct Ticket {
    quint64 id = 0;
    std::shared_ptr<std::atomic<bool>> cancel;
  };

  // Cancels the request in flight and starts the next one.
  Ticket begin() {
    cancel();
    Ticket ticket{++next_id_, std::make_shared<std::atomic<bool>>(false)};
    cancel_ = ticket.cancel;
    running_ = ticket.id;
    return ticket;
  }
  void cancel() {
    if (cancel_) cancel_->store(true);
  }
  bool busy() const { return running_ != 0; }
  bool is_newest(quint64 id) const { return id == running_; }
  // True, and idle again, when `id` is the newest request; false for an answer to a replaced one.
  bool finish(quint64 id) {
    if (id != running_) return false;
    running_ = 0;
    cancel_.reset();
    return true;
  }

 private:
  quint64 next_id_ = 0;
  quint64 running_ = 0;  // the newest request not yet answered (0: idle)
  std::shared_ptr<std::atomic<bool>> cancel_;
};

}  // namespace kinetic::app
