#pragma once
// CollisionMatrixJob: runs the allowed-collision-matrix generator (MoveIt Setup Assistant's
// "self-collisions" step) on a worker thread for the studio: progress while it samples, cancel at
// any time, and the result or the error back on the GUI thread. The generator itself uses every
// core; this object only keeps the interface responsive around it.
#include <QObject>
#include <QString>

#include "app/workers/newest_wins_worker.hpp"
#include "engine/collision/acm_generator.hpp"

namespace kinetic::app {

class CollisionMatrixJob : public QObject {
  Q_OBJECT
 public:
  explicit CollisionMatrixJob(QObject* parent = nullptr);
  ~CollisionMatrixJob()
      override;  // cancels and waits for a running generation (its answer is dropped)

  // Starts a generation (ignored while one runs). samples: random configurations to test.
  void start(RobotModelPtr robot, int samples);
  void cancel();
  bool running() const { return worker_.busy(); }
  // The latest finished result (valid after finished(true)).
  const AcmGeneratorResult& result() const { return result_; }
  RobotModelPtr robot() const { return robot_; }

 signals:
  void progress(int done, int total);
  // ok false: error is why (cancelled, bad model); the previous result stays.
  void finished(bool ok, const QString& error);

 private:
  RobotModelPtr robot_;
  AcmGeneratorResult result_;
  NewestWinsWorker worker_;  // last: its thread stops before the rest goes
};

// One line for the user: how many pairs each reason disabled and how many stay checked.
QString describe_collision_matrix(const AcmGeneratorResult& result);

}  // namespace kinetic::app
