// Data panel: open a file (dialog or drag and drop) with a preview of its first lines
// and the layout detected before loading, or generate a demo with its parameters.
// Loading shows progress and can be cancelled. The panel only asks (signals); the glue
// loads off the UI thread and answers through the slots.
#pragma once

#include "engine/data/dataset.h"

#include <QStringList>
#include <QWidget>

#include <memory>

class QComboBox;
class QFileDialog;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace clusterdesk::ui {

class LiveFeedPanel;

// What a file looks like before it is loaded.
struct FilePreview {
    QString path;
    QString source;          // the data source that reads it: "csv", "prices", "hdf5", ...; empty when unreadable
    QString holds;           // what its rows are, in words: "a matrix", "a prices table", ...
    QStringList firstLines;  // the first lines as text (binary files: a description)
    QString error;           // non-empty when the file cannot be read
};

class DataPanel : public QWidget {
    Q_OBJECT
public:
    explicit DataPanel(QWidget* parent = nullptr);

    // The Live feed group: a tick stream clustered as it comes, instead of a file.
    LiveFeedPanel& liveFeed() { return *m_liveFeed; }

    // Default parameters of a demo, as its spec's keys with values.
    static QString defaultDemoParameters(const QString& name);

public slots:
    // Shows the Open data dialog (what Open file... does); a chosen file is previewed.
    void openDialog();
    // Asks for a preview of path (also what a drop does).
    void chooseFile(const QString& path);
    void showPreview(const clusterdesk::ui::FilePreview& preview);
    // cancellable: files are; demos are generated in one go.
    void setLoading(bool loading, bool cancellable = true);
    void setLoadProgress(double fraction);
    // The dataset now loaded (its first rows are shown).
    void showDataset(std::shared_ptr<const clusterdesk::Dataset> data);

signals:
    void previewRequested(const QString& path);
    // returnWindow: prices/ticks, the last N returns (0 = all).
    void loadRequested(const QString& path, int returnWindow);
    void demoRequested(const QString& spec);
    void loadCancelRequested();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    QFileDialog* m_dialog = nullptr;  // created on first use
    QString m_previewPath;
    QComboBox* m_demo = nullptr;
    QLineEdit* m_demoParameters = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_open = nullptr;
    QLabel* m_fileLabel = nullptr;
    QLabel* m_layoutLabel = nullptr;
    QSpinBox* m_returnWindow = nullptr;
    QPlainTextEdit* m_fileLines = nullptr;
    QPushButton* m_load = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancelLoad = nullptr;
    QLabel* m_datasetLabel = nullptr;
    LiveFeedPanel* m_liveFeed = nullptr;
    QTableWidget* m_rows = nullptr;
};

}  // namespace clusterdesk::ui

Q_DECLARE_METATYPE(clusterdesk::ui::FilePreview)
Q_DECLARE_METATYPE(std::shared_ptr<const clusterdesk::Dataset>)
