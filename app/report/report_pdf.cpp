#include "report_pdf.h"

#include "report_html.h"

#include "clusterdesk/version.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextObjectInterface>

#include <algorithm>

namespace clusterdesk::report {
namespace {

constexpr int kPlotObjectType = QTextFormat::UserObject + 1;
constexpr int kPlotIndexProperty = QTextFormat::UserProperty + 1;

// Draws a graph's QPicture where its placeholder stood: replayed into the PDF painter,
// it stays vector (lines, text) rather than a bitmap.
class PlotObject : public QObject, public QTextObjectInterface {
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)
public:
    explicit PlotObject(const std::vector<const RenderedPlot*>& plots) : m_plots(plots) {}

    QSizeF intrinsicSize(QTextDocument* document, int, const QTextFormat&) override
    {
        return QSizeF(kReportPlotSize) * kFit * deviceScale(document);
    }

    void drawObject(QPainter* painter, const QRectF& rect, QTextDocument*, int, const QTextFormat& format) override
    {
        const int index = format.property(kPlotIndexProperty).toInt();
        if (index < 0 || index >= static_cast<int>(m_plots.size())) return;
        painter->save();
        painter->translate(rect.topLeft());
        painter->scale(kFit, kFit);
        // drawPicture itself scales by the ratio of the device's resolution to the picture's.
        painter->drawPicture(QPointF(0, 0), m_plots[static_cast<std::size_t>(index)]->picture);
        painter->restore();
    }

private:
    // A graph spans the text width of an A4 page with 2 cm margins: 620 logical pixels.
    static constexpr qreal kFit = 620.0 / 820.0;

    // The document lays out in its paint device's pixels (the PDF writer's resolution);
    // graphs were recorded in 96 dpi logical pixels.
    static qreal deviceScale(QTextDocument* document)
    {
        const QPaintDevice* device = document->documentLayout()->paintDevice();
        return device ? device->logicalDpiX() / 96.0 : 1.0;
    }

    const std::vector<const RenderedPlot*>& m_plots;
};

// Swaps every <img src="plot:N"> the HTML import made for the graph object.
void replacePlaceholders(QTextDocument& document)
{
    std::vector<std::pair<int, int>> found;  // position, graph index
    for (QTextBlock block = document.begin(); block.isValid(); block = block.next()) {
        for (QTextBlock::iterator it = block.begin(); !it.atEnd(); ++it) {
            const QTextFragment fragment = it.fragment();
            if (!fragment.charFormat().isImageFormat()) continue;
            const int index = plotPlaceholderIndex(fragment.charFormat().toImageFormat().name());
            if (index >= 0) found.emplace_back(fragment.position(), index);
        }
    }
    // Back to front, so earlier positions stay valid.
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [position, index] : found) {
        QTextCursor cursor(&document);
        cursor.setPosition(position);
        cursor.setPosition(position + 1, QTextCursor::KeepAnchor);
        QTextCharFormat format;
        format.setObjectType(kPlotObjectType);
        format.setProperty(kPlotIndexProperty, index);
        cursor.insertText(QString(QChar::ObjectReplacementCharacter), format);
    }
}

}  // namespace

QByteArray reportPdf(const QString& html, const QString& title, const std::vector<const RenderedPlot*>& plots)
{
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setTitle(title);
        writer.setCreator(QString("ClusterDesk %1").arg(CLUSTERDESK_VERSION));
        writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
        writer.setResolution(300);

        QTextDocument document;
        PlotObject plotObject(plots);
        document.documentLayout()->registerHandler(kPlotObjectType, &plotObject);
        document.setHtml(html);
        replacePlaceholders(document);
        document.print(&writer);
    }
    return bytes;
}

}  // namespace clusterdesk::report

#include "report_pdf.moc"
