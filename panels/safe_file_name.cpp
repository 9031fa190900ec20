#include "panels/safe_file_name.hpp"

namespace kinetic::panels {

namespace {

constexpr qsizetype kMaxLength = 64;  // well within every file system's 255, readable in a dialog

bool kept(QChar c) {
  return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
         (c >= QLatin1Char('0') && c <= QLatin1Char('9')) || c == QLatin1Char('_');
}

}  // namespace

QString safe_file_name(const QString& display_name, const QString& fallback) {
  // Compatibility decomposition splits "é" into "e" and its accent (dropped below) and "ﬁ" into
  // "fi".
  const QString decomposed = display_name.normalized(QString::NormalizationForm_KD).toLower();
  QString name;
  bool dash_pending = false;
  for (const QChar c : decomposed) {
    if (c.isMark()) continue;  // an accent: "é" reads as "e", not "e-"
    if (kept(c)) {
      if (dash_pending && !name.isEmpty()) name += QLatin1Char('-');  // between kept runs only
      dash_pending = false;
      name += c;
    } else {
      dash_pending = true;  // '-', spaces, '·', '*', '/', '.', ...: one '-' per run
    }
  }
  name.truncate(kMaxLength);
  if (name.endsWith(QLatin1Char('-'))) name.chop(1);  // cut just after a separator
  return name.isEmpty() ? fallback : name;
}

}  // namespace kinetic::panels
