#include "data_panel.h"

#include "live_feed_panel.h"
#include "scrolling_layout.h"

#include "engine/data/source_registry.h"
#include "ui/file_dialog.h"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace clusterdesk::ui {
namespace {

constexpr int kPreviewRows = 20;
constexpr int kPreviewCols = 8;

}  // namespace

QString DataPanel::defaultDemoParameters(const QString& name)
{
    if (name == "market") return "assets=500,sectors=10,days=750,seed=7,window=0";
    if (name == "blobs") return "n=10000,d=16,k=8,seed=7,spread=1.0";
    return {};
}

DataPanel::DataPanel(QWidget* parent)
    : QWidget(parent)
{
    setObjectName("dataPanel");
    setAcceptDrops(true);
    // A file's preview and a feed's fields and counts make the panel tall: it scrolls
    // rather than crush them in a short dock.
    QVBoxLayout* layout = scrollingLayout(this);

    auto* demoBox = new QGroupBox(tr("Demo"), this);
    auto* demoForm = new QFormLayout(demoBox);
    m_demo = new QComboBox(demoBox);
    m_demo->setObjectName("demoName");
    m_demo->addItems({"market", "blobs"});
    m_demo->setToolTip(tr("market: daily prices of assets in planted sectors (a factor model calibrated to daily equity "
                          "returns), clustered by the correlation of their returns.\nblobs: Gaussian blobs, for scale."));
    m_demoParameters = new QLineEdit(defaultDemoParameters("market"), demoBox);
    m_demoParameters->setObjectName("demoParameters");
    m_demoParameters->setToolTip(tr("key=value pairs, comma separated.\nmarket: assets, sectors, days, seed, window "
                                    "(last N returns, 0 = all), corr_market, corr_sector, strong (the former, easier "
                                    "generator), scale_days (0: days unscaled)\nblobs: n (rows), d (columns), k (blobs), seed, "
                                    "spread, overlap"));
    m_generate = new QPushButton(tr("Generate"), demoBox);
    m_generate->setObjectName("generateDemo");
    demoForm->addRow(tr("Demo"), m_demo);
    demoForm->addRow(tr("Parameters"), m_demoParameters);
    demoForm->addRow(m_generate);
    connect(m_demo, &QComboBox::currentTextChanged, this,
            [this](const QString& name) { m_demoParameters->setText(defaultDemoParameters(name)); });
    connect(m_generate, &QPushButton::clicked, this, [this] {
        const QString parameters = m_demoParameters->text().trimmed();
        emit demoRequested(parameters.isEmpty() ? m_demo->currentText() : m_demo->currentText() + ":" + parameters);
    });
    layout->addWidget(demoBox);

    auto* fileBox = new QGroupBox(tr("File (or drop one here)"), this);
    auto* fileLayout = new QVBoxLayout(fileBox);
    m_open = new QPushButton(tr("Open file..."), fileBox);
    m_open->setObjectName("openFile");
    m_open->setToolTip(tr("CSV/TSV matrices, wide price files (date column, one column per asset), long tick files "
                          "(timestamp,symbol,price[,size]), NumPy .npy or HDF5 (.h5, .hdf5). The format is detected from the "
                          "content."));
    connect(m_open, &QPushButton::clicked, this, &DataPanel::openDialog);
    m_fileLabel = new QLabel(tr("No file chosen"), fileBox);
    m_fileLabel->setWordWrap(true);
    m_layoutLabel = new QLabel(fileBox);
    m_layoutLabel->setObjectName("detectedLayout");
    m_returnWindow = new QSpinBox(fileBox);
    m_returnWindow->setRange(0, 100000);
    m_returnWindow->setSpecialValueText(tr("all returns"));
    m_returnWindow->setToolTip(tr("Prices and ticks: cluster on the last N log returns only (0 = all)."));
    m_fileLines = new QPlainTextEdit(fileBox);
    m_fileLines->setObjectName("filePreview");
    m_fileLines->setReadOnly(true);
    m_fileLines->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_fileLines->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_fileLines->setMaximumHeight(64);
    m_fileLines->setVisible(false);  // until a file's first lines are read: its room goes to the rows below
    // Choosing a file loads it; this loads it again, e.g. with another return window.
    m_load = new QPushButton(tr("Reload"), fileBox);
    m_load->setObjectName("loadFile");
    m_load->setToolTip(tr("Load the chosen file again with the options above (the file loads as soon as it is chosen)"));
    m_load->setEnabled(false);
    connect(m_load, &QPushButton::clicked, this, [this] { emit loadRequested(m_previewPath, m_returnWindow->value()); });
    auto* windowRow = new QHBoxLayout;
    windowRow->addWidget(new QLabel(tr("Return window"), fileBox));
    windowRow->addWidget(m_returnWindow, 1);
    fileLayout->addWidget(m_open);
    fileLayout->addWidget(m_fileLabel);
    fileLayout->addWidget(m_layoutLabel);
    fileLayout->addWidget(m_fileLines);
    fileLayout->addLayout(windowRow);
    fileLayout->addWidget(m_load);
    layout->addWidget(fileBox);

    auto* progressRow = new QHBoxLayout;
    m_progress = new QProgressBar(this);
    m_progress->setObjectName("loadProgress");
    m_progress->setRange(0, 1000);
    m_progress->setVisible(false);
    m_cancelLoad = new QPushButton(tr("Cancel"), this);
    m_cancelLoad->setObjectName("cancelLoad");
    m_cancelLoad->setVisible(false);
    connect(m_cancelLoad, &QPushButton::clicked, this, &DataPanel::loadCancelRequested);
    progressRow->addWidget(m_progress, 1);
    progressRow->addWidget(m_cancelLoad);
    layout->addLayout(progressRow);

    m_datasetLabel = new QLabel(tr("Run will use: nothing yet (generate a demo or choose a file)"), this);
    m_datasetLabel->setObjectName("datasetLabel");
    m_datasetLabel->setWordWrap(true);
    layout->addWidget(m_datasetLabel);
    m_rows = new QTableWidget(this);
    m_rows->setObjectName("datasetRows");
    m_rows->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_rows->horizontalHeader()->setDefaultSectionSize(70);
    constexpr int kRowHeight = 20;
    m_rows->verticalHeader()->setDefaultSectionSize(kRowHeight);
    // The header and at least four rows of the data in view.
    m_rows->setMinimumHeight(5 * kRowHeight + 2 * m_rows->frameWidth());
    layout->addWidget(m_rows, 1);

    // A feed instead of a file: it clusters as the ticks come (the Live tab).
    m_liveFeed = new LiveFeedPanel(this);
    layout->addWidget(m_liveFeed);
}

