// Qt Test: the studio's one "newest request wins" worker (app/workers/newest_wins_worker.hpp),
// with real threads: only the newest job's answer comes, a job replaced while waiting never runs,
// the running one sees its cancel flag, cancel() still answers and abandon() does not, progress of
// a replaced job is dropped, a throwing job answers with its error and the worker goes on, and
// destroying the worker with work in flight stops and joins it without an answer.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QThread>
#include <QtTest>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "app/workers/newest_wins_worker.hpp"
#include "engine/core/error.hpp"

using kinetic::app::NewestWinsWorker;
using WorkerJob = NewestWinsWorker::Job;

namespace {

// A job that runs until it is cancelled (or `limit` passes), then answers how it ended.
struct Blocking {
  std::shared_ptr<std::atomic<bool>> started = std::make_shared<std::atomic<bool>>(false);
  QString operator()(const WorkerJob& job) const {
    started->store(true);
    QElapsedTimer timer;
    timer.start();
    while (!job.cancelled() && timer.elapsed() < 10000)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return job.cancelled() ? QStringLiteral("cancelled") : QStringLiteral("timed out");
  }
};

bool wait_until(const std::atomic<bool>& flag) {
  return QTest::qWaitFor([&] { return flag.load(); }, 5000);
}

}  // namespace

class NewestWinsWorkerTest : public QObject {
  Q_OBJECT
 private slots:
  void answers_on_the_owners_thread_and_runs_jobs_on_its_own() {
    NewestWinsWorker worker(QStringLiteral("test"));
    QSignalSpy busy(&worker, &NewestWinsWorker::busyChanged);
    Qt::HANDLE work_thread = nullptr;
    Qt::HANDLE answer_thread = nullptr;
    int answer = 0;
    worker.submit(
        [&] {
          work_thread = QThread::currentThreadId();
          return 42;
        },
        [&](int value) {
          answer_thread = QThread::currentThreadId();
          answer = value;
        });
    QVERIFY(worker.busy());
    QTRY_COMPARE(answer, 42);
    QVERIFY(!worker.busy());
    QVERIFY(work_thread != nullptr && work_thread != QThread::currentThreadId());
    QCOMPARE(answer_thread, QThread::currentThreadId());
    QCOMPARE(busy.count(), 2);
    QCOMPARE(busy.at(0).at(0).toBool(), true);
    QCOMPARE(busy.at(1).at(0).toBool(), false);
  }

  void only_the_newest_answers_and_a_replaced_waiting_job_never_runs() {
    NewestWinsWorker worker(QStringLiteral("test"));
    Blocking first;
    QStringList answers;
    std::atomic<int> middle_runs{0};
    worker.submit(first, [&](const QString& how) { answers << QStringLiteral("first ") + how; });
    QVERIFY(wait_until(*first.started));
    // While the first runs: the second waits and is replaced by the third before it can start.
    worker.submit(
        [&] {
          ++middle_runs;
          return 2;
        },
        [&](int) { answers << QStringLiteral("second"); });
    const quint64 third =
        worker.submit([] { return 3; }, [&](int value) { answers << QString::number(value); });
    QVERIFY(worker.is_newest(third));
    QTRY_VERIFY(!worker.busy());
    QTest::qWait(50);  // any late answer would arrive now
    QCOMPARE(answers, QStringList{QStringLiteral("3")});
    QCOMPARE(middle_runs.load(), 0);
  }

  void a_newer_job_cancels_the_running_one() {
    NewestWinsWorker worker(QStringLiteral("test"));
    Blocking first;
    std::shared_ptr<std::atomic<bool>> saw_cancel = std::make_shared<std::atomic<bool>>(false);
    worker.submit(
        [first, saw_cancel](const WorkerJob& job) {
          const QString how = first(job);
          saw_cancel->store(how == QStringLiteral("cancelled"));
          return how;
        },
        [](const QString&) { QFAIL("the replaced job answered"); });
    QVERIFY(wait_until(*first.started));
    QElapsedTimer timer;
    timer.start();
    bool second = false;
    worker.submit([] { return 0; }, [&](int) { second = true; });
    QTRY_VERIFY(second);
    QVERIFY(saw_cancel->load());
    QVERIFY2(timer.elapsed() < 5000, "the running job was not told to stop");
  }

  void a_replaced_job_let_finish_answers_before_the_newest() {
    NewestWinsWorker worker(QStringLiteral("test"), NewestWinsWorker::Priority::Background, nullptr,
                            NewestWinsWorker::Replaced::Finish);
    auto release = std::make_shared<std::atomic<bool>>(false);
    std::atomic<bool> started{false};
    QStringList answers;
    worker.submit(
        [release, &started](const WorkerJob& job) {
          started = true;
          while (!release->load() && !job.cancelled())
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
          return job.cancelled() ? QStringLiteral("first stopped") : QStringLiteral("first");
        },
        [&](const QString& how) { answers << how; });
    QVERIFY(wait_until(started));
    worker.submit([] { return QStringLiteral("second"); },
                  [&](const QString& how) { answers << how; });  // replaced
    worker.submit([] { return QStringLiteral("third"); },
                  [&](const QString& how) { answers << how; });
    release->store(true);  // within the grace: the first finishes on its own
    QTRY_VERIFY(!worker.busy());
    QTest::qWait(50);
    QCOMPARE(answers, (QStringList{QStringLiteral("first"), QStringLiteral("third")}));
  }

