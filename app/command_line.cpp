#include "app/command_line.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <cstdio>
#include <cstring>

namespace kinetic::app {

bool needs_no_display(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const char* a = argv[i];
    if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h") || !std::strcmp(a, "--version") ||
        !std::strcmp(a, "-v"))
      return true;
  }
  return false;
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
  const QCommandLineOption srdf(QStringLiteral("srdf"),
                                QStringLiteral("SRDF file for a robot opened from a URDF."),
                                QStringLiteral("file"));
  const QCommandLineOption config(QStringLiteral("config"),
                                  QStringLiteral("kinetic.toml for a robot opened from a URDF."),
                                  QStringLiteral("file"));
  const QCommandLineOption package_path(
      QStringLiteral("package-path"),
      QStringLiteral("Folder searched for package:// meshes (repeatable)."), QStringLiteral("dir"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Save a PNG of the window once it has drawn its first frame, then quit."),
      QStringLiteral("file.png"));
  const QCommandLineOption quit_after(QStringLiteral("quit-after"),
                                      QStringLiteral("Quit after this many milliseconds."),
                                      QStringLiteral("ms"));
  parser.addOptions({robot, srdf, config, package_path, screenshot, quit_after});

  if (!parser.parse(arguments)) {
    std::fprintf(stderr, "kinetic-studio: %s\n\n%s", qPrintable(parser.errorText()),
                 qPrintable(parser.helpText()));
    return std::nullopt;
  }
  if (parser.isSet(QStringLiteral("help"))) parser.showHelp(0);
  if (parser.isSet(QStringLiteral("version"))) parser.showVersion();
  if (!parser.positionalArguments().isEmpty()) {
    std::fprintf(stderr, "kinetic-studio: unexpected argument '%s'\n\n%s",
                 qPrintable(parser.positionalArguments().first()), qPrintable(parser.helpText()));
    return std::nullopt;
  }

  CommandLine line;
  line.robot = parser.value(robot);
  line.srdf = parser.value(srdf);
  line.config = parser.value(config);
  line.package_paths = parser.values(package_path);
  line.screenshot = parser.value(screenshot);
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
