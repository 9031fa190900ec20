#pragma once
// The studio's command line: parsed once in main(), before any window exists.
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <utility>

namespace kinetic::app {

struct CommandLine {
  QString robot = QStringLiteral("ur5e");  // built-in name or a URDF path
  bool robot_given = false;                // --robot was on the command line (not the default)
  QString srdf;                            // with a URDF path: its SRDF, "none", or "" to find it
  QString config;             // with a URDF path: its kinetic.toml, "none", or "" to find it
  QString screenshot;         // grab the window into this PNG once shown, then quit
  int quit_after_ms = -1;     // quit after this long (tests, demos)
  QStringList package_paths;  // extra package:// search folders
  QStringList xacro_args;     // NAME:=VALUE for a xacro robot file's xacro:arg
  QString session;            // SESSION.kinetic-session to open (positional)

  // --headless: run a job (file or the flags below) without a display and exit.
  bool headless = false;
  QString job;          // JOB.json (positional)
  QString scene;        // scene file
  QString start;        // named pose or joint values
  QString goal_joints;  // "q1 q2 ..." (model or group order)
  QString goal_named;
  QString goal_pose;         // "x y z roll pitch yaw" (base frame, m and rad)
  QString goal_relative;     // "x y z [roll pitch yaw]": offset in the tool frame
  QString keep_orientation;  // rad: keep the TCP's start orientation within this
  QString planner;
  QString preset;
  QString timing;
  QString seed;         // kept as text: validated with the job
  QStringList exports;  // trajectory files (.json / .csv)
  QString output_dir;   // outputs go here (overrides the job's outputs.directory)
  QString size;         // WIDTHxHEIGHT of --screenshot in headless mode
  QString view;         // standard view of --screenshot in headless mode
  // --benchmark DIR: every MoveIt scene + request pair in DIR (benchmark_problems.hpp), one
  // process.
  QString benchmark;
  QString repeat;              // runs of each problem (kept as text: validated by the runner)
  QString timeout;             // s per plan
  QString problems_per_scene;  // at most this many problems of each scene
  QString margin;              // m, the planner's clearance (--benchmark)
};

// "NAME:=VALUE" (--xacro-arg) as a name and a value; nullopt when it is not of that form.
std::optional<std::pair<std::string, std::string>> xacro_argument(const QString& argument);

// The arguments without those QGuiApplication / QApplication take for themselves (-platform xcb,
// -display :1, -style fusion, -reverse, ...), so they can be parsed before a QApplication exists.
QStringList without_qt_gui_options(const QStringList& arguments);

// --srdf / --config as StudioDocument::load_robot takes them: not given (""): std::nullopt, the
// file found beside the URDF; "none": "", no file; else that file.
std::optional<QString> companion_choice(const QString& option_value);

// "--srdf: goes with a robot opened from a URDF file; the built-in robot 'ur5e' has its own" when
// --srdf or --config is given with a built-in robot (which has its own); "" otherwise. The studio
// and a headless run refuse it alike.
std::string companions_without_urdf(const CommandLine& line);

// Parses the application's arguments; prints help/version and exits the process for those.
// On a usage error prints it, with a pointer to --help (a did-you-mean for an unknown option),
// and returns std::nullopt.
std::optional<CommandLine> parse_command_line(const QStringList& arguments);

}  // namespace kinetic::app
