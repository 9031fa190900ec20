#pragma once
// The studio's command line: parsed once in main(), before any window exists.
#include <QString>
#include <QStringList>
#include <optional>

namespace kinetic::app {

struct CommandLine {
  QString robot = QStringLiteral("ur5e");  // built-in name or a URDF path
  QString srdf;                            // with a URDF path: optional SRDF
  QString config;                          // with a URDF path: optional kinetic.toml
  QString screenshot;                      // grab the window into this PNG once shown, then quit
  int quit_after_ms = -1;                  // quit after this long (tests, demos)
  QStringList package_paths;               // extra package:// search folders
};

// True when the arguments ask for something that needs no display (--help, --version):
// main() then creates a QCoreApplication instead of a QApplication.
bool needs_no_display(int argc, char** argv);

// Parses the application's arguments; prints help/version and exits the process for those.
// On a usage error prints it with the help text and returns std::nullopt.
std::optional<CommandLine> parse_command_line(const QStringList& arguments);

}  // namespace kinetic::app
