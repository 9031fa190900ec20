#include "app/session/save_leftovers.hpp"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace kinetic::app {

int remove_save_leftovers(const QString& path) {
  QFileInfo session(path);
  if (session.isSymLink() && !session.canonicalFilePath().isEmpty())
    session = QFileInfo(session.canonicalFilePath());
  // Matched by hand, not by a wildcard filter: a session's own name may hold '*' or '['.
  const QString prefix = QStringLiteral(".") + session.fileName() + QStringLiteral(".tmp-");
  constexpr int kRandomPart = 6;  // mkstemp's XXXXXX
  const QDateTime stale = QDateTime::currentDateTimeUtc().addSecs(-60);
  int removed = 0;
  const QFileInfoList entries =
      session.absoluteDir().entryInfoList(QDir::Files | QDir::Hidden | QDir::NoSymLinks);
  for (const QFileInfo& entry : entries)
    if (entry.fileName().size() == prefix.size() + kRandomPart &&
        entry.fileName().startsWith(prefix) && entry.lastModified().toUTC() < stale &&
        QFile::remove(entry.absoluteFilePath()))
      ++removed;
  return removed;
}

}  // namespace kinetic::app
