// File dialogs that never open the files they list.
//
// Qt's default icon provider (and a platform's native dialog) asks the MIME database
// about every listed file, which opens files without a telling extension to sniff
// their content. Closing any descriptor of a file drops every POSIX lock this process
// holds on it, and the run store (SQLite) relies on those locks: a dialog showing the
// store's folder would let another process checkpoint and remove the write-ahead log
// under the window (SQLite's documented "how to corrupt" case). These dialogs are Qt's
// own widgets with icons and type names from the file's name and kind alone.
#pragma once

#include <QFileDialog>

namespace clusterdesk::ui {

// A dialog owned by `parent`, with the given caption and name filters; the caller sets
// the accept mode and file mode and shows it (open() or exec()).
QFileDialog* makeFileDialog(QWidget* parent, const QString& caption, const QString& nameFilters);

}  // namespace clusterdesk::ui
