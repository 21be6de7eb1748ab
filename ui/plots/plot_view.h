// What every graph of the workstation shares: zoom and pan with the mouse, a legend,
// and a context menu that exports the picture (PNG, PDF, SVG) or copies the plotted
// numbers to the clipboard as CSV. A graph derives from it and says how to draw the
// runs of a RunSet and how to write its data as CSV.
#pragma once

#include "engine/core/output_file.h"

#include <qcustomplot.h>

#include <QString>

#include <vector>

namespace clusterdesk::ui {

class RunSet;

class PlotView : public QCustomPlot {
    Q_OBJECT
public:
    explicit PlotView(QWidget* parent = nullptr);

    // Redraws from the runs (called at most at screen rate by the window).
    virtual void refresh(const RunSet& runs) = 0;
    // The plotted numbers, one header line then one line per point.
    virtual QString csv() const = 0;

    // Export by file suffix: .png, .pdf or .svg. Returns false (and says why in error)
    // when the file cannot be written, or would replace one of the kept files.
    bool exportTo(const QString& path, QString* error = nullptr);
    // Files no export may replace (the run store's, engine/store/store_path.h).
    void keepFromExports(std::vector<ProtectedFile> files) { m_keep = std::move(files); }
    void copyCsvToClipboard() const;
    // Draws the graph at width x height (logical pixels) onto any paint device: an
    // SVG generator, a QPicture replayed into a PDF (vector output either way).
    bool paint(QPaintDevice& device, int width, int height);
    // The title shown above the axes (what the graph says it shows).
    QString title() const;
    // The note under the title (why a result is what it is), or empty when none is shown.
    QString note() const;
    // Ticks on whole numbers only (1, 2, 3, 5, 10, ... apart), for axes that count iterations
    // or clusters.
    static void useWholeNumberTicks(QCPAxis* axis);

protected:
    // Moves the legend from inside the axes to a strip below them, `columns` per row:
    // for graphs whose data fills the whole rectangle or whose legend is long.
    void placeLegendBelow(int columns);
    // Sets the title shown above the axes.
    void setTitle(const QString& title);
    // Shows lines of text under the title, in a smaller font; empty removes them.
    void setNote(const QString& note);
    // Zoom and pan back to the data after new points arrived, unless the user zoomed;
    // true when it rescaled (so the caller may adjust the ranges further).
    bool rescaleUnlessZoomed();
    // Room above the highest value (a share of the axis's span), so the largest points
    // and lines at the data's maximum stand clear of the frame rather than on it.
    static void leaveHeadroom(QCPAxis* axis, double share = 0.08);

private:
    // Puts the legend in its strip below the axes while it has items, takes it out while
    // it has none; before every drawing once placeLegendBelow was called.
    void fitLegendStrip();
    void showContextMenu(const QPoint& pos);
    void exportWithDialog(const QString& suffix, const QString& filter);
    bool saveSvg(const QString& path);

    QCPTextElement* m_title = nullptr;
    QCPTextElement* m_note = nullptr;  // row 1 while a note is shown
    bool m_legendBelow = false;        // placeLegendBelow was called
    bool m_userZoomed = false;
    std::vector<ProtectedFile> m_keep;
};

}  // namespace clusterdesk::ui
