#include "app/workers/newest_wins_worker.hpp"

#include <QMetaObject>
#include <QThread>
#include <QTimer>
#include <QtDebug>

#include "app/workers/thread_priority.hpp"
#include "engine/core/error.hpp"

namespace kinetic::app {

NewestWinsWorker::NewestWinsWorker(QString name, Priority priority, QObject* parent,
                                   Replaced replaced)
    : QObject(parent), name_(std::move(name)), priority_(priority), replaced_(replaced) {}

NewestWinsWorker::~NewestWinsWorker() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    waiting_.reset();
    if (running_cancel_) running_cancel_->store(true);
  }
  wake_.notify_all();
  // The running job ends at its next look at the flag (work the engine cannot interrupt, such
  // as parsing a mesh, ends first). Its answer, posted to this object, is dropped with it.
  if (thread_) thread_->wait();
}

void NewestWinsWorker::Job::report(std::function<void()> update) const {
  NewestWinsWorker* worker = worker_;
  QMetaObject::invokeMethod(
      worker,
      [worker, id = id_, update = std::move(update)] {
        if (worker->is_newest(id)) update();
      },
      Qt::QueuedConnection);
}

quint64 NewestWinsWorker::enqueue(Task task) {
  const bool was_busy = busy();
  const quint64 id = ++next_id_;
  newest_ = id;
  {
    std::lock_guard lock(mutex_);
    // Replaced: stop as soon as it can, or after the grace to finish and answer first.
    if (running_cancel_ && replaced_ == Replaced::Cancel) running_cancel_->store(true);
    if (running_cancel_ && replaced_ == Replaced::Finish)
      QTimer::singleShot(kFinishGraceMs, this, [flag = running_cancel_] { flag->store(true); });
    waiting_ = Waiting{id, std::move(task), std::make_shared<std::atomic<bool>>(false)};
  }
  if (!thread_) {
    thread_.reset(QThread::create([this] { run(); }));
    thread_->setObjectName(name_);
    thread_->start();
  }
  wake_.notify_one();
  if (!was_busy) emit busyChanged(true);
  return id;
}

void NewestWinsWorker::cancel() {
  std::lock_guard lock(mutex_);
  if (waiting_) waiting_->cancel->store(true);  // it still runs, sees the flag and answers
  if (running_cancel_) running_cancel_->store(true);
}

void NewestWinsWorker::abandon() {
  {
    std::lock_guard lock(mutex_);
    waiting_.reset();
    if (running_cancel_) running_cancel_->store(true);
  }
  if (!busy()) return;
  newest_ = 0;
  emit busyChanged(false);
}

void NewestWinsWorker::answer(quint64 id, bool cancelled, const Answer& answer) {
  if (!is_newest(id)) {
    // Replaced meanwhile: dropped, unless it was let finish and did (not stopped after its
    // grace, not abandoned, and nothing newer has answered).
    if (replaced_ == Replaced::Finish && !cancelled && busy() && id > last_answered_) {
      last_answered_ = id;
      answer();
    }
    return;
  }
  last_answered_ = id;
  newest_ = 0;
  // Idle before the answer runs: an answer may submit the next job.
  emit busyChanged(false);
  answer();
}

void NewestWinsWorker::run() {
  if (priority_ == Priority::Background) lower_current_thread_priority();
  for (;;) {
    Waiting next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return waiting_.has_value() || stopping_; });
      if (stopping_) return;
      next = std::move(*waiting_);
      waiting_.reset();
      running_cancel_ = next.cancel;
    }
    Answer result = next.task(Job(this, next.id, next.cancel));
    const bool cancelled = next.cancel->load();
    {
      std::lock_guard lock(mutex_);
      running_cancel_.reset();
    }
    QMetaObject::invokeMethod(
        this,
        [this, id = next.id, cancelled, result = std::move(result)] {
          answer(id, cancelled, result);
        },
        Qt::QueuedConnection);
  }
}

QString NewestWinsWorker::describe(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const Error& error) {
    return QString::fromStdString(error.what());
  } catch (const std::exception& error) {
    return QString::fromUtf8(error.what());
  } catch (...) {
    return QStringLiteral("an unknown error");
  }
}

void NewestWinsWorker::log_failure(const QString& worker, const QString& message) {
  qWarning().noquote() << worker << "failed:" << message;
}

}  // namespace kinetic::app
