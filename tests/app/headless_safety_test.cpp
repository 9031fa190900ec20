// Qt Test: what a hostile or mistaken job file cannot make a headless run do (issue 41): read a
// FIFO forever, write outside its output folder, replace a file the run reads, share one
// temporary between two outputs, or print a terminal escape. Every case exits with its code and
// a message naming the cause, quickly, and leaves nothing behind.
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <sstream>
#include <string>

#include "app/headless/headless_runner.hpp"
#include "app/headless/job_execution.hpp"
#include "engine/core/atomic_file.hpp"
#include "headless_job_run.hpp"

using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

using kinetic::test::mentions;

std::string job(const std::string& outputs, const std::string& extra = "") {
  return R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home", )" + extra +
         R"("steps": [{"goal": {"named": "ready"}, "options": {"timeout_ms": 300}}], "outputs": )" +
         outputs + "}";
}

struct Result {
  int code = -1;
  std::string out, err;
  qint64 ms = 0;
};

// The job file `name` in `dir` run as `kinetic-studio --headless dir/name`.
Result run_file(const fs::path& file) {
  kinetic::app::CommandLine line;
  line.headless = true;
  line.job = QString::fromStdString(file.string());
  std::ostringstream out, err;
  QElapsedTimer timer;
  timer.start();
  Result result;
  result.code = run_headless(line, out, err);
  result.ms = timer.elapsed();
  result.out = out.str();
  result.err = err.str();
  return result;
}

Result run_job_in(const fs::path& dir, const std::string& text) {
  kinetic::write_file_atomically(dir / "job.json", text);
  return run_file(dir / "job.json");
}

// The files of `dir` and below, the job file left out.
std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().filename() != "job.json")
      names.push_back(entry.path().lexically_relative(dir).string());
  return names;
}

// For as long as it lives, this process's effective user is `uid` (the tests run as root, which
// may replace anyone's file: a user's refusals are seen only as a user).
class EffectiveUser {
 public:
  explicit EffectiveUser(uid_t uid) : ok_(::seteuid(uid) == 0) {}
  ~EffectiveUser() {
    if (ok_) [[maybe_unused]]
      const int restored = ::seteuid(0);
  }
  EffectiveUser(const EffectiveUser&) = delete;
  EffectiveUser& operator=(const EffectiveUser&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_;
};

// Two outputs into dir/shared, a sticky folder anyone may write (as /tmp): a.json new, b.json an
// existing file of another user (uid 65533). The job file is readable by every user.
fs::path shared_folder_case(const fs::path& d) {
  fs::permissions(d, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                         fs::perms::others_read | fs::perms::others_exec);
  const fs::path shared = d / "shared";
  fs::create_directory(shared);
  fs::permissions(shared, fs::perms::all | fs::perms::sticky_bit);
  kinetic::write_file_atomically(shared / "b.json", "theirs");
  if (::chown((shared / "b.json").c_str(), 65533, 65533) != 0) return {};
  kinetic::write_file_atomically(
      d / "job.json",
      job(R"({"directory": "shared", "trajectories": [{"file": "a.json"}, {"file": "b.json"}]})"));
  fs::permissions(d / "job.json", fs::perms::owner_read | fs::perms::owner_write |
                                      fs::perms::group_read | fs::perms::others_read);
  return shared;
}

}  // namespace

class HeadlessSafetyTest : public QObject {
  Q_OBJECT
 private slots:
  void a_fifo_job_file_is_refused_at_once() {
    QTemporaryDir dir;
    const fs::path fifo = fs::path(dir.path().toStdString()) / "job.json";
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    const Result run = run_file(fifo);
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(mentions(run.err, "job file '" + fifo.string() +
                                   "' is a FIFO (named pipe), not a regular file"),
             run.err.c_str());
    QVERIFY2(run.ms < 10000, qPrintable(QString::number(run.ms)));
  }

