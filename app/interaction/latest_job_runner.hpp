#pragma once
// LatestJobRunner: one background thread that runs the newest job posted to it. A job posted while
// another runs replaces any job still waiting (older requests are obsolete once a newer one
// exists), so a burst of requests costs at most two solves. Jobs run one at a time, in order, so
// state used only by jobs needs no locking.
#include <QMutex>
#include <QWaitCondition>
#include <functional>
#include <memory>

class QThread;

namespace kinetic::app {

class LatestJobRunner {
 public:
  LatestJobRunner();
  // Drops the waiting job, lets the running one finish and joins the thread.
  ~LatestJobRunner();
  LatestJobRunner(const LatestJobRunner&) = delete;
  LatestJobRunner& operator=(const LatestJobRunner&) = delete;

  void post(std::function<void()> job);

 private:
  void run();

  QMutex mutex_;
  QWaitCondition wake_;
  std::function<void()> pending_;
  bool stopping_ = false;
  std::unique_ptr<QThread> thread_;
};

}  // namespace kinetic::app
