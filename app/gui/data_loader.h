// Reads data on the thread it is moved to: previews of files (first lines, detected
// layout), whole files with progress (cancellable), and demos. Results and errors come
// back as signals; nothing here throws into the event loop.
#pragma once

#include "engine/core/output_file.h"
#include "engine/data/dataset.h"
#include "ui/panels/data_panel.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <vector>

namespace clusterdesk::gui {

// "FILE:LINE:COLUMN: message" as a person reads it.
QString describeLoadError(const std::exception& error);

class DataLoader : public QObject {
    Q_OBJECT
public:
    // The files of the run store (engine/core/output_file.h storeFiles), which are never
    // opened as data: closing them here would drop the store's locks.
    explicit DataLoader(std::vector<ProtectedFile> storeFiles, QObject* parent = nullptr);

    // Any thread: the load in progress (or the next one, if it has not started) stops
    // at its next progress report.
    void requestCancel() { m_cancel.store(true); }
    // Before queuing a load or demo: it starts uncancelled.
    void resetCancel() { m_cancel.store(false); }

public slots:
    void preview(const QString& path);
    void loadFile(const QString& path, int returnWindow);
    void makeDemo(const QString& spec);

signals:
    void previewReady(const clusterdesk::ui::FilePreview& preview);
    void progress(double fraction);
    void loaded(std::shared_ptr<const clusterdesk::Dataset> data);
    void failed(const QString& message);
    void cancelled();

private:
    // Throws DataError when `path` is one of the store's files; opens nothing.
    void refuseStoreFiles(const QString& path) const;

    std::vector<ProtectedFile> m_storeFiles;
    std::atomic<bool> m_cancel{false};
};

}  // namespace clusterdesk::gui