  void a_replaced_job_past_its_grace_is_stopped_and_not_answered() {
    NewestWinsWorker worker(QStringLiteral("test"), NewestWinsWorker::Priority::Background, nullptr,
                            NewestWinsWorker::Replaced::Finish);
    Blocking endless;  // ends only when told to
    QStringList answers;
    worker.submit(endless, [&](const QString& how) { answers << how; });
    QVERIFY(wait_until(*endless.started));
    QElapsedTimer timer;
    timer.start();
    worker.submit([] { return QStringLiteral("newest"); },
                  [&](const QString& how) { answers << how; });
    QTRY_VERIFY(!worker.busy());
    QVERIFY2(timer.elapsed() >= NewestWinsWorker::kFinishGraceMs - 5, "stopped before its grace");
    QVERIFY2(timer.elapsed() < 5000, "never stopped");
    QTest::qWait(50);
    QCOMPARE(answers, QStringList{QStringLiteral("newest")});
  }

  void cancel_still_answers_and_abandon_does_not() {
    NewestWinsWorker worker(QStringLiteral("test"));
    Blocking job;
    QString answer;
    worker.submit(job, [&](const QString& how) { answer = how; });
    QVERIFY(wait_until(*job.started));
    worker.cancel();
    QTRY_COMPARE(answer, QStringLiteral("cancelled"));
    QVERIFY(!worker.busy());

    Blocking second;
    bool answered = false;
    QSignalSpy busy(&worker, &NewestWinsWorker::busyChanged);
    worker.submit(second, [&](const QString&) { answered = true; });
    QVERIFY(wait_until(*second.started));
    worker.abandon();
    QVERIFY(!worker.busy());  // idle at once
    QCOMPARE(busy.count(), 2);
    QTest::qWait(100);
    QVERIFY(!answered);
    // The worker goes on after both.
    int value = 0;
    worker.submit([] { return 7; }, [&](int v) { value = v; });
    QTRY_COMPARE(value, 7);
  }

  void a_job_cancelled_before_it_starts_still_runs_and_sees_the_flag() {
    NewestWinsWorker worker(QStringLiteral("test"));
    Blocking first;
    worker.submit(first, [](const QString&) {});
    QVERIFY(wait_until(*first.started));
    QString answer;
    worker.submit(
        [](const WorkerJob& job) {
          return job.cancelled() ? QStringLiteral("cancelled at start") : QStringLiteral("ran");
        },
        [&](const QString& how) { answer = how; });
    worker.cancel();  // the newest, still waiting behind the first
    QTRY_COMPARE(answer, QStringLiteral("cancelled at start"));
  }

  void progress_of_a_replaced_job_is_dropped() {
    NewestWinsWorker worker(QStringLiteral("test"));
    std::vector<int> reports;
    std::atomic<bool> started{false};
    auto release = std::make_shared<std::atomic<bool>>(false);
    worker.submit(
        [&reports, &started, release](const WorkerJob& job) {
          started = true;
          while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          job.report([&reports] { reports.push_back(1); });  // after it was replaced: dropped
          return 0;
        },
        [](int) {});
    QVERIFY(wait_until(started));
    worker.submit(
        [&reports](const WorkerJob& job) {
          job.report([&reports] { reports.push_back(2); });  // replaced while waiting: never runs
          return 0;
        },
        [](int) {});
    bool done = false;
    worker.submit(
        [&reports](const WorkerJob& job) {
          job.report([&reports] { reports.push_back(3); });
          return 0;
        },
        [&](int) { done = true; });
    release->store(true);
    QTRY_VERIFY(done);
    QTest::qWait(50);
    // The newest job's report came before its answer; the others' never did.
    QCOMPARE(reports, std::vector<int>{3});
  }

  void a_job_that_throws_answers_with_its_error_and_the_worker_goes_on() {
    NewestWinsWorker worker(QStringLiteral("test"));
    QString error;
    bool done = false;
    worker.submit(
        []() -> int {
          throw kinetic::Error(kinetic::ErrorCode::InvalidValue, "no such joint 'x'");
        },
        [&](int) { done = true; }, [&](const QString& message) { error = message; });
    QTRY_VERIFY(!error.isEmpty());
    QVERIFY2(error.contains(QStringLiteral("no such joint 'x'")), qPrintable(error));
    QVERIFY(!done && !worker.busy());
    // Without a handler the error goes to the log, and the worker still answers the next job.
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("test failed: .*boom")));
    worker.submit([]() -> int { throw std::runtime_error("boom"); }, [](int) {});
    QTRY_VERIFY(!worker.busy());
    int value = 0;
    worker.submit([] { return 5; }, [&](int v) { value = v; });
    QTRY_COMPARE(value, 5);
  }

  void destroying_it_with_work_in_flight_stops_the_job_and_answers_nothing() {
    Blocking running;
    bool answered = false;
    std::atomic<int> waiting_runs{0};
    QElapsedTimer timer;
    {
      NewestWinsWorker worker(QStringLiteral("test"));
      worker.submit(running, [&](const QString&) { answered = true; });
      QVERIFY(wait_until(*running.started));
      worker.submit([&] { return ++waiting_runs; }, [&](int) { answered = true; });
      timer.start();
    }  // cancels the running job, drops the waiting one, joins
    QVERIFY2(timer.elapsed() < 5000, "the destructor waited for the job instead of stopping it");
    QTest::qWait(50);
    QVERIFY(!answered);
    QCOMPARE(waiting_runs.load(), 0);
  }

  void an_idle_worker_has_no_thread_to_join() {
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < 100; ++i) NewestWinsWorker unused(QStringLiteral("unused"));
    QVERIFY(timer.elapsed() < 2000);
  }
};

QTEST_MAIN(NewestWinsWorkerTest)
#include "newest_wins_worker_test.moc"
