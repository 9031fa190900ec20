#pragma once
// BackgroundTasks: runs work (timing, validation) on Qt's thread pool and hands the result back
// on the owner's thread. Newest request wins per channel: an answer to a request that a later
// one on the same channel replaced is dropped. Answers that arrive after the owner is gone are
// dropped too (the work itself finishes on the pool; it must capture only values).
#include <QMetaObject>
#include <QMutex>
#include <QObject>
#include <QThreadPool>
#include <functional>
#include <map>
#include <memory>
#include <utility>

namespace kinetic::app {

class BackgroundTasks : public QObject {
  Q_OBJECT
 public:
  explicit BackgroundTasks(QObject* parent = nullptr)
      : QObject(parent), guard_(std::make_shared<Guard>()) {
    guard_->owner = this;
  }
  ~BackgroundTasks() override {
    QMutexLocker lock(&guard_->mutex);
    guard_->owner = nullptr;
  }

  // work() runs on a pool thread; done(result) on this object's thread, if still the newest.
  template <class Work, class Done>
  void run(const QString& channel, Work work, Done done) {
    const quint64 generation = ++generations_[channel];
    ++pending_;
    std::shared_ptr<Guard> guard = guard_;
    QThreadPool::globalInstance()->start([guard, channel, generation, work = std::move(work),
                                          done = std::move(done)]() mutable {
      auto result = work();
      QMutexLocker lock(&guard->mutex);
      if (!guard->owner) return;
      BackgroundTasks* owner = guard->owner;
      QMetaObject::invokeMethod(
          owner,
          [owner, channel, generation, done = std::move(done), result = std::move(result)]() mutable {
            --owner->pending_;
            if (owner->generations_[channel] == generation) done(std::move(result));
            emit owner->taskFinished();
          },
          Qt::QueuedConnection);
    });
  }
  int pending() const { return pending_; }

 signals:
  void taskFinished();

 private:
  struct Guard {
    QMutex mutex;
    BackgroundTasks* owner = nullptr;
  };
  std::shared_ptr<Guard> guard_;
  std::map<QString, quint64> generations_;
  int pending_ = 0;
};

}  // namespace kinetic::app
