#include "app/interaction/latest_job_runner.hpp"

#include <QThread>

namespace kinetic::app {

LatestJobRunner::LatestJobRunner() {
  thread_.reset(QThread::create([this] { run(); }));
  thread_->start();
}

LatestJobRunner::~LatestJobRunner() {
  {
    QMutexLocker lock(&mutex_);
    stopping_ = true;
    pending_ = nullptr;
  }
  wake_.wakeAll();
  thread_->wait();
}

void LatestJobRunner::post(std::function<void()> job) {
  {
    QMutexLocker lock(&mutex_);
    pending_ = std::move(job);
  }
  wake_.wakeOne();
}

void LatestJobRunner::run() {
  for (;;) {
    std::function<void()> job;
    {
      QMutexLocker lock(&mutex_);
      while (!pending_ && !stopping_) wake_.wait(&mutex_);
      if (stopping_) return;
      job = std::move(pending_);
      pending_ = nullptr;
    }
    job();
  }
}

}  // namespace kinetic::app
