// Qt Test: headless job files — the example parses, and every kind of mistake is reported with the
// JSON field (or line and column) that causes it.
#include <QtTest>

#include <filesystem>

#include "app/headless/job_file.hpp"
#include "app/headless/job_rendering.hpp"
#include "support/test_paths.hpp"

using namespace kinetic::app::headless;
namespace fs = std::filesystem;

namespace {

const char* kMinimal = R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home",
  "steps": [{"goal": {"named": "ready"}}]})";

// The message parse_job throws for `text` ("" when it parses).
QString error_for(const std::string& text) {
  try {
    parse_job(text, "job.json", "/jobs");
  } catch (const JobError& error) {
    return QString::fromStdString(error.what());
  }
  return {};
}

// kMinimal with one step replaced.
std::string with_step(const std::string& step) {
  return R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home", "steps": [{"goal": {"named": "ready"}}, )" +
         step + "]}";
}

}  // namespace

class JobFileTest : public QObject {
  Q_OBJECT
 private slots:
  void example_job_parses() {
    const fs::path path =
        fs::path(kinetic::test::test_source_dir()) / "../examples/jobs/ur5e_pick_around_box.json";
    const Job job = load_job(path);
    QCOMPARE(job.robot.builtin, std::string("ur5e"));
    QVERIFY(fs::exists(job.scene.file));
    QCOMPARE(job.start.named, std::string("home"));
    QCOMPARE(job.steps.size(), size_t(2));
    QCOMPARE(job.steps[0].name, std::string("over_box"));
    QCOMPARE(int(job.steps[0].goal_kind), int(StepSpec::GoalKind::Pose));
    QCOMPARE(job.steps[0].options.seed, std::uint64_t(7));  // from "defaults"
    QCOMPARE(job.steps[0].velocity_scaling.value_or(0.0), 0.5);
    QCOMPARE(int(job.steps[1].timing), int(Timing::SCurve));  // the step's own setting wins
    QCOMPARE(job.exports.size(), size_t(4));
    QCOMPARE(job.exports[0].trajectory, kWholeMotion);
    QCOMPARE(job.exports[2].trajectory, 0);
    QCOMPARE(job.screenshots.size(), size_t(1));
    QVERIFY(job.screenshots[0].image.ghost_start && job.screenshots[0].image.ghost_goals);
    QCOMPARE(job.frames.size(), size_t(1));
    QCOMPARE(job.frames[0].count, 12);
    QCOMPARE(job.frames[0].image.width, 640u);
    QCOMPARE(job.output_directory,
             (fs::absolute(path).parent_path() / "output").lexically_normal());
  }

