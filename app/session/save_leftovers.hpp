#pragma once
// Temporaries a killed session save left behind. A save writes a hidden temporary beside the
// session (".NAME.tmp-XXXXXX", write_file_atomically) and renames it over the file; a kill in
// between (SIGKILL, a power cut: nothing can catch those) leaves the temporary, which no one else
// ever removes. The next save of that session removes them.
#include <QString>

namespace kinetic::app {

// Removes the temporaries of earlier saves of the session `path` (of the file a symbolic link
// names, where the saves wrote) older than a minute: a save takes milliseconds, so none of them is
// still being written by another studio. Returns how many were removed; never throws.
int remove_save_leftovers(const QString& path);

}  // namespace kinetic::app
