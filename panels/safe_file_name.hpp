#pragma once
// A display name as a file name that every file system and shell takes without quoting, for the
// names save dialogs suggest: "plan 3 · RRT-Connect" -> "plan-3-rrt-connect".
#include <QString>

namespace kinetic::panels {

// Lower case ASCII letters, digits, '-' and '_': accents are dropped ("é" -> "e"), every other
// run of characters becomes one '-', none leads or trails, at most 64 characters. `fallback`
// when nothing is left ("· ·", "").
QString safe_file_name(const QString& display_name,
                       const QString& fallback = QStringLiteral("untitled"));

}  // namespace kinetic::panels
