#include "scrolling_layout.h"

#include <QEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QVBoxLayout>

namespace clusterdesk::ui {
namespace {

// Scrolls up and down only: as wide as its content needs (the dock widens for a long
// line, as it would for the panel itself), as short as the dock allows.
class VerticalScrollArea : public QScrollArea {
public:
    explicit VerticalScrollArea(QWidget* parent) : QScrollArea(parent)
    {
        setWidgetResizable(true);
        setFrameShape(QFrame::NoFrame);
        setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    }

    QSize minimumSizeHint() const override { return {contentWidth(), QScrollArea::minimumSizeHint().height()}; }
    QSize sizeHint() const override { return {contentWidth(), widget() ? widget()->sizeHint().height() : 0}; }

protected:
    // The content's minimum width changes with its text: the dock is asked again.
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (watched == widget() && event->type() == QEvent::LayoutRequest) updateGeometry();
        return QScrollArea::eventFilter(watched, event);
    }

private:
    int contentWidth() const
    {
        return (widget() ? widget()->minimumSizeHint().width() : 0) + verticalScrollBar()->sizeHint().width();
    }
};

}  // namespace

QVBoxLayout* scrollingLayout(QWidget* panel)
{
    auto* scroll = new VerticalScrollArea(panel);
    auto* content = new QWidget(scroll);
    scroll->setWidget(content);
    content->installEventFilter(scroll);
    auto* outer = new QVBoxLayout(panel);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);
    return new QVBoxLayout(content);
}

}  // namespace clusterdesk::ui