void DataPanel::openDialog()
{
    // Shown without blocking (window-modal), and kept: it reopens where it was left.
    if (!m_dialog) {
        QStringList patterns;
        for (const std::string& ext : data::dataFileExtensions()) patterns << "*." + QString::fromStdString(ext);
        m_dialog = makeFileDialog(this, tr("Open data"), tr("Data (%1);;All files (*)").arg(patterns.join(' ')));
        m_dialog->setObjectName("openDataDialog");
        m_dialog->setAcceptMode(QFileDialog::AcceptOpen);
        m_dialog->setFileMode(QFileDialog::ExistingFile);
        connect(m_dialog, &QFileDialog::fileSelected, this, &DataPanel::chooseFile);
    }
    m_dialog->open();
}

void DataPanel::chooseFile(const QString& path)
{
    m_previewPath = path;
    m_fileLabel->setText(QFileInfo(path).fileName());
    m_fileLabel->setToolTip(path);
    m_layoutLabel->setText(tr("Reading..."));
    m_fileLines->clear();
    m_fileLines->setVisible(false);
    m_load->setEnabled(false);
    emit previewRequested(path);
}

void DataPanel::showPreview(const FilePreview& preview)
{
    if (preview.path != m_previewPath) return;  // a newer file was chosen meanwhile
    if (!preview.error.isEmpty()) {
        m_layoutLabel->setText(tr("Cannot read: %1").arg(preview.error));
        return;
    }
    m_layoutLabel->setText(tr("Detected: %1 (%2)").arg(preview.source, preview.holds));
    m_fileLines->setPlainText(preview.firstLines.join('\n'));
    m_fileLines->setVisible(true);
    m_load->setEnabled(true);
    // One step: a file chosen (dialog or drop) and readable is the file Run will use.
    emit loadRequested(m_previewPath, m_returnWindow->value());
}

