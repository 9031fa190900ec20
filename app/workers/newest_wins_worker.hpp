#pragma once
// NewestWinsWorker: the studio's one mechanism for work that must not block the interface and of
// which only the newest request matters: plans, pick-and-place tasks, IK, the collision monitor,
// robot loads, package scans, re-timing, blending, validation, recordings, the collision matrix.
//
// - One thread per worker, started by the first submit(); jobs run one at a time and in order, so
//   state that only jobs touch needs no lock.
// - submit() replaces a job still waiting (it never runs) and raises the cancel flag of the one
//   running (the engine polls it: a plan stops within milliseconds), or lets it finish
//   (Replaced::Finish).
// - Answers come back on the owner's thread, and only the newest job's: the answer of a replaced
//   job is dropped (with Replaced::Finish, that of the job that was running is handed over first),
//   so no caller ever sees a result older than one it has seen.
// - A job that throws answers with its error, and the worker goes on.
// - Destruction raises the running job's flag, drops the waiting one and joins the thread; no
//   answer comes after it.
//
// Thread: constructed on the owner's (GUI) thread; submit(), cancel(), abandon(), busy() and every
// answer there; the work on the worker's thread.
#include <QObject>
#include <QString>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <type_traits>
#include <utility>

class QThread;

namespace kinetic::app {

class NewestWinsWorker : public QObject {
  Q_OBJECT
 public:
  enum class Priority {
    Interface,   // as the GUI thread (short answers the user waits for with the mouse down)
    Background,  // below it: on a machine with few cores the window keeps drawing
  };
  // What a newer job does to the one running.
  enum class Replaced {
    Cancel,  // raise its flag and drop its answer (plans: only the newest matters)
    // Let it finish within kFinishGraceMs of being replaced, then raise its flag; an answer it
    // reached on its own is handed over too, before the newer one's (IK during a drag: each
    // answer is a step the ghost can show, and a solve cancelled by every mouse move would never
    // end on a busy machine, burning a core the renderer needs).
    Finish,
  };
  static constexpr int kFinishGraceMs = 50;  // a few frames: a solve from a near seed takes ~1 ms
  explicit NewestWinsWorker(QString name, Priority priority = Priority::Background,
                            QObject* parent = nullptr, Replaced replaced = Replaced::Cancel);
  ~NewestWinsWorker() override;
  NewestWinsWorker(const NewestWinsWorker&) = delete;
  NewestWinsWorker& operator=(const NewestWinsWorker&) = delete;

  // What a job sees of itself, on the worker's thread.
  class Job {
   public:
    quint64 id() const { return id_; }
    bool cancelled() const { return cancel_->load(); }
    // The flag itself, for the engine (PlanControl::cancel, the mesh warmer).
    const std::atomic<bool>* cancel_flag() const { return cancel_.get(); }
    // Runs `update` on the owner's thread if this job is still the newest then (progress).
    void report(std::function<void()> update) const;

   private:
    friend class NewestWinsWorker;
    Job(NewestWinsWorker* worker, quint64 id, std::shared_ptr<std::atomic<bool>> cancel)
        : worker_(worker), id_(id), cancel_(std::move(cancel)) {}
    NewestWinsWorker* worker_;
    quint64 id_;
    std::shared_ptr<std::atomic<bool>> cancel_;
  };

  // work(const Job&) or work() runs on the worker's thread and returns a value (or nothing). If the
  // job is still the newest when it ends, done(value) (or done()) runs on the owner's thread, or
  // failed(message) where work threw (without `failed` the message goes to the log). Returns the
  // job's id.
  template <class Work, class Done>
  quint64 submit(Work work, Done done, std::function<void(const QString&)> failed = {});

  // Raises the newest job's cancel flag; its answer still comes (what a cancelled job answers is
  // the work's to say, e.g. "planning cancelled").
  void cancel();
  // Raises it and forgets the job: no answer comes, and the worker is idle at once.
  void abandon();
  // A job was submitted whose answer has not come yet.
  bool busy() const { return newest_ != 0; }
  bool is_newest(quint64 id) const { return id != 0 && id == newest_; }

 signals:
  void busyChanged(bool busy);

 private:
  using Answer = std::function<void()>;  // runs on the owner's thread
  using Task = std::function<Answer(const Job&)>;
  struct Waiting {
    quint64 id = 0;
    Task task;
    std::shared_ptr<std::atomic<bool>> cancel;
  };
  static QString describe(const std::exception_ptr& failure);
  static void log_failure(const QString& worker, const QString& message);
  quint64 enqueue(Task task);
  void answer(quint64 id, bool cancelled, const Answer& answer);  // on the owner's thread
  void run();                                                     // the worker's thread

  QString name_;
  Priority priority_;
  Replaced replaced_;
  quint64 last_answered_ = 0;  // owner's thread: answers never go back in time
  quint64 next_id_ = 0;
  quint64 newest_ = 0;  // the job whose answer is awaited (0: idle); owner's thread only
  std::mutex mutex_;    // guards what follows, shared with the worker's thread
  std::condition_variable wake_;
  std::optional<Waiting> waiting_;
  std::shared_ptr<std::atomic<bool>> running_cancel_;
  bool stopping_ = false;
  std::unique_ptr<QThread> thread_;  // started by the first submit()
};

template <class Work, class Done>
quint64 NewestWinsWorker::submit(Work work, Done done, std::function<void(const QString&)> failed) {
  constexpr bool takes_job = std::is_invocable_v<Work&, const Job&>;
  using Result = std::conditional_t<takes_job, std::invoke_result<Work&, const Job&>,
                                    std::invoke_result<Work&>>;
  using Value = typename Result::type;
  return enqueue([work = std::move(work), done = std::move(done), failed = std::move(failed),
                  name = name_](const Job& job) mutable -> Answer {
    try {
      const auto call = [&]() -> Value {
        if constexpr (takes_job)
          return work(job);
        else
          return work();
      };
      if constexpr (std::is_void_v<Value>) {
        call();
        return [done]() mutable { done(); };
      } else {
        // Shared: an Answer is a std::function, which must be copyable; the value moves out once.
        auto value = std::make_shared<Value>(call());
        return [done, value]() mutable { done(std::move(*value)); };
      }
    } catch (...) {
      return [failed, name, message = describe(std::current_exception())] {
        if (failed)
          failed(message);
        else
          log_failure(name, message);
      };
    }
  });
}

}  // namespace kinetic::app
