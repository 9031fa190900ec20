#include "app/document/robot_files_text.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

#include "app/document/studio_document.hpp"

namespace kinetic::app {

namespace {

QString tr(const char* text) {
  return QCoreApplication::translate("RobotFilesText", text);
}

// "SRDF: ../srdf/panda.srdf, found in the package's srdf folder" for a file the search found;
// a named one as seen from the URDF's folder.
QString file_text(const QString& what, const QString& used, const CompanionFile& found,
                  const QString& urdf) {
  if (found.found())
    return QStringLiteral("%1: %2, %3")
        .arg(what, QString::fromStdString(found.relative), QString::fromStdString(found.how));
  return QStringLiteral("%1: %2").arg(what, QFileInfo(urdf).absoluteDir().relativeFilePath(used));
}

}  // namespace

QString robot_loaded_message(const StudioDocument& document, const QString& verb) {
  const QString loaded = verb.isEmpty() ? tr("Loaded") : verb;
  const QString name = document.robot() ? QString::fromStdString(document.robot()->name())
                                        : document.robot_reference();
  if (!document.robot_is_file()) return QStringLiteral("%1 %2").arg(loaded, name);
  const QString& urdf = document.robot_reference();
  // A MoveIt config: what came from which of its files.
  if (document.robot() && !document.robot()->source_notes().empty()) {
    QStringList notes;
    for (const std::string& note : document.robot()->source_notes())
      notes << QString::fromStdString(note);
    return QStringLiteral("%1 %2 (%3)").arg(loaded, name, notes.join(QStringLiteral("; ")));
  }
  const RobotCompanions& found = document.companions_found();
  QStringList parts;
  if (!document.robot_srdf().isEmpty())
    parts << file_text(tr("SRDF"), document.robot_srdf(), found.srdf, urdf);
  else if (document.srdf_choice())
    parts << tr("without an SRDF, as asked");
  else
    parts << tr("no SRDF found");
  // A URDF without a kinetic.toml is the usual case: said only when one came with it.
  if (!document.robot_config().isEmpty())
    parts << file_text(QStringLiteral("kinetic.toml"), document.robot_config(), found.toml, urdf);
  return QStringLiteral("%1 %2 (%3)").arg(loaded, name, parts.join(QStringLiteral("; ")));
}

QString found_files_note(const RobotCompanions& found) {
  QStringList files;
  if (found.srdf.found())
    files << QStringLiteral("SRDF %1 (%2)")
                 .arg(QString::fromStdString(found.srdf.relative),
                      QString::fromStdString(found.srdf.how));
  if (found.toml.found())
    files << QStringLiteral("kinetic.toml %1 (%2)")
                 .arg(QString::fromStdString(found.toml.relative),
                      QString::fromStdString(found.toml.how));
  if (files.isEmpty()) return {};
  return tr("\nFound for this URDF and loaded with it: %1. To open the URDF without: --srdf none / "
            "--config none "
            "on the command line, or empty fields in File → Open URDF with SRDF / kinetic.toml…")
      .arg(files.join(QStringLiteral(", ")));
}

}  // namespace kinetic::app
