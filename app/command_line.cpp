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
  static const QStringList with_value = {QStringLiteral("platform"),
                                         QStringLiteral("platformpluginpath"),
                                         QStringLiteral("platformtheme"),
                                         QStringLiteral("plugin"),
                                         QStringLiteral("qwindowgeometry"),
                                         QStringLiteral("geometry"),
                                         QStringLiteral("qwindowtitle"),
                                         QStringLiteral("title"),
                                         QStringLiteral("qwindowicon"),
                                         QStringLiteral("icon"),
                                         QStringLiteral("session"),
                                         QStringLiteral("display"),
                                         QStringLiteral("name"),
                                         QStringLiteral("style"),
                                         QStringLiteral("stylesheet")};
  static const QStringList flags = {QStringLiteral("reverse"), QStringLiteral("widgetcount"),
                                    QStringLiteral("nograb"), QStringLiteral("dograb"),
                                    QStringLiteral("sync")};
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
  if (is_robot_file_reference(line.robot) || (line.srdf.isEmpty() && line.config.isEmpty()))
    return {};
  return (line.srdf.isEmpty() ? std::string("--config") : std::string("--srdf")) +
         ": goes with a robot opened from a URDF file; the built-in robot '" +
         line.robot.toStdString() + "' has its own";
}

namespace {

// A usage error in one line and where the options are listed (the whole --help buried the error).
void print_usage_error(const QString& message) {
  std::fprintf(stderr, "kinetic-studio: %s\nRun 'kinetic-studio --help' for the options.\n",
               qPrintable(message));
}

// "unknown option '--gaol-named' (did you mean '--goal-named'?)" for the first option the parser
// did not know; Qt's own text for any other parse error.
QString parse_error_text(const QCommandLineParser& parser,
                         const std::vector<QCommandLineOption>& options) {
  if (parser.unknownOptionNames().isEmpty()) return parser.errorText();
  const auto dashed = [](const QString& name) {
    return (name.size() == 1 ? "-" : "--") + name.toStdString();
  };
  const QString unknown = parser.unknownOptionNames().first();
  std::vector<std::string> known;
  for (const QCommandLineOption& option : options)
    for (const QString& name : option.names()) known.push_back(name.toStdString());
  std::vector<std::string> close = closest_names(unknown.toStdString(), known, 3);
  for (std::string& name : close) name = dashed(QString::fromStdString(name));
  return QStringLiteral("unknown option '%1'%2")
      .arg(QString::fromStdString(dashed(unknown)),
           close.empty() ? QString()
                         : QStringLiteral(" (did you mean %1?)")
                               .arg(QString::fromStdString(quoted_list(close))));
}

// The studio's options, in the order --help lists them.
struct StudioOptions {
  QCommandLineOption robot, srdf, config, package_path, xacro_arg, screenshot, quit_after;
};

// The headless options (docs/headless-jobs.md): a job file, or these flags for one simple plan.
struct HeadlessOptions {
  QCommandLineOption headless, scene, start, goal_joints, goal_named, goal_pose, goal_relative,
      planner, keep_orientation, preset, timing, seed, export_file, output_dir, size, view,
      benchmark, repeat, timeout, problems_per_scene, margin;
};

// The description, --help, --version and the studio's options; `options` gets each (with help and
// version), for the did-you-mean of an unknown one.
StudioOptions add_studio_options(QCommandLineParser& parser,
                                 std::vector<QCommandLineOption>& options) {
  parser.setApplicationDescription(QStringLiteral(
      "Kinetic Studio: pose robot arms, plan collision-free motions, time, play back and export "
      "them.\nWithout options it opens the studio with the UR5e."));
  parser.addHelpOption();
  parser.addVersionOption();
  const StudioOptions o{
      QCommandLineOption({QStringLiteral("r"), QStringLiteral("robot")},
                         QStringLiteral("Built-in robot name or URDF file to open."),
                         QStringLiteral("name|urdf"), QStringLiteral("ur5e")),
      QCommandLineOption(
          QStringLiteral("srdf"),
          QStringLiteral("SRDF file for a robot opened from a URDF, or none. Default: NAME.srdf "
                         "beside the URDF, in "
                         "../srdf or ../config (NAME: the file's, then the robot's)."),
          QStringLiteral("file|none")),
      QCommandLineOption(QStringLiteral("config"),
                         QStringLiteral("kinetic.toml for a robot opened from a URDF, or none. "
                                        "Default: kinetic.toml beside the URDF."),
                         QStringLiteral("file|none")),
      QCommandLineOption(QStringLiteral("package-path"),
                         QStringLiteral("Folder searched for package:// meshes (repeatable)."),
                         QStringLiteral("dir")),
      QCommandLineOption(
          QStringLiteral("xacro-arg"),
          QStringLiteral(
              "A xacro robot file's argument, as xacro takes it (repeatable; headless runs)."),
          QStringLiteral("name:=value")),
      QCommandLineOption(
          QStringLiteral("screenshot"),
          QStringLiteral("Save a PNG of the window once it has drawn its first frame, then quit."),
          QStringLiteral("file.png")),
      QCommandLineOption(QStringLiteral("quit-after"),
                         QStringLiteral("Quit after this many milliseconds."),
                         QStringLiteral("ms")),
  };
  parser.addOptions(
      {o.robot, o.srdf, o.config, o.package_path, o.xacro_arg, o.screenshot, o.quit_after});
  options = {o.robot,
             o.srdf,
             o.config,
             o.package_path,
             o.xacro_arg,
             o.screenshot,
             o.quit_after,
             QCommandLineOption(QStringLiteral("help")),
             QCommandLineOption(QStringLiteral("version"))};
  return o;
}

// --headless and the flags of a headless run, each added to the parser and to `options`.
HeadlessOptions add_headless_options(QCommandLineParser& parser,
                                     std::vector<QCommandLineOption>& options) {
  const auto add = [&parser, &options](const QCommandLineOption& option) {
    parser.addOption(option);
    options.push_back(option);
    return option;
  };
  const auto text_option = [&add](const char* name, const char* help, const char* value) {
    return add(QCommandLineOption(QString::fromLatin1(name), QString::fromLatin1(help),
                                  QString::fromLatin1(value)));
  };
  // Braces: the options are added in the order written.
  return HeadlessOptions{
      add(QCommandLineOption(
          QStringLiteral("headless"),
          QStringLiteral(
              "Run without a display: plan, time, validate, export and render, then exit. "
              "Give a job file (JOB.json) or the flags below. Exit codes: 0 ok, 2 bad job or "
              "arguments, 3 planning/validation failed, 4 write failed, 5 rendering failed, "
              "130 interrupted (Ctrl-C), 143 terminated (SIGTERM). Outputs are written all "
              "together "
              "or not at all."))),
      text_option("scene", "Headless: scene file (kinetic-scene JSON).", "file"),
      text_option("start",
                  "Headless: start state, a named pose or joint values (default: the robot's home, "
                  "ready or default pose, else zeros).",
                  "name|\"q1 q2 ...\""),
      text_option("goal-joints", "Headless: goal joint values (rad / m).", "\"q1 q2 ...\""),
      text_option("goal-named", "Headless: goal named pose.", "name"),
      text_option("goal-pose", "Headless: goal TCP pose in the base frame.",
                  "\"x y z roll pitch yaw\""),
      text_option("goal-relative",
                  "Headless: goal as an offset of the TCP in its own frame (m and rad).",
                  "\"x y z [roll pitch yaw]\""),
      text_option("planner",
                  "Headless: planner (rrt_connect, rrt_star, bitrrt, prm, est, kpiece), or "
                  "cartesian: the TCP along a "
                  "straight line to --goal-pose / --goal-relative.",
                  "name"),
      text_option(
          "keep-orientation",
          "Headless: keep the TCP within this angle of its start orientation all along (rad).",
          "rad"),
      text_option("preset", "Headless: planner preset (default, realtime, offline).", "name"),
      text_option("timing", "Headless: time_optimal, trapezoidal, scurve or cubic_spline.", "name"),
      text_option("seed", "Headless: planner seed (same seed, same plan).", "n"),
      text_option("export",
                  "Headless: write the trajectory (.json, .csv, .yaml for ROS, .script for "
                  "URScript; repeatable).",
                  "file"),
      text_option("output-dir", "Headless: folder for the outputs (overrides the job's).", "dir"),
      text_option("size", "Headless: --screenshot size.", "WIDTHxHEIGHT"),
      text_option("view",
                  "Headless: --screenshot view (front, back, left, right, top, bottom, iso).",
                  "name"),
      text_option("benchmark",
                  "Headless: plan every problem of a folder (MotionBenchMaker's layout: "
                  "<scene>/sceneNNNN.yaml + requestNNNN.yaml, "
                  "MoveIt planning scenes and motion plan requests) in one process; writes "
                  "benchmark.csv and "
                  "benchmark-summary.txt to --output-dir (default: the working directory).",
                  "dir"),
      text_option("repeat",
                  "Headless --benchmark: runs of each problem (seeds --seed, --seed + 1, ...).",
                  "n"),
      text_option("timeout", "Headless --benchmark: planning budget per problem (s, default 10).",
                  "s"),
      text_option("problems-per-scene",
                  "Headless --benchmark: at most this many problems of each scene.", "n"),
      text_option("margin",
                  "Headless --benchmark: clearance the planner keeps from obstacles (m; default "
                  "the preset's, 0.02). "
                  "0 plans as MotionBenchMaker's peers do, touching allowed.",
                  "m"),
  };
}

bool names_robot_file(const QString& file) {
  return file.endsWith(QStringLiteral(".urdf"), Qt::CaseInsensitive) ||
         file.endsWith(QStringLiteral(".xacro"), Qt::CaseInsensitive);
}

// The positional FILE: the job of a headless run, else a session or a robot. False, said, when
// a robot is given both as FILE and as --robot.
bool read_file_argument(const QCommandLineParser& parser, const QString& file,
                        const QCommandLineOption& robot, CommandLine& line) {
  const bool file_is_robot = names_robot_file(file);
  if (line.headless)
    line.job = file;
  else if (!file_is_robot)
    line.session = file;
  if (file_is_robot && !line.headless && parser.isSet(robot)) {
    std::fprintf(stderr, "kinetic-studio: give the robot once: '%s' and --robot %s\n",
                 qPrintable(file), qPrintable(parser.value(robot)));
    return false;
  }
  return true;
}

// False, said, when a headless-only flag is given without --headless.
bool headless_flags_have_headless(const QCommandLineParser& parser, const HeadlessOptions& h,
                                  const QCommandLineOption& xacro_arg, bool is_headless) {
  for (const QCommandLineOption* option :
       {&h.scene,
        &h.start,
        &h.goal_joints,
        &h.goal_named,
        &h.goal_pose,
        &h.goal_relative,
        &h.planner,
        &h.keep_orientation,
        &h.preset,
        &h.timing,
        &h.seed,
        &h.export_file,
        &h.output_dir,
        &h.size,
        &h.view,
        &h.benchmark,
        &h.repeat,
        &h.timeout,
        &h.problems_per_scene,
        &h.margin,
        &xacro_arg}) {  // the studio expands xacro with its defaults (for now)
    if (parser.isSet(*option) && !is_headless) {
      std::fprintf(stderr, "kinetic-studio: --%s needs --headless\n",
                   qPrintable(option->names().first()));
      return false;
    }
  }
  return true;
}

// The headless flags' values; false, said, when a --benchmark companion comes without it.
bool read_headless_values(const QCommandLineParser& parser, const HeadlessOptions& h,
                          CommandLine& line) {
  line.scene = parser.value(h.scene);
  line.start = parser.value(h.start);
  line.goal_joints = parser.value(h.goal_joints);
  line.goal_named = parser.value(h.goal_named);
  line.goal_pose = parser.value(h.goal_pose);
  line.goal_relative = parser.value(h.goal_relative);
  line.keep_orientation = parser.value(h.keep_orientation);
  line.planner = parser.value(h.planner);
  line.preset = parser.value(h.preset);
  line.timing = parser.value(h.timing);
  line.seed = parser.value(h.seed);
  line.exports = parser.values(h.export_file);
  line.output_dir = parser.value(h.output_dir);
  line.size = parser.value(h.size);
  line.view = parser.value(h.view);
  line.benchmark = parser.value(h.benchmark);
  line.repeat = parser.value(h.repeat);
  line.timeout = parser.value(h.timeout);
  line.problems_per_scene = parser.value(h.problems_per_scene);
  line.margin = parser.value(h.margin);
  if (line.benchmark.isEmpty() && (!line.repeat.isEmpty() || !line.timeout.isEmpty() ||
                                   !line.problems_per_scene.isEmpty() || !line.margin.isEmpty())) {
    std::fprintf(stderr, "kinetic-studio: --%s goes with --benchmark DIR\n",
                 !line.repeat.isEmpty()    ? "repeat"
                 : !line.timeout.isEmpty() ? "timeout"
                 : !line.margin.isEmpty()  ? "margin"
                                           : "problems-per-scene");
    return false;
  }
  return true;
}

// The robot, its companion files and xacro arguments, and --screenshot; false, said, on a
// malformed --xacro-arg or (in the studio) companions of a built-in robot.
bool read_robot_values(const QCommandLineParser& parser, const StudioOptions& o,
                       const QString& file, CommandLine& line) {
  const bool file_robot =
      !line.headless && names_robot_file(file);  // FILE is the robot in the studio
  line.robot = file_robot ? file : parser.value(o.robot);
  line.robot_given = parser.isSet(o.robot) || file_robot;
  line.srdf = parser.value(o.srdf);
  line.config = parser.value(o.config);
  line.package_paths = parser.values(o.package_path);
  line.xacro_args = parser.values(o.xacro_arg);
  for (const QString& argument : line.xacro_args) {
    if (!xacro_argument(argument)) {
      std::fprintf(stderr,
                   "kinetic-studio: --xacro-arg '%s': expected NAME:=VALUE (as xacro takes it)\n",
                   qPrintable(argument));
      return false;
    }
  }
  line.screenshot = parser.value(o.screenshot);
  // The studio refuses what a headless run refuses (it used to drop --srdf silently); a headless
  // run says it with the rest of its flags (job_from_flags).
  if (const std::string problem = companions_without_urdf(line);
      !problem.empty() && !line.headless) {
    std::fprintf(stderr, "kinetic-studio: %s\n", problem.c_str());
    return false;
  }
  return true;
}

bool read_quit_after(const QCommandLineParser& parser, const QCommandLineOption& quit_after,
                     CommandLine& line) {
  if (!parser.isSet(quit_after)) return true;
  bool ok = false;
  line.quit_after_ms = parser.value(quit_after).toInt(&ok);
  if (!ok || line.quit_after_ms < 0) {
    std::fprintf(stderr, "kinetic-studio: --quit-after needs a non-negative number of ms\n");
    return false;
  }
  return true;
}

}  // namespace