  void a_fifo_scene_file_is_refused_at_once() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    QCOMPARE(::mkfifo((d / "scene.json").c_str(), 0600), 0);
    const Result run = run_job_in(d, job("{}", R"("scene": "scene.json", )"));
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(mentions(run.err, "scene file '" + (d / "scene.json").string() +
                                   "' is a FIFO (named pipe), not a regular file"),
             run.err.c_str());
    QVERIFY2(run.ms < 10000, qPrintable(QString::number(run.ms)));
  }

  void an_output_name_may_not_leave_the_output_folder() {
    QTemporaryDir dir;
    const fs::path d = fs::path(dir.path().toStdString()) / "jobs" / "a";
    fs::create_directories(d);
    const Result up = run_job_in(d, job(R"({"trajectories": [{"file": "../../x.json"}]})"));
    QCOMPARE(up.code, int(kExitBadJob));
    QVERIFY2(mentions(up.err, "outputs.trajectories[0].file") &&
                 mentions(up.err, "\"../../x.json\" leaves the output folder"),
             up.err.c_str());
    const Result absolute =
        run_job_in(d, job(R"({"screenshots": [{"file": "/tmp/kinetic-victim.png"}]})"));
    QCOMPARE(absolute.code, int(kExitBadJob));
    QVERIFY2(mentions(absolute.err, "\"/tmp/kinetic-victim.png\" is absolute") &&
                 mentions(absolute.err, "--output-dir"),
             absolute.err.c_str());
    const Result folder = run_job_in(
        d, job(R"({"directory": "/tmp/kinetic-victim", "trajectories": [{"file": "x.json"}]})"));
    QCOMPARE(folder.code, int(kExitBadJob));
    QVERIFY2(mentions(folder.err, "outputs.directory") && mentions(folder.err, "is absolute"),
             folder.err.c_str());
    const Result above =
        run_job_in(d, job(R"({"directory": "../b", "trajectories": [{"file": "x.json"}]})"));
    QCOMPARE(above.code, int(kExitBadJob));
    QVERIFY2(mentions(above.err, "\"../b\" leaves the job's folder"), above.err.c_str());
    QVERIFY(!fs::exists(fs::path(dir.path().toStdString()) / "x.json"));
    QVERIFY(!fs::exists("/tmp/kinetic-victim"));
    QVERIFY(files_in(fs::path(dir.path().toStdString())).size() == 2);  // jobs, jobs/a
  }

  void an_output_through_a_symlink_out_of_the_folder_is_refused() {
    QTemporaryDir dir, elsewhere;
    const fs::path d = dir.path().toStdString();
    fs::create_directory_symlink(elsewhere.path().toStdString(), d / "out");
    const Result run = run_job_in(d, job(R"({"trajectories": [{"file": "out/t.json"}]})"));
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(mentions(run.err, "outside the output folder") && mentions(run.err, "symbolic link"),
             run.err.c_str());
    QVERIFY(fs::is_empty(elsewhere.path().toStdString()));
  }

  // The adversarial table: an output folder that is itself a link out of the job's folder let a
  // job file write anywhere (its name, "out", passed the name check).
  void an_output_folder_that_links_out_of_the_jobs_folder_is_refused() {
    QTemporaryDir dir, elsewhere;
    const fs::path d = dir.path().toStdString();
    fs::create_directory_symlink(elsewhere.path().toStdString(), d / "out");
    const Result run =
        run_job_in(d, job(R"({"directory": "out", "trajectories": [{"file": "t.json"}]})"));
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(mentions(run.err, "outputs.directory") &&
                 mentions(run.err, "outside the job's folder") && mentions(run.err, "--output-dir"),
             run.err.c_str());
    QVERIFY(fs::is_empty(elsewhere.path().toStdString()));
  }

  void two_outputs_reaching_one_file_through_a_symlinked_folder_are_refused() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    fs::create_directory(d / "a");
    fs::create_directory_symlink("a", d / "b");
    const Result run =
        run_job_in(d, job(R"({"trajectories": [{"file": "a/t.json"}, {"file": "b/t.json"}]})"));
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(mentions(run.err, "are the same file " + (d / "a" / "t.json").string()),
             run.err.c_str());
    QVERIFY2(!mentions(run.out, "step 1"), run.out.c_str());  // refused before planning
    QVERIFY(fs::is_empty(d / "a"));
  }

  void output_names_with_control_characters_are_refused_and_printed_escaped() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    for (const char* name : {"a\\u001b[2Jb.json", "a\\nb.json", "a\\u009b31mb.json"}) {
      const Result run =
          run_job_in(d, job(std::string("{\"trajectories\": [{\"file\": \"") + name + "\"}]}"));
      QCOMPARE(run.code, int(kExitBadJob));
      QVERIFY2(mentions(run.err, "has a control character"), run.err.c_str());
      QVERIFY2(run.err.find('\x1b') == std::string::npos &&
                   run.err.find("a\nb") == std::string::npos &&
                   run.err.find("\xC2\x9B") == std::string::npos,
               run.err.c_str());
    }
    kinetic::app::CommandLine line;
    line.headless = true;
    line.goal_named = QStringLiteral("ready");
    line.output_dir = dir.path();
    line.exports = {QStringLiteral("plan\x1b[31m.json")};
    std::ostringstream out, err;
    QCOMPARE(run_headless(line, out, err), int(kExitBadJob));
    QVERIFY2(mentions(err.str(), "--export") && mentions(err.str(), "has a control character") &&
                 err.str().find('\x1b') == std::string::npos,
             err.str().c_str());
    QVERIFY(files_in(d).empty());
  }

  // A screenshot named like the URDF's texture replaced it: every file the robot was read from is
  // spared, compared where the output really goes (here through a symbolic link to the folder).
  void an_output_may_not_replace_a_texture_the_run_read() {
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const std::string texture = "\x89PNG not really";
    kinetic::write_file_atomically(d / "tex.png", texture);
    fs::create_directory_symlink(".", d / "same");
    kinetic::write_file_atomically(d / "arm.urdf", R"(<robot name="arm"><link name="base"/>
      <link name="upper"><visual><geometry><box size="0.1 0.1 0.1"/></geometry>
        <material name="m"><texture filename="tex.png"/></material></visual>
        <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
      <joint name="j1" type="revolute"><parent link="base"/><child link="upper"/><origin xyz="0 0 0.5"/>
        <axis xyz="0 0 1"/><limit lower="-1" upper="1" velocity="1" effort="1"/></joint></robot>)");
    for (const char* name : {"tex.png", "same/tex.png"}) {
      const Result shot = run_job_in(
          d, R"({"format": "kinetic-job", "version": 1, "robot": {"urdf": "arm.urdf"}, "start": [0],
                 "steps": [{"goal": {"joints": [0.5]}}], "outputs": {"screenshots": [{"file": ")" +
                 std::string(name) + R"(", "width": 64, "height": 48}]}})");
      QCOMPARE(shot.code, int(kExitBadJob));
      QVERIFY2(mentions(shot.err,
                        "would overwrite the texture of link 'upper' " + (d / "tex.png").string()),
               shot.err.c_str());
      QVERIFY2(!mentions(shot.out, "step 1"), shot.out.c_str());  // refused before planning
      QCOMPARE(kinetic::read_text_file(d / "tex.png"), texture);
    }
  }

  // All or nothing with a sticky folder (issue 41): the second output is another user's file in a
  // shared folder, which a user cannot replace there (the kernel refuses the rename: EPERM). The
  // run is refused before planning, naming the file, and the first output is not written either.
  void another_users_file_in_a_sticky_folder_is_refused_before_anything_is_written() {
    if (::geteuid() != 0) QSKIP("needs root to give a file to another user");
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const fs::path shared = shared_folder_case(d);
    QVERIFY(!shared.empty());
    Result run;
    {
      const EffectiveUser nobody(65534);
      QVERIFY(nobody.ok());
      run = run_file(d / "job.json");
    }
    QCOMPARE(::geteuid(), uid_t(0));
    QCOMPARE(run.code, int(kExitWriteFailed));
    QVERIFY2(
        mentions(run.err, "trajectory \"b.json\": " + (shared / "b.json").string() +
                              " belongs to another user in the shared folder " + shared.string()) &&
            mentions(run.err, "nothing was written"),
        run.err.c_str());
    QVERIFY2(!mentions(run.out, "step 1"), run.out.c_str());  // refused before planning
    QCOMPARE(kinetic::read_text_file(shared / "b.json"), std::string("theirs"));
    QCOMPARE(files_in(shared), std::vector<std::string>{"b.json"});  // no a.json, no temporary
    QVERIFY2(run.ms < 20000, std::to_string(run.ms).c_str());
  }

  // Root may replace any file in a sticky folder (CAP_FOWNER; the kernel allows the rename), so
  // the same job run as root is not refused: the check is for what the rename would do.
  void root_replaces_another_users_file_in_a_sticky_folder() {
    if (::geteuid() != 0) QSKIP("needs root to give a file to another user");
    QTemporaryDir dir;
    const fs::path d = dir.path().toStdString();
    const fs::path shared = shared_folder_case(d);
    QVERIFY(!shared.empty());
    const Result run = run_file(d / "job.json");
    QVERIFY2(run.code == int(kExitOk), run.err.c_str());
    QVERIFY(fs::exists(shared / "a.json"));
    QVERIFY(kinetic::read_text_file(shared / "b.json").find("kinetic-trajectory") !=
            std::string::npos);
  }

  // An output whose name is a mount point cannot be renamed over (EBUSY): refused before planning,
  // the first output not written (it was, with exit 4 after it).
  void an_output_that_is_a_mount_point_is_refused_before_anything_is_written() {
    QTemporaryDir dir, elsewhere;
    const fs::path d = dir.path().toStdString();
    const fs::path source = fs::path(elsewhere.path().toStdString()) / "source.json";
    kinetic::write_file_atomically(source, "mounted");
    kinetic::write_file_atomically(d / "b.json", "");
    if (::mount(source.c_str(), (d / "b.json").c_str(), nullptr, MS_BIND, nullptr) != 0)
      QSKIP("cannot bind-mount a file here (needs CAP_SYS_ADMIN)");
    const Result run =
        run_job_in(d, job(R"({"trajectories": [{"file": "a.json"}, {"file": "b.json"}]})"));
    const bool unmounted = ::umount((d / "b.json").c_str()) == 0;
    QVERIFY(unmounted);
    QCOMPARE(run.code, int(kExitWriteFailed));
    QVERIFY2(mentions(run.err,
                      "trajectory \"b.json\": " + (d / "b.json").string() + " is a mount point"),
             run.err.c_str());
    QVERIFY2(!mentions(run.out, "step 1"), run.out.c_str());
    QVERIFY(!fs::exists(d / "a.json"));
    QCOMPARE(kinetic::read_text_file(source), std::string("mounted"));
  }

  void a_job_of_version_0_is_refused() {
    QTemporaryDir dir;
    std::string text = job("{}");
    text.replace(text.find("\"version\": 1"), 12, "\"version\": 0");
    const Result run = run_job_in(dir.path().toStdString(), text);
    QCOMPARE(run.code, int(kExitBadJob));
    QVERIFY2(mentions(run.err, "version: 0 is no version of the job format"), run.err.c_str());
  }
};

QTEST_GUILESS_MAIN(HeadlessSafetyTest)
#include "headless_safety_test.moc"
