#pragma once
// Recently opened robot files and sessions, newest first, at most kMaxEntries, stored in QSettings
// ("recent_files") so they survive restarts.
#include <QList>
#include <QString>

class QSettings;

namespace kinetic::app {

struct RecentEntry {
  enum class Kind { Robot, Session };
  Kind kind = Kind::Robot;
  QString path;
  QString srdf, config;  // robots: the files it was opened with
  bool operator==(const RecentEntry&) const = default;
};

class RecentFiles {
 public:
  static constexpr int kMaxEntries = 8;

  explicit RecentFiles(QSettings& settings) : settings_(settings) {}

  QList<RecentEntry> entries() const;
  // Moves (or adds) the entry to the top and drops the oldest beyond kMaxEntries.
  void add(const RecentEntry& entry);
  void remove(const QString& path);
  // Removes entries whose file no longer exists; returns their paths.
  QStringList remove_missing();

 private:
  void store(const QList<RecentEntry>& entries);
  QSettings& settings_;
};

}  // namespace kinetic::app
