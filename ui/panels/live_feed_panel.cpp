#include "live_feed_panel.h"


#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

namespace clusterdesk::ui {
namespace {

QSpinBox* spin(int minimum, int maximum, int value, const QString& suffix)
{
    auto* box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setValue(value);
    box->setSuffix(suffix);
    return box;
}

}  // namespace

LiveFeedPanel::LiveFeedPanel(QWidget* parent)
    : QGroupBox(tr("Live feed"), parent)
{
    setObjectName("liveFeedPanel");
    m_url = new QLineEdit;
    m_url->setObjectName("liveUrl");
    m_url->setPlaceholderText(tr("ws://127.0.0.1:PORT (clusterdesk-feed prints it)"));
    m_symbols = new QLineEdit;
    m_symbols->setObjectName("liveSymbols");
    m_symbols->setPlaceholderText(tr("all symbols, or A,B,C"));
    m_bar = spin(1, 3600, 1, tr(" s"));
    m_bar->setObjectName("liveBar");
    m_window = spin(2, 100000, 60, tr(" bars"));
    m_window->setObjectName("liveWindow");
    m_every = spin(1, 100000, 5, tr(" bars"));
    m_every->setObjectName("liveEvery");
    m_start = new QPushButton(tr("Start"));
    m_start->setObjectName("liveStart");
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setObjectName("liveStop");
    m_stop->setEnabled(false);
    m_state = new QLabel(tr("not connected"));
    m_state->setObjectName("liveState");
    m_state->setWordWrap(true);
    m_counts = new QLabel;
    m_counts->setObjectName("liveCounts");

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_start);
    buttons->addWidget(m_stop);
    auto* form = new QFormLayout(this);
    form->addRow(tr("URL:"), m_url);
    form->addRow(tr("Symbols:"), m_symbols);
    form->addRow(tr("Bar:"), m_bar);
    form->addRow(tr("Window:"), m_window);
    form->addRow(tr("Update every:"), m_every);
    form->addRow(buttons);
    form->addRow(tr("State:"), m_state);
    form->addRow(m_counts);

    connect(m_start, &QPushButton::clicked, this, [this] { emit startRequested(request()); });
    connect(m_stop, &QPushButton::clicked, this, &LiveFeedPanel::stopRequested);
}

LiveFeedRequest LiveFeedPanel::request() const
{
    LiveFeedRequest r;
    r.url = m_url->text().trimmed();
    for (const QString& symbol : m_symbols->text().split(',', Qt::SkipEmptyParts))
        if (!symbol.trimmed().isEmpty()) r.symbols.push_back(symbol.trimmed().toStdString());
    r.barSeconds = m_bar->value();
    r.windowBars = m_window->value();
    r.updateEveryBars = m_every->value();
    return r;
}

void LiveFeedPanel::setUrl(const QString& url)
{
    m_url->setText(url);
}

void LiveFeedPanel::setRunning(bool running)
{
    m_start->setEnabled(!running);
    m_stop->setEnabled(running);
    for (QWidget* input : std::initializer_list<QWidget*>{m_url, m_symbols, m_bar, m_window, m_every}) input->setEnabled(!running);
    if (!running) m_state->setText(tr("stopped"));
}

void LiveFeedPanel::showStatus(const LiveFeedStatus& s)
{
    m_state->setText(s.lastProblem.isEmpty() ? s.state : tr("%1 (%2)").arg(s.state, s.lastProblem));
    // Short lines of their own rather than one long one to wrap: a dock does not grow
    // for a wrapped label's height, and cut its last line.
    m_counts->setText(tr("%1 messages/s\n%2 messages, %3 ticks\n%4 gaps (%5 missing), %6 reconnects, %7 bad")
                          .arg(s.messagesPerSecond, 0, 'f', 0)
                          .arg(s.messages)
                          .arg(s.ticks)
                          .arg(s.gaps)
                          .arg(s.missing)
                          .arg(s.reconnects)
                          .arg(s.bad));
    // The reasons on hover: a line of them would widen the dock.
    m_counts->setToolTip(s.badByReason.isEmpty() ? QString() : tr("Bad messages: %1").arg(s.badByReason));
}

}  // namespace clusterdesk::ui