std::optional<std::pair<std::string, std::string>> xacro_argument(const QString& argument) {
  const qsizetype assign = argument.indexOf(QStringLiteral(":="));
  if (assign <= 0) return std::nullopt;
  return std::pair{argument.left(assign).trimmed().toStdString(),
                   argument.mid(assign + 2).toStdString()};
}

std::optional<CommandLine> parse_command_line(const QStringList& arguments) {
  QCommandLineParser parser;
  std::vector<QCommandLineOption> options;  // every option, for the did-you-mean of an unknown one
  const StudioOptions studio = add_studio_options(parser, options);
  const HeadlessOptions headless = add_headless_options(parser, options);
  parser.addPositionalArgument(
      QStringLiteral("FILE"),
      QStringLiteral("A session to open (SESSION.kinetic-session), or a URDF to open "
                     "as with --robot; with --headless: the job file to run."),
      QStringLiteral("[SESSION.kinetic-session | ROBOT.urdf | JOB.json]"));

  if (!parser.parse(arguments)) {
    print_usage_error(parse_error_text(parser, options));
    return std::nullopt;
  }
  if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
  if (parser.isSet(QStringLiteral("version"))) parser.showVersion();
  const QStringList files = parser.positionalArguments();
  if (files.size() > 1) {
    print_usage_error(QStringLiteral("unexpected argument '%1' (one file at most)").arg(files[1]));
    return std::nullopt;
  }

  CommandLine line;
  line.headless = parser.isSet(headless.headless);
  const QString file = files.isEmpty() ? QString() : files.first();
  if (!read_file_argument(parser, file, studio.robot, line) ||
      !headless_flags_have_headless(parser, headless, studio.xacro_arg, line.headless) ||
      !read_headless_values(parser, headless, line) ||
      !read_robot_values(parser, studio, file, line) ||
      !read_quit_after(parser, studio.quit_after, line))
    return std::nullopt;
  return line;
}

}  // namespace kinetic::app