  void relative_paths_are_relative_to_the_job() {
    const Job job = parse_job(R"({"format": "kinetic-job", "version": 1,
      "robot": {"urdf": "r/robot.urdf", "config": "/abs/kinetic.toml", "package_paths": ["pkgs"]},
      "scene": "s.json", "start": [0, 0], "steps": [{"goal": {"joints": [1, 2]}}]})",
                              "job.json", "/jobs");
    QCOMPARE(job.robot.urdf, fs::path("/jobs/r/robot.urdf"));
    QCOMPARE(job.robot.config.value(), fs::path("/abs/kinetic.toml"));
    QCOMPARE(job.robot.package_paths.front(), std::string("/jobs/pkgs"));
    QCOMPARE(job.scene.file, fs::path("/jobs/s.json"));
    QCOMPARE(job.start.joints.size(), size_t(2));
  }

  // A URDF's "srdf" / "config" left out: the file found beside it (std::nullopt); "": none. With
  // a built-in robot either key is refused, even empty.
  void srdf_and_config_are_found_named_or_none() {
    const auto robot = [](const std::string& fields) {
      return parse_job(
                 R"({"format": "kinetic-job", "version": 1, "robot": {"urdf": "r/robot.urdf" )" +
                     fields + R"(}, "steps": [{"goal": {"joints": [1, 2]}}]})",
                 "job.json", "/jobs")
          .robot;
    };
    QVERIFY(!robot("").srdf && !robot("").config);
    const auto none = robot(R"(, "srdf": "", "config": "")");
    QVERIFY(none.srdf && none.srdf->empty() && none.config && none.config->empty());
    QCOMPARE(robot(R"(, "srdf": "s/robot.srdf")").srdf.value(), fs::path("/jobs/s/robot.srdf"));
    QVERIFY(
        error_for(R"({"format": "kinetic-job", "version": 1, "robot": {"name": "ur5e", "srdf": ""},
      "steps": [{"goal": {"named": "ready"}}]})")
            .contains(QStringLiteral("\"srdf\" and \"config\" go with \"urdf\"")));
  }

  // A job may leave the start out: it then starts where the robot rests (headless runner tests).
  void a_job_without_a_start_starts_from_the_robot() {
    const Job job = parse_job(R"({"format": "kinetic-job", "version": 1, "robot": "ur5e",
      "steps": [{"goal": {"named": "ready"}}]})",
                              "job.json", "/jobs");
    QVERIFY(job.start.robot_default);
    QVERIFY(job.start.named.empty() && job.start.joints.empty());
    QVERIFY(!parse_job(kMinimal, "job.json", "/jobs").start.robot_default);
  }

  void goals_of_every_kind() {
    const Job job = parse_job(
        R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home", "steps": [
      {"goal": {"joints": [0, 1, 2, 3, 4, 5]}},
      {"goal": {"pose": {"xyz": [0.4, 0.1, 0.3], "quaternion": [1, 0, 0, 0]}}},
      {"goal": {"relative": {"xyz": [0, 0, 0.1], "frame": "base"}}, "planner": "prm", "options": {"timeout_ms": 500}}]})",
        "job.json", "/jobs");
    QCOMPARE(job.steps[0].goal_state.joints.size(), size_t(6));
    QVERIFY(job.steps[1].goal_pose.translation().isApprox(kinetic::Vector3(0.4, 0.1, 0.3)));
    QVERIFY(job.steps[1].goal_pose.linear().isApprox(kinetic::rotation_from_rpy(M_PI, 0, 0)));
    QCOMPARE(int(job.steps[2].relative_frame), int(kinetic::RelativeGoal::Frame::Base));
    QCOMPARE(job.steps[2].options.planner, kinetic::PlannerType::Prm);
    QCOMPARE(job.steps[2].options.timeout_ms, 500.0);
    QCOMPARE(job.steps[2].name, std::string("step3"));
  }

  void errors_name_the_field_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected");
    QTest::newRow("xyz size") << QString::fromStdString(
                                     with_step(R"({"goal": {"pose": {"xyz": [1, 2]}}})"))
                              << "steps[1].goal.pose.xyz: expected 3 numbers in xyz, got 2";
    QTest::newRow("xyz type") << QString::fromStdString(
                                     with_step(R"({"goal": {"pose": {"xyz": [1, "a", 2]}}})"))
                              << "steps[1].goal.pose.xyz[1]: expected a number, got a string";
    QTest::newRow("two goals") << QString::fromStdString(
                                      with_step(R"({"goal": {"named": "a", "joints": [1]}})"))
                               << "steps[1].goal: give exactly one of";
    QTest::newRow("typo") << QString::fromStdString(
                                 with_step(R"({"goal": {"named": "a"}, "plannner": "prm"})"))
                          << "steps[1].plannner: unknown field (did you mean 'planner'";
    QTest::newRow("planner") << QString::fromStdString(
                                    with_step(R"({"goal": {"named": "a"}, "planner": "rrt"})"))
                             << "steps[1].planner: ";
    QTest::newRow("scaling") << QString::fromStdString(
                                    with_step(R"({"goal": {"named": "a"}, "velocity_scaling": 2})"))
                             << "steps[1].velocity_scaling: must be in [";
    QTest::newRow("timing") << QString::fromStdString(
                                   with_step(R"({"goal": {"named": "a"}, "timing": "fast"})"))
                            << "steps[1].timing: unknown time parameterization \"fast\"";
    QTest::newRow("seed") << QString::fromStdString(
                                 with_step(R"({"goal": {"named": "a"}, "options": {"seed": -1}})"))
                          << "steps[1].options.seed: must be in [0";
    QTest::newRow("workspace size")
        << QString::fromStdString(with_step(
               R"({"goal": {"named": "a"}, "options": {"workspace": {"min": [0, 0], "max": [1, 1, 1]}}})"))
        << "steps[1].options.workspace.min: expected 3 numbers in min, got 2";
    QTest::newRow("workspace inverted")
        << QString::fromStdString(with_step(
               R"({"goal": {"named": "a"}, "options": {"workspace": {"min": [0, 0, 0], "max": [1, -1, 1]}}})"))
        << "steps[1].options: planner option 'workspace' needs finite bounds with min < max";
    QTest::newRow("duplicate name")
        << QString::fromStdString(with_step(R"({"name": "step1", "goal": {"named": "a"}})"))
        << "steps[1].name: \"step1\" names an earlier step too";
    QTest::newRow("format")
        << R"({"format": "kinetic-plan", "version": 1})"
        << "format: expected \"kinetic-job\", got \"kinetic-plan\" (is this a job file?)";
    // The format before any other key: a file without one fails on it, not on its first key.
    QTest::newRow("no format") << R"({"camera": {}, "version": 1})"
                               << "format: missing: a job file starts with";
    QTest::newRow("newer") << R"({"format": "kinetic-job", "version": 2})"
                           << "version: version 2 is newer";
    QTest::newRow("no steps")
        << R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home", "steps": []})"
        << "steps: expected a non-empty array";
    QTest::newRow("robot both")
        << R"({"format": "kinetic-job", "version": 1, "robot": {"name": "ur5e", "urdf": "a.urdf"}})"
        << "robot: give either";
    const std::string head =
        R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "start": "home",
      "steps": [{"name": "a", "goal": {"named": "ready"}}], "outputs": )";
    QTest::newRow("export ext") << QString::fromStdString(
                                       head + R"({"trajectories": [{"file": "t.txt"}]}})")
                                << "outputs.trajectories[0].file: \"t.txt\" needs the extension "
                                   "'.json', '.csv', '.yaml', '.yml' or '.script'";
    QTest::newRow("export step")
        << QString::fromStdString(head +
                                  R"({"trajectories": [{"file": "t.csv", "trajectory": "b"}]}})")
        << "outputs.trajectories[0].trajectory: no step named \"b\"";
    QTest::newRow("same file")
        << QString::fromStdString(head +
                                  R"({"trajectories": [{"file": "t.csv"}, {"file": "./t.csv"}]}})")
        << "outputs.trajectories[1].file: \"./t.csv\" is written by another output too";
    QTest::newRow("view")
        << QString::fromStdString(
               head + R"({"screenshots": [{"file": "a.png", "camera": {"view": "side"}}]}})")
        << "outputs.screenshots[0].camera.view: unknown view \"side\"";
    QTest::newRow("eye alone")
        << QString::fromStdString(
               head + R"({"screenshots": [{"file": "a.png", "camera": {"eye": [1, 1, 1]}}]}})")
        << "outputs.screenshots[0].camera.target: missing";
    QTest::newRow("width") << QString::fromStdString(
                                  head + R"({"screenshots": [{"file": "a.png", "width": 4}]}})")
                           << "outputs.screenshots[0].width: must be in [16, 8192], got 4";
    QTest::newRow("pattern") << QString::fromStdString(
                                    head + R"({"frames": [{"pattern": "f.png", "count": 3}]}})")
                             << "outputs.frames[0].pattern: needs a run of '#'";
    QTest::newRow("two runs of #")
        << QString::fromStdString(
               head + "{\"frames\": [{\"pattern\": \"f\x23_\x23\x23.png\", \"count\": 3}]}}")
        << "outputs.frames[0].pattern: has more than one run of '#'";
    QTest::newRow("# in a folder")
        << QString::fromStdString(
               head + "{\"frames\": [{\"pattern\": \"d\x23/f\x23.png\", \"count\": 3}]}}")
        << "outputs.frames[0].pattern: has '#' in a folder name";
    QTest::newRow("duplicate top-level key")
        << QString::fromStdString(
               R"({"format": "kinetic-job", "version": 1, "robot": "ur5e", "steps": [{"goal": {"named": "ready"}}],
                                      "steps": [{"goal": {"named": "home"}}]})")
        << "\"steps\" is given twice";
    QTest::newRow("duplicate nested key")
        << QString::fromStdString(
               head +
               R"({"screenshots": [{"file": "a.png"}, {"file": "b.png", "width": 64, "width": 32}]}})")
        << "outputs.screenshots[1]: \"width\" is given twice";
    QTest::newRow("count and fps")
        << QString::fromStdString(
               head + "{\"frames\": [{\"pattern\": \"f\x23.png\", \"count\": 3, \"fps\": 2}]}}")
        << "outputs.frames[0]: give either \"count\" or \"fps\"";
    QTest::newRow("frames write a screenshot")
        << QString::fromStdString(head +
                                  "{\"screenshots\": [{\"file\": \"f_07.png\"}], \"frames\": "
                                  "[{\"pattern\": \"f_\x23.png\", \"count\": 12}]}}")
        << "outputs.frames[0].pattern: \"f_#.png\" writes the file of outputs.screenshots[0] "
           "(\"f_07.png\")";
    QTest::newRow("frames may write a screenshot")
        << QString::fromStdString(head +
                                  "{\"screenshots\": [{\"file\": \"f_123.png\"}], \"frames\": "
                                  "[{\"pattern\": \"./f_\x23.png\", \"fps\": 10}]}}")
        << "outputs.frames[0].pattern: \"./f_#.png\" may write the file of outputs.screenshots[0] "
           "(\"f_123.png\"), as its number";
  }
  void errors_name_the_field() {
    QFETCH(QString, text);
    QFETCH(QString, expected);
    const QString message = error_for(text.toStdString());
    QVERIFY2(message.startsWith(expected), qPrintable("got: " + message));
  }

  void malformed_json_gives_line_and_column() {
    const QString message = error_for("{\n  \"format\": \"kinetic-job\",\n  \"version\": 1,,\n}");
    QVERIFY2(message.startsWith("job.json:3:"), qPrintable(message));
    QVERIFY(message.contains("malformed JSON"));
  }

  void strict_json_rules_apply_before_qt_reads_the_job() {
    // Qt takes a raw tab inside a string; the duplicate-key pass (nlohmann) did not, gave up
    // silently, and a second "steps" ran instead of the first. Found by fuzzing.
    const QString tab = error_for(
        "{\"format\": \"kinetic-job\", \"version\": 1, \"robot\": \"ur5e\",\n"
        " \"comment\": \"a\tb\", \"steps\": [{\"goal\": {\"named\": \"ready\"}}],\n"
        " \"steps\": [{\"goal\": {\"named\": \"home\"}}]}");
    QVERIFY2(tab.startsWith("job.json: malformed JSON: line 2, column"), qPrintable(tab));
    QVERIFY2(tab.contains("control character U+0009"), qPrintable(tab));
    // Nesting Qt reads (under its 1024 levels) but nlohmann's writer would recurse through.
    const QString deep =
        error_for("{\"format\": \"kinetic-job\", \"comment\": " + std::string(300, '[') +
                  std::string(300, ']') + "}");
    QVERIFY2(deep.contains("nest more than 256 levels deep"), qPrintable(deep));
    // A NUL in a key used to end the message before it began: it printed as "".
    const QString nul = error_for(R"({"format": "kinetic-job", "\u0000x": 1})");
    QVERIFY2(nul.startsWith("\\u0000x: unknown field"), qPrintable(nul));
  }

  void a_control_character_in_a_value_is_printed_escaped() {
    // what() is a C string: a NUL in a quoted value ended the message there. Found by fuzzing.
    const QString message = error_for(R"({"format": "kinetic-job", "version": 1, "robot": "ur5e",
                                          "steps": [{"goal": {"named": "ready"}, "timing": "s\u0000x\u0008"}]})");
    QVERIFY2(message.contains(
                 QStringLiteral("unknown time parameterization \"s\\u0000x\\u0008\"; expected")),
             qPrintable(message));
  }

  void defaults_no_step_takes_are_refused() {
    // A job of pick_place steps dropped "defaults": { "timing", "constraints" } without a word
    // (the step itself may not give them). Found by fuzzing.
    const std::string head =
        "{\"format\": \"kinetic-job\", \"version\": 1, \"robot\": \"ur5e\", \"defaults\": ";
    const std::string pick =
        ", \"steps\": [{\"pick_place\": {\"object\": \"box\", \"place\": {\"xyz\": [0.4, 0.2, "
        "0.1]}}}]}";
    const QString timing = error_for(head + "{\"timing\": \"scurve\"}" + pick);
    QVERIFY2(timing.startsWith("defaults.timing: no step takes it"), qPrintable(timing));
    const QString constraints = error_for(
        head + "{\"constraints\": {\"joints\": [{\"joint\": \"j\", \"min\": 0, \"max\": 1}]}}" +
        pick);
    QVERIFY2(constraints.startsWith("defaults.constraints: no step takes it"),
             qPrintable(constraints));
    // With a goal step beside it, the goal step takes them.
    const std::string both =
        ", \"steps\": [{\"goal\": {\"named\": \"ready\"}}, {\"pick_place\": {\"object\": \"box\", "
        "\"place\": {\"xyz\": [0.4, 0.2, 0.1]}}}]}";
    QCOMPARE(error_for(head + "{\"timing\": \"scurve\"}" + both), QString());
  }

  // A session, a scene or a URDF given as the job is said as what it is, with where it goes.
  void other_kinds_of_files_are_said_as_what_they_are() {
    const auto said = [](const std::string& text, const std::string& name) {
      try {
        parse_job(text, name, "/jobs");
      } catch (const JobError& error) {
        return QString::fromStdString(error.what());
      }
      return QString();
    };
    QCOMPARE(
        said(R"({"format": "kinetic-session", "version": 1, "camera": {}})", "a.kinetic-session"),
        QStringLiteral(
            "a.kinetic-session: this is a Kinetic session file, not a job: open it in the studio "
            "(kinetic-studio a.kinetic-session)"));
    QCOMPARE(
        said(R"({"format": "kinetic-scene", "version": 1, "obstacles": []})", "my scene.json"),
        QStringLiteral(
            "my scene.json: this is a scene file, not a job: pass it with --scene 'my scene.json', "
            "or name it as a job's \"scene\""));
    const QString urdf = QStringLiteral("this is a URDF, not a job: use --robot ");
    QVERIFY(said("<?xml version=\"1.0\"?>\n<robot name=\"r\"/>", "r.xml")
                .contains(urdf + "r.xml with a goal flag"));
    QVERIFY(said("", "arm.URDF").contains(urdf + "arm.URDF with a goal flag (--goal-named"));
    QVERIFY(said(R"({"format": "kinetic-trajectory", "version": 1})", "t.json")
                .contains(QStringLiteral("this is a trajectory file, not a job: import it")));
  }

  // An unknown top-level key lists every job key (there are 9): the one meant was cut off before.
  void an_unknown_field_lists_every_known_one_when_few() {
    const QString message = error_for(R"({"format": "kinetic-job", "version": 1, "zzzzzzzz": 1})");
    QVERIFY2(message.startsWith("zzzzzzzz: unknown field (known names: ") &&
                 message.contains("'comment'") && !message.contains("more)"),
             qPrintable(message));
  }

  void minimal_job_defaults() {
    const Job job = parse_job(kMinimal, "job.json", "/jobs");
    QCOMPARE(job.steps[0].name, std::string("step1"));
    QCOMPARE(int(job.steps[0].timing), int(Timing::TimeOptimal));
    QCOMPARE(job.steps[0].options.timeout_ms, kinetic::default_preset().timeout_ms);
    QCOMPARE(job.output_directory, fs::path("/jobs"));
    QVERIFY(job.exports.empty() && job.screenshots.empty() && job.frames.empty());
  }

  void frame_names_and_times() {
    QCOMPARE(frame_file("frames/f_###.png", 7, 12), std::string("frames/f_007.png"));
    QCOMPARE(frame_file("f#.png", 7, 12), std::string("f07.png"));  // widened so names sort
    FramesSpec spec;
    spec.count = 5;
    const auto even = frame_times(spec, 2.0);
    QCOMPARE(even.size(), size_t(5));
    QCOMPARE(even.front(), 0.0);
    QCOMPARE(even.back(), 2.0);
    spec.count = 0;
    spec.fps = 2;
    const auto rate = frame_times(spec, 1.2);
    QCOMPARE(rate.size(), size_t(4));  // 0, 0.5, 1.0 and the last instant 1.2
    QCOMPARE(rate.back(), 1.2);
  }

  void number_lists() {
    QCOMPARE(parse_number_list("0, -1.57 0 1e-1", "--goal-joints").size(), size_t(4));
    QVERIFY_THROWS_EXCEPTION(JobError, parse_number_list("0 x", "--goal-joints"));
  }
};

QTEST_GUILESS_MAIN(JobFileTest)
#include "job_file_test.moc"
