#include "app/command_line.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>
#include <string>
#include <vector>

#include "app/document/robot_reference.hpp"
#include "engine/core/string_similarity.hpp"

namespace kinetic::app {

QStringList without_qt_gui_options(const QStringList& arguments) {
  // From the QGuiApplication and QApplication constructor documentation (Qt 6), plus the X11
  // ones the xcb plugin reads; Qt accepts them with one or two dashes.
  static const QStringList with_value = {
      QStringLiteral("platform"), QStringLiteral("platformpluginpath"), QStringLiteral("platformtheme"),
      QStringLiteral("plugin"), QStringLiteral("qwindowgeometry"), QStringLiteral("geometry"),
      QStringLiteral("qwindowtitle"), QStringLiteral("title"), QStringLiteral("qwindowicon"),
      QStringLiteral("icon"), QStringLiteral("session"), QStringLiteral("display"), QStringLiteral("name"),
      QStringLiteral("style"), QStringLiteral("stylesheet")};
  static const QStringList flags = {QStringLiteral("reverse"), QStringLiteral("widgetcount"),
                                    QStringLiteral("nograb"), QStringLiteral("dograb"), QStringLiteral("sync")};
  QStringList kept;
  for (qsizetype i = 0; i < arguments.size(); ++i) {
    const QString& argument = arguments[i];
    if (i == 0 || !argument.startsWith(QLatin1Char('-'))) {
      kept << argument;
      continue;
    }
    QString name = argument.mid(argument.startsWith(QStringLiteral("--")) ? 2 : 1);
    const bool inline_value = name.contains(QLatin1Char('='));
    name = name.section(QLatin1Char('='), 0, 0);
    if (flags.contains(name)) continue;
    if (with_value.contains(name)) {
      if (!inline_value) ++i;  // skip its value too
      continue;
    }
    kept << argument;
  }
  return kept;
}

std::optional<QString> companion_choice(const QString& option_value) {
  if (option_value.isEmpty()) return std::nullopt;
  if (option_value == QStringLiteral("none")) return QString();
  return option_value;
}

std::string companions_without_urdf(const CommandLine& line) {
  if (is_robot_file_reference(line.robot) || (line.srdf.isEmpty() && line.config.isEmpty())) return {};
  return (line.srdf.isEmpty() ? std::string("--config") : std::string("--srdf")) +
         ": goes with a robot opened from a URDF file; the built-in robot '" + line.robot.toStdString() +
         "' has its own";
}

namespace {

// A usage error in one line and where the options are listed (the whole --help buried the error).
void print_usage_error(const QString& message) {
  std::fprintf(stderr, "kinetic-studio: %s\nRun 'kinetic-studio --help' for the options.\n", qPrintable(message));
}

// "unknown option '--gaol-named' (did you mean '--goal-named'?)" for the first option the parser
// did not know; Qt's own text for any other parse error.
QString parse_error_text(const QCommandLineParser& parser, const std::vector<QCommandLineOption>& options) {
  if (parser.unknownOptionNames().isEmpty()) return parser.errorText();
  const auto dashed = [](const QString& name) { return (name.size() == 1 ? "-" : "--") + name.toStdString(); };
  const QString unknown = parser.unknownOptionNames().first();
  std::vector<std::string> known;
  for (const QCommandLineOption& option : options)
    for (const QString& name : option.names()) known.push_back(name.toStdString());
  std::vector<std::string> close = closest_names(unknown.toStdString(), known, 3);
  for (std::string& name : close) name = dashed(QString::fromStdString(name));
  return QStringLiteral("unknown option '%1'%2")
      .arg(QString::fromStdString(dashed(unknown)),
           close.empty() ? QString() : QStringLiteral(" (did you mean %1?)").arg(QString::fromStdString(quoted_list(close))));
}

}  // namespace

std::optional<std::pair<std::string, std::string>> xacro_argument(const QString& argument) {
  const qsizetype assign = argument.indexOf(QStringLiteral(":="));
  if (assign <= 0) return std::nullopt;
  return std::pair{argument.left(assign).trimmed().toStdString(), argument.mid(assign + 2).toStdString()};
}

std::optional<CommandLine> parse_command_line(const QStringList& arguments) {
  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral(
      "Kinetic Studio: pose robot arms, plan collision-free motions, time, play back and export "
      "them.\nWithout options it opens the studio with the UR5e."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption robot({QStringLiteral("r"), QStringLiteral("robot")},
                                 QStringLiteral("Built-in robot name or URDF file to open."),
                                 QStringLiteral("name|urdf"), QStringLiteral("ur5e"));
  const QCommandLineOption srdf(
      QStringLiteral("srdf"),
      QStringLiteral("SRDF file for a robot opened from a URDF, or none. Default: NAME.srdf beside the URDF, in "
                     "../srdf or ../config (NAME: the file's, then the robot's)."),
      QStringLiteral("file|none"));
  const QCommandLineOption config(
      QStringLiteral("config"),
      QStringLiteral("kinetic.toml for a robot opened from a URDF, or none. Default: kinetic.toml beside the URDF."),
      QStringLiteral("file|none"));
  const QCommandLineOption package_path(
      QStringLiteral("package-path"),
      QStringLiteral("Folder searched for package:// meshes (repeatable)."), QStringLiteral("dir"));
  const QCommandLineOption xacro_arg(
      QStringLiteral("xacro-arg"),
      QStringLiteral("A xacro robot file's argument, as xacro takes it (repeatable; headless runs)."), QStringLiteral("name:=value"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Save a PNG of the window once it has drawn its first frame, then quit."),
      QStringLiteral("file.png"));
  const QCommandLineOption quit_after(QStringLiteral("quit-after"),
                                      QStringLiteral("Quit after this many milliseconds."),
                                      QStringLiteral("ms"));
  parser.addOptions({robot, srdf, config, package_path, xacro_arg, screenshot, quit_after});

  // Every option, for the did-you-mean of an unknown one.
  std::vector<QCommandLineOption> options = {robot, srdf, config, package_path, xacro_arg, screenshot, quit_after,
                                             QCommandLineOption(QStringLiteral("help")),
                                             QCommandLineOption(QStringLiteral("version"))};

  // Headless runs (docs/headless-jobs.md): a job file, or these flags for one simple plan.
  const auto text_option = [&parser, &options](const char* name, const char* help, const char* value) {
    QCommandLineOption option(QString::fromLatin1(name), QString::fromLatin1(help), QString::fromLatin1(value));
    parser.addOption(option);
    options.push_back(option);
    return option;
  };
  const QCommandLineOption headless(
      QStringLiteral("headless"),
      QStringLiteral("Run without a display: plan, time, validate, export and render, then exit. "
                     "Give a job file (JOB.json) or the flags below. Exit codes: 0 ok, 2 bad job or "
                     "arguments, 3 planning/validation failed, 4 write failed, 5 rendering failed, "
                     "130 interrupted (Ctrl-C), 143 terminated (SIGTERM). Outputs are written all together "
                     "or not at all."));
  parser.addOption(headless);
  options.push_back(headless);
  const auto scene = text_option("scene", "Headless: scene file (kinetic-scene JSON).", "file");
  const auto start = text_option("start", "Headless: start state, a named pose or joint values (default: the robot's home, ready or default pose, else zeros).", "name|\"q1 q2 ...\"");
  const auto goal_joints = text_option("goal-joints", "Headless: goal joint values (rad / m).", "\"q1 q2 ...\"");
  const auto goal_named = text_option("goal-named", "Headless: goal named pose.", "name");
  const auto goal_pose = text_option("goal-pose", "Headless: goal TCP pose in the base frame.", "\"x y z roll pitch yaw\"");
  const auto goal_relative = text_option("goal-relative",
                                         "Headless: goal as an offset of the TCP in its own frame (m and rad).",
                                         "\"x y z [roll pitch yaw]\"");
  const auto planner = text_option(
      "planner", "Headless: planner (rrt_connect, rrt_star, bitrrt, prm, est, kpiece), or cartesian: the TCP along a "
                 "straight line to --goal-pose / --goal-relative.", "name");
  const auto keep_orientation = text_option(
      "keep-orientation", "Headless: keep the TCP within this angle of its start orientation all along (rad).", "rad");
  const auto preset = text_option("preset", "Headless: planner preset (default, realtime, offline).", "name");
  const auto timing = text_option("timing", "Headless: time_optimal, trapezoidal, scurve or cubic_spline.", "name");
  const auto seed = text_option("seed", "Headless: planner seed (same seed, same plan).", "n");
  const auto export_file = text_option("export", "Headless: write the trajectory (.json, .csv, .yaml for ROS, .script for URScript; repeatable).", "file");
  const auto output_dir = text_option("output-dir", "Headless: folder for the outputs (overrides the job's).", "dir");
  const auto size = text_option("size", "Headless: --screenshot size.", "WIDTHxHEIGHT");
  const auto view = text_option("view", "Headless: --screenshot view (front, back, left, right, top, bottom, iso).", "name");
  const auto benchmark = text_option(
      "benchmark",
      "Headless: plan every problem of a folder (MotionBenchMaker's layout: <scene>/sceneNNNN.yaml + requestNNNN.yaml, "
      "MoveIt planning scenes and motion plan requests) in one process; writes benchmark.csv and "
      "benchmark-summary.txt to --output-dir (default: the working directory).",
      "dir");
  const auto repeat = text_option("repeat", "Headless --benchmark: runs of each problem (seeds --seed, --seed + 1, ...).", "n");
  const auto timeout = text_option("timeout", "Headless --benchmark: planning budget per problem (s, default 10).", "s");
  const auto problems_per_scene =
      text_option("problems-per-scene", "Headless --benchmark: at most this many problems of each scene.", "n");
  const auto margin = text_option(
      "margin",
      "Headless --benchmark: clearance the planner keeps from obstacles (m; default the preset's, 0.02). "
      "0 plans as MotionBenchMaker's peers do, touching allowed.",
      "m");
  parser.addPositionalArgument(QStringLiteral("FILE"),
                               QStringLiteral("A session to open (SESSION.kinetic-session), or a URDF to open "
                                              "as with --robot; with --headless: the job file to run."),
                               QStringLiteral("[SESSION.kinetic-session | ROBOT.urdf | JOB.json]"));

  if (!parser.parse(arguments)) {
    print_usage_error(parse_error_text(parser, options));
    return std::nullopt;
  }
  if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
  if (parser.isSet(QStringLiteral("version"))) parser.showVersion();
  const bool is_headless = parser.isSet(headless);
  const QStringList files = parser.positionalArguments();
  if (files.size() > 1) {
    print_usage_error(QStringLiteral("unexpected argument '%1' (one file at most)").arg(files[1]));
    return std::nullopt;
  }

  CommandLine line;
  line.headless = is_headless;
  const QString file = files.isEmpty() ? QString() : files.first();
  const bool file_is_robot = file.endsWith(QStringLiteral(".urdf"), Qt::CaseInsensitive) ||
                             file.endsWith(QStringLiteral(".xacro"), Qt::CaseInsensitive);
  if (is_headless) line.job = file;
  else if (!file_is_robot) line.session = file;
  if (file_is_robot && !is_headless && parser.isSet(robot)) {
    std::fprintf(stderr, "kinetic-studio: give the robot once: '%s' and --robot %s\n", qPrintable(file),
                 qPrintable(parser.value(robot)));
    return std::nullopt;
  }
  for (const QCommandLineOption* option : {&scene, &start, &goal_joints, &goal_named, &goal_pose, &goal_relative,
                                           &planner, &keep_orientation, &preset, &timing, &seed, &export_file, &output_dir, &size, &view,
                                           &benchmark, &repeat, &timeout, &problems_per_scene, &margin,
                                           &xacro_arg}) {  // the studio expands xacro with its defaults (for now)
    if (parser.isSet(*option) && !is_headless) {
      std::fprintf(stderr, "kinetic-studio: --%s needs --headless\n", qPrintable(option->names().first()));
      return std::nullopt;
    }
  }
  line.scene = parser.value(scene);
  line.start = parser.value(start);
  line.goal_joints = parser.value(goal_joints);
  line.goal_named = parser.value(goal_named);
  line.goal_pose = parser.value(goal_pose);
  line.goal_relative = parser.value(goal_relative);
  line.keep_orientation = parser.value(keep_orientation);
  line.planner = parser.value(planner);
  line.preset = parser.value(preset);
  line.timing = parser.value(timing);
  line.seed = parser.value(seed);
  line.exports = parser.values(export_file);
  line.output_dir = parser.value(output_dir);
  line.size = parser.value(size);
  line.view = parser.value(view);
  line.benchmark = parser.value(benchmark);
  line.repeat = parser.value(repeat);
  line.timeout = parser.value(timeout);
  line.problems_per_scene = parser.value(problems_per_scene);
  line.margin = parser.value(margin);
  if (line.benchmark.isEmpty() && (!line.repeat.isEmpty() || !line.timeout.isEmpty() ||
                                   !line.problems_per_scene.isEmpty() || !line.margin.isEmpty())) {
    std::fprintf(stderr, "kinetic-studio: --%s goes with --benchmark DIR\n",
                 !line.repeat.isEmpty()    ? "repeat"
                 : !line.timeout.isEmpty() ? "timeout"
                 : !line.margin.isEmpty()  ? "margin"
                                           : "problems-per-scene");
    return std::nullopt;
  }
  line.robot = file_is_robot && !is_headless ? file : parser.value(robot);
  line.robot_given = parser.isSet(robot) || (file_is_robot && !is_headless);
  line.srdf = parser.value(srdf);
  line.config = parser.value(config);
  line.package_paths = parser.values(package_path);
  line.xacro_args = parser.values(xacro_arg);
  for (const QString& argument : line.xacro_args) {
    if (!xacro_argument(argument)) {
      std::fprintf(stderr, "kinetic-studio: --xacro-arg '%s': expected NAME:=VALUE (as xacro takes it)\n", qPrintable(argument));
      return std::nullopt;
    }
  }
  line.screenshot = parser.value(screenshot);
  // The studio refuses what a headless run refuses (it used to drop --srdf silently); a headless
  // run says it with the rest of its flags (job_from_flags).
  if (const std::string problem = companions_without_urdf(line); !problem.empty() && !is_headless) {
    std::fprintf(stderr, "kinetic-studio: %s\n", problem.c_str());
    return std::nullopt;
  }
  if (parser.isSet(quit_after)) {
    bool ok = false;
    line.quit_after_ms = parser.value(quit_after).toInt(&ok);
    if (!ok || line.quit_after_ms < 0) {
      std::fprintf(stderr, "kinetic-studio: --quit-after needs a non-negative number of ms\n");
      return std::nullopt;
    }
  }
  return line;
}

}  // namespace kinetic::app