void DataPanel::setLoading(bool loading, bool cancellable)
{
    m_progress->setVisible(loading);
    m_cancelLoad->setVisible(loading && cancellable);
    m_progress->setRange(0, cancellable ? 1000 : 0);  // a demo has no progress to report: busy
    m_progress->setValue(0);
    m_load->setEnabled(!loading && !m_previewPath.isEmpty());
    m_generate->setEnabled(!loading);
    m_open->setEnabled(!loading);
}

void DataPanel::setLoadProgress(double fraction)
{
    m_progress->setValue(static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 1000));
}

void DataPanel::showDataset(std::shared_ptr<const Dataset> data)
{
    if (!data) return;
    // A demo, however it was asked for (the panel, clusterdesk --demo, a run from
    // History): the Demo box shows its spec, so Generate makes it again.
    if (isGenerated(data->spec)) {
        const QString spec = QString::fromStdString(data->spec.location);
        const qsizetype colon = spec.indexOf(':');
        const QString name = colon < 0 ? spec : spec.left(colon);
        if (m_demo->findText(name) >= 0) {
            m_demo->setCurrentText(name);  // resets the parameters to the demo's defaults first
            m_demoParameters->setText(colon < 0 ? QString() : spec.mid(colon + 1));
        }
    }
    // What loading did (forward-fills, dropped assets, missing-value spellings), as the CLI prints it.
    QStringList notes;
    for (const std::string& note : data->notes) notes << QString::fromStdString(note);
    m_datasetLabel->setText(tr("Run will use: %1\n%2 rows x %3 columns, %4 layout%5%6")
                                .arg(QString::fromStdString(data->source))
                                .arg(data->rows)
                                .arg(data->cols)
                                .arg(QString::fromStdString(toString(data->layout)))
                                .arg(data->hasTruth() ? tr(", with ground truth") : QString())
                                .arg(notes.isEmpty() ? QString() : "\n" + notes.join('\n')));
    const int rows = static_cast<int>(std::min<std::int64_t>(data->rows, kPreviewRows));
    const int cols = static_cast<int>(std::min<std::int64_t>(data->cols, kPreviewCols));
    m_rows->clear();
    m_rows->setRowCount(rows);
    m_rows->setColumnCount(cols);
    QStringList headers;
    for (int j = 0; j < cols; ++j)
        headers << (static_cast<std::size_t>(j) < data->colNames.size() ? QString::fromStdString(data->colNames[static_cast<std::size_t>(j)])
                                                                         : tr("col %1").arg(j + 1));
    m_rows->setHorizontalHeaderLabels(headers);
    QStringList rowNames;
    for (int i = 0; i < rows; ++i) {
        rowNames << (static_cast<std::size_t>(i) < data->rowNames.size() ? QString::fromStdString(data->rowNames[static_cast<std::size_t>(i)])
                                                                         : QString::number(i + 1));
        for (int j = 0; j < cols; ++j)
            m_rows->setItem(i, j, new QTableWidgetItem(QString::number(data->row(i)[j], 'g', 5)));
    }
    m_rows->setVerticalHeaderLabels(rowNames);
    // Wide enough for the headers too (dates, tickers), which the default width cut.
    m_rows->resizeColumnsToContents();
}

void DataPanel::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void DataPanel::dropEvent(QDropEvent* event)
{
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) chooseFile(urls.front().toLocalFile());
}

}  // namespace clusterdesk::ui
