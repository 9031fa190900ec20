#include "app/session/recent_files.hpp"

#include <QFileInfo>
#include <QSettings>
#include <QVariantMap>

namespace kinetic::app {

namespace {
const QString kKey = QStringLiteral("recent_files");
}

QList<RecentEntry> RecentFiles::entries() const {
  QList<RecentEntry> out;
  for (const QVariant& value : settings_.value(kKey).toList()) {
    const QVariantMap map = value.toMap();
    RecentEntry entry;
    entry.kind = map.value(QStringLiteral("kind")).toString() == QStringLiteral("session")
                     ? RecentEntry::Kind::Session
                     : RecentEntry::Kind::Robot;
    entry.path = map.value(QStringLiteral("path")).toString();
    entry.srdf = map.value(QStringLiteral("srdf")).toString();
    entry.config = map.value(QStringLiteral("config")).toString();
    if (!entry.path.isEmpty()) out << entry;
  }
  return out;
}

void RecentFiles::store(const QList<RecentEntry>& entries) {
  QVariantList list;
  for (const RecentEntry& entry : entries)
    list << QVariantMap{{QStringLiteral("kind"), entry.kind == RecentEntry::Kind::Session
                                                     ? QStringLiteral("session")
                                                     : QStringLiteral("robot")},
                        {QStringLiteral("path"), entry.path},
                        {QStringLiteral("srdf"), entry.srdf},
                        {QStringLiteral("config"), entry.config}};
  settings_.setValue(kKey, list);
}

void RecentFiles::add(const RecentEntry& entry) {
  QList<RecentEntry> list = entries();
  list.removeIf([&](const RecentEntry& e) { return e.path == entry.path; });
  list.prepend(entry);
  while (list.size() > kMaxEntries) list.removeLast();
  store(list);
}

void RecentFiles::remove(const QString& path) {
  QList<RecentEntry> list = entries();
  list.removeIf([&](const RecentEntry& e) { return e.path == path; });
  store(list);
}

QStringList RecentFiles::remove_missing() {
  QList<RecentEntry> list = entries();
  QStringList missing;
  for (const RecentEntry& e : list)
    if (!QFileInfo(e.path).isFile()) missing << e.path;
  list.removeIf([&](const RecentEntry& e) { return missing.contains(e.path); });
  if (!missing.isEmpty()) store(list);
  return missing;
}

}  // namespace kinetic::app
