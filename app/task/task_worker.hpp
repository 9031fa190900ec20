#pragma once
// TaskWorker: plans and times pick-and-place tasks on its own thread, each with a fresh engine
// Planner for the request's robot and scene (the task changes the planner's scene stage by stage).
// The outcome comes back as the queued signal finished(). The newest request wins: submitting
// cancels the one running, and cancel() stops it within milliseconds (the engine polls the flag).
#include <QObject>
#include <atomic>

#include "app/task/task_request.hpp"
#include "app/workers/newest_wins_worker.hpp"

namespace kinetic::app {

class TaskWorker : public QObject {
  Q_OBJECT
 public:
  explicit TaskWorker(QObject* parent = nullptr);
  ~TaskWorker() override;

  // Returns the request id (the outcome carries it).
  quint64 submit(TaskRequest request);
  void cancel();
  bool busy() const { return worker_.busy(); }

 signals:
  void finished(const kinetic::app::TaskOutcome& outcome);
  void busyChanged(bool busy);

 private:
  NewestWinsWorker worker_;
};

// Runs one request on the calling thread (what the worker thread does).
TaskOutcome run_task(const TaskRequest& request, const std::atomic<bool>* cancel);

}  // namespace kinetic::app
