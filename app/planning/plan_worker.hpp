#pragma once
// PlanWorker: runs the engine Planner on its own thread. One Planner is kept per robot, planning
// group and scene revision (so PRM roadmaps are reused between queries). Each request is planned,
// timed with the requested parameterization and validated (limits and collisions) on that thread;
// the outcome comes back as the queued signal finished(). The newest request wins: submitting
// cancels the one running, and cancel() stops the search within milliseconds (the engine polls the
// flag).
#include <QObject>
#include <memory>

#include "app/planning/plan_request.hpp"
#include "app/workers/newest_wins_worker.hpp"

namespace kinetic::app {

class PlanEngine;

class PlanWorker : public QObject {
  Q_OBJECT
 public:
  explicit PlanWorker(QObject* parent = nullptr);
  ~PlanWorker() override;

  // Returns the request id (the outcome carries it).
  quint64 submit(PlanRequest request);
  void cancel();
  bool busy() const { return worker_.busy(); }

 signals:
  // phase: "planning", "shortcutting", "smoothing", "validating", "timing"; throttled to ~20 Hz.
  void progress(quint64 id, const QString& phase, double elapsed_ms, int iterations, int tree_size);
  void finished(const kinetic::app::PlanOutcome& outcome);
  void busyChanged(bool busy);

 private:
  std::shared_ptr<PlanEngine> engine_;  // the worker's jobs' only
  NewestWinsWorker worker_;             // last: its thread stops before the rest goes
};

// A failure's likely fix, for people: built from the engine's code and hint.
QString likely_fix(const PlanOutcome& outcome);

}  // namespace kinetic::app

Q_DECLARE_METATYPE(kinetic::app::PlanOutcome)
