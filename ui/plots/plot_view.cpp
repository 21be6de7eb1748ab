#include "plot_view.h"

#include "engine/core/error.h"
#include "ui/file_dialog.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSvgGenerator>
#include <QTemporaryFile>

#include <cstdio>

namespace clusterdesk::ui {

PlotView::PlotView(QWidget* parent)
    : QCustomPlot(parent)
{
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    legend->setVisible(true);
    QFont legendFont = font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    legend->setFont(legendFont);
    legend->setBrush(QColor(255, 255, 255, 220));
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString(), QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plotLayout()->addElement(0, 0, m_title);
    setContextMenuPolicy(Qt::CustomContextMenu);
    connect(this, &QWidget::customContextMenuRequested, this, &PlotView::showContextMenu);
    // A drag or wheel means the user chose a view: live updates stop rescaling until a
    // double click asks for the whole data again.
    connect(this, &QCustomPlot::mouseWheel, this, [this] { m_userZoomed = true; });
    connect(this, &QCustomPlot::mousePress, this, [this](QMouseEvent* event) {
        if (event->button() == Qt::LeftButton) m_userZoomed = true;
    });
    connect(this, &QCustomPlot::mouseDoubleClick, this, [this] {
        m_userZoomed = false;
        rescaleAxes();
        replot(QCustomPlot::rpQueuedReplot);
    });
}

void PlotView::placeLegendBelow(int columns)
{
    axisRect()->insetLayout()->take(legend);
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, /*rearrange=*/true);  // the items already there too
    legend->setMargins(QMargins(4, 2, 4, 2));
    // The legend's frame is drawn on its outer edge: spanning the whole width, its right
    // side fell just outside the widget. The plot keeps that much inside its edges.
    plotLayout()->setMargins(QMargins(1, 0, 2, 2));
    m_legendBelow = true;
    connect(this, &QCustomPlot::beforeReplot, this, &PlotView::fitLegendStrip);
}

void PlotView::fitLegendStrip()
{
    // An empty legend's widest is its margins, and a layout column is as narrow as its
    // narrowest element allows: in the strip, it would squeeze the axes to the title's
    // width until the first graph arrives. So the strip holds it only while it has items.
    const bool filled = legend->itemCount() > 0;
    const bool placed = legend->layout() == plotLayout();
    if (filled && !placed) {
        plotLayout()->addElement(plotLayout()->rowCount(), 0, legend);
        plotLayout()->setRowStretchFactor(plotLayout()->rowCount() - 1, 0.001);
    } else if (!filled && placed) {
        plotLayout()->take(legend);
        plotLayout()->simplify();
    }
    legend->setVisible(filled);
}

void PlotView::useWholeNumberTicks(QCPAxis* axis)
{
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    axis->setTicker(ticker);
}

void PlotView::setTitle(const QString& title)
{
    m_title->setText(title);
}

QString PlotView::title() const
{
    return m_title->text();
}

void PlotView::setNote(const QString& note)
{
    if (note.isEmpty()) {
        if (m_note) {
            plotLayout()->remove(m_note);
            plotLayout()->simplify();
            m_note = nullptr;
        }
        return;
    }
    if (!m_note) {
        plotLayout()->insertRow(1);
        QFont small = font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        m_note = new QCPTextElement(this, QString(), small);
        m_note->setTextColor(QColor(60, 60, 60));
        plotLayout()->addElement(1, 0, m_note);
    }
    m_note->setText(note);
}

QString PlotView::note() const
{
    return m_note ? m_note->text() : QString();
}

bool PlotView::rescaleUnlessZoomed()
{
    if (m_userZoomed) return false;
    rescaleAxes();
    return true;
}

void PlotView::leaveHeadroom(QCPAxis* axis, double share)
{
    const QCPRange range = axis->range();
    axis->setRangeUpper(range.upper + share * range.size());
}

bool PlotView::exportTo(const QString& path, QString* error)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != "png" && suffix != "pdf" && suffix != "svg") {
        if (error) *error = tr("%1: unknown picture format '%2' (use .png, .pdf or .svg)").arg(path, suffix);
        return false;
    }
    try {
        checkOutputPath(tr("Export graph").toStdString(), path.toStdString(), m_keep);
    } catch (const Error& e) {
        if (error) *error = QString::fromStdString(e.what());
        return false;
    }
    // Drawn under a temporary name beside the target and renamed over it only when
    // complete: a failed export never leaves half a picture in place of a good one.
    QTemporaryFile temporary(QFileInfo(path).absolutePath() + "/.XXXXXX." + suffix);
    bool ok = temporary.open();
    if (ok) {
        temporary.close();  // QCustomPlot writes by file name
        // A picture is readable by others, as any new file; the temporary file is private.
        temporary.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
        const QString name = temporary.fileName();
        ok = suffix == "png" ? savePng(name, 0, 0, 1.0, -1, 96) : suffix == "pdf" ? savePdf(name) : saveSvg(name);
        ok = ok && ::rename(QFile::encodeName(name).constData(), QFile::encodeName(path).constData()) == 0;
        temporary.setAutoRemove(!ok);
    }
    if (!ok && error) *error = tr("%1: cannot write the file").arg(path);
    return ok;
}

void PlotView::copyCsvToClipboard() const
{
    QApplication::clipboard()->setText(csv());
}

bool PlotView::saveSvg(const QString& path)
{
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size());
    generator.setViewBox(rect());
    generator.setTitle(m_title->text());
    return paint(generator, width(), height());
}

bool PlotView::paint(QPaintDevice& device, int width, int height)
{
    // Drawn off screen (a report's graphs) no replot may have run since the last refresh,
    // and a legend below the axes stood in no layout then: it was left out of the picture.
    if (m_legendBelow) fitLegendStrip();
    QCPPainter painter;
    if (!painter.begin(&device)) return false;
    toPainter(&painter, width, height);
    return painter.end();
}

void PlotView::exportWithDialog(const QString& suffix, const QString& filter)
{
    QFileDialog* dialog = makeFileDialog(this, tr("Export graph"), filter);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->selectFile(objectName() + "." + suffix);
    const bool chosen = dialog->exec() == QDialog::Accepted && !dialog->selectedFiles().isEmpty();
    QString path = chosen ? dialog->selectedFiles().front() : QString();
    delete dialog;
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += "." + suffix;
    QString error;
    if (!exportTo(path, &error)) QMessageBox::warning(this, tr("Export graph"), error);
}

void PlotView::showContextMenu(const QPoint& pos)
{
    QMenu menu(this);
    menu.addAction(tr("Export PNG..."), this, [this] { exportWithDialog("png", tr("PNG image (*.png)")); });
    menu.addAction(tr("Export PDF..."), this, [this] { exportWithDialog("pdf", tr("PDF document (*.pdf)")); });
    menu.addAction(tr("Export SVG..."), this, [this] { exportWithDialog("svg", tr("SVG drawing (*.svg)")); });
    menu.addSeparator();
    menu.addAction(tr("Copy data as CSV"), this, &PlotView::copyCsvToClipboard);
    menu.addAction(tr("Reset zoom"), this, [this] {
        m_userZoomed = false;
        rescaleAxes();
        replot();
    });
    menu.exec(mapToGlobal(pos));
}

}  // namespace clusterdesk::ui
